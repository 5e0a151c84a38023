// Command durabench measures what it costs to make data durable, and checks
// what each layer really does when asked to.
//
// This package parses flags and wires the libraries together; it holds no
// measurement logic. Each subcommand lives in a file of its own.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"
)

// command is one subcommand: its name, a one-line summary for the overview,
// and the function that runs it with the arguments after its name.
type command struct {
	name    string
	summary string
	run     func(args []string) error
}

// commands is the table of contents of the tool.
var commands = []command{
	{"suite", "a quick tour of the disk under --dir (default .): sync methods, a log, SQLite", runSuite},
	{"sync", "time write + sync for every sync method, file state and size", runSync},
	{"wal", "time a write-ahead log: layouts, buffered or direct I/O, group commit, read-back", runWAL},
	{"sqlite", "time SQLite commits per engine across journal_mode, synchronous and fullfsync", runSQLite},
	{"env", "print the environment a run records: OS, file system, device, cache, VM", runEnv},
	{"neighbor", "time a small sync while another process has unsynced data of its own", runNeighbor},
	{"trace", "run a command and count its sync, fcntl and write calls, by file", runTrace},
	{"version", "print the build: version, git revision, Go, cgo, SQLite engines", runVersion},

	// Internal roles (no summary: not listed, not for users).
	{"__count-sync", "", runCountSync},
	{"__count-sqlite", "", runCountSQLite},
	{"__count-wal", "", runCountWAL},
}

func main() {
	os.Exit(dispatch(os.Args[1:]))
}

// Exit statuses: 2 for input the tool refuses (before it touches any file),
// 1 for a failure while running.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func dispatch(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printOverview(os.Stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "--version" {
		args = []string{"version"}
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:])
		var stopped stoppedError
		switch {
		case err == nil:
			return exitOK
		case errors.As(err, &stopped):
			return stopped.exitCode() // what happened is said already
		case errors.Is(err, pflag.ErrHelp):
			return exitOK
		case isUsageError(err):
			fmt.Fprintf(os.Stderr, "durabench %s: %v\n", c.name, err)
			fmt.Fprintf(os.Stderr, "Run 'durabench %s --help' for the flags and examples.\n", c.name)
			return exitUsage
		default:
			fmt.Fprintf(os.Stderr, "durabench %s: %v\n", c.name, err)
			return exitFailure
		}
	}
	fmt.Fprintf(os.Stderr, "durabench: unknown command %q; commands: %s\n", args[0], strings.Join(commandNames(), ", "))
	fmt.Fprintln(os.Stderr, "Run 'durabench --help' for what each does.")
	return exitUsage
}

func commandNames() []string {
	var names []string
	for _, c := range commands {
		if !c.hidden() { // internal roles are not for users
			names = append(names, c.name)
		}
	}
	return names
}

func printOverview(w *os.File) {
	fmt.Fprintln(w, "durabench measures what it costs to make data durable, and what each layer really does.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: durabench COMMAND [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		if !c.hidden() {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'durabench COMMAND --help' for a command's flags and examples, 'durabench --version' for the build.")
	fmt.Fprintln(w, "Every measuring command works only inside a new child directory of --dir and removes it at the end.")
}
