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
	{"advise", "from saved results: the SQLite pragmas or the group commit that meet your target", runAdvise},
	{"compare", "put runs (or machines) side by side: ratios per case and whether they are significant", runCompare},
	{"crash", "simulate power cuts: which acknowledged commits survive, under which persistence model", runCrash},
	{"version", "print the build: version, git revision, Go, cgo, SQLite engines", runVersion},
	{"verify", "check durabench itself on the disk under --dir: counts, read-back, tracer, flushes", runVerify},
	{"report", "write report.md and a self-contained report.html with plots from a results directory", runReport},
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

// dispatch runs a child role (see roles.go) or a public command, and
// returns the exit status.
func dispatch(args []string) int {
	if code, ok := dispatchRole(args); ok {
		return code
	}
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
		return exitStatus(c.name, c.run(args[1:]), true)
	}
	fmt.Fprintf(os.Stderr, "durabench: unknown command %q; commands: %s\n", args[0], strings.Join(commandNames(), ", "))
	return exitUsage
}

// exitStatus reports err, if any, from the command or role name and returns
// the exit status: 0 (also after --help), 2 for refused input (with a
// pointer to the command's --help if helpHint), 1 for any other failure.
func exitStatus(name string, err error, helpHint bool) int {
	var stopped stoppedError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &stopped):
		return stopped.exitCode() // what happened is said already
	case errors.Is(err, pflag.ErrHelp):
		return exitOK
	case isUsageError(err):
		fmt.Fprintf(os.Stderr, "durabench %s: %v\n", name, err)
		if helpHint {
			fmt.Fprintf(os.Stderr, "Run 'durabench %s --help' for the flags and examples.\n", name)
		}
		return exitUsage
	default:
		fmt.Fprintf(os.Stderr, "durabench %s: %v\n", name, err)
		return exitFailure
	}
}

// commandNames lists the public commands, as the unknown-command message
// shows them.
func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
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
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'durabench COMMAND --help' for a command's flags and examples, 'durabench --version' for the build.")
	fmt.Fprintln(w, "Every measuring command works only inside a new child directory of --dir and removes it at the end.")
}
