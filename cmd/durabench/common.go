package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/durabench/durabench/results"
	"github.com/spf13/pflag"
)

// usageError is input the tool refuses: it exits with status 2, before any
// file is touched.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usageErrorf returns a usage error: refused input, exit status 2.
func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// asUsage marks err, if not nil, as refused input.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

func isUsageError(err error) bool {
	var u usageError
	return errors.As(err, &u)
}

// newFlags returns a flag set whose --help prints the synopsis, the flags and
// the examples.
func newFlags(name, synopsis, examples string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {
		w := os.Stdout
		// The synopsis opens with the command line, then a blank line and
		// what the command does.
		usage, about, _ := strings.Cut(strings.TrimSpace(synopsis), "\n\n")
		fmt.Fprintf(w, "Usage: durabench %s\n\n%s\n", usage, about)
		if fs.HasFlags() {
			fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
		}
		if examples != "" {
			fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(examples, "\n"))
		}
	}
	return fs
}

// parseFlags parses args; a parse error is refused input (exit 2) and --help
// returns pflag.ErrHelp after printing the help.
func parseFlags(fs *pflag.FlagSet, args []string) error {
	fs.SetOutput(devNull{})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return nil
}

// parseOptions is parseFlags for a command that takes flags only: an
// argument that is not a flag is refused input.
func parseOptions(fs *pflag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	return nil
}

// devNull discards pflag's own error printing: dispatch prints the error once.
type devNull struct{}

func (devNull) Write(p []byte) (int, error) { return len(p), nil }

// checkNewOut refuses an --out directory that exists already: results are
// never written over.
func checkNewOut(out string) error {
	if out == "" {
		return nil
	}
	if _, err := os.Lstat(out); err == nil {
		return usageErrorf("--out %s exists already: results are never overwritten; name a new directory", out)
	}
	if err := results.CheckOut(out); err != nil {
		return usageErrorf("--out %s: %v", out, strings.TrimPrefix(err.Error(), "results: "))
	}
	return nil
}
