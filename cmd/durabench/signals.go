package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// Invariants of stopping (every measuring command, through measure):
//   - SIGINT, SIGTERM, SIGHUP and SIGPIPE are alike: from the moment a
//     measuring command starts they arrive on a channel instead of ending
//     the process (for SIGPIPE this also makes a write to a closed standard
//     output or error return EPIPE, which counts as SIGPIPE).
//   - The first one stops the run (fixtures.Run.Stop); the measuring
//     goroutine notices between cases and returns; only then are the
//     unfinished --out and the run directory removed. Nothing is removed
//     while files are still being made.
//   - What is printed is what happened: "removed" only after a removal that
//     succeeded, "kept" with --keep, the path and the error otherwise.
//   - The exit status is 128 + the signal's number, as a shell reports a
//     process the signal killed.

// stopSignals are the signals that stop a run.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE}

// stoppedError is a run stopped by a signal; dispatch exits with 128 plus
// its number, the messages having been printed.
type stoppedError struct{ sig syscall.Signal }

func (e stoppedError) Error() string { return "stopped by " + signalName(e.sig) }

// exitCode is the status a shell gives a process the signal killed.
func (e stoppedError) exitCode() int { return 128 + int(e.sig) }

// signalName returns the signal's usual name, e.g. "SIGINT".
func signalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", int(s))
}

// watchStops makes the stop signals arrive on the returned channel instead
// of ending the process; it stays in force until the process exits, so
// that a late signal cannot cut the cleanup short.
func watchStops() chan os.Signal {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, stopSignals...)
	return ch
}

// pendingStop returns the first stop signal received and not yet handled,
// or 0.
func pendingStop(ch chan os.Signal) syscall.Signal {
	select {
	case s := <-ch:
		return s.(syscall.Signal)
	default:
		return 0
	}
}

// isBrokenPipe reports whether err is a write to a closed pipe: the reader
// of standard output went away (| head, a pager quit).
func isBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }

// say prints a line on standard error about stopping and cleaning up, even
// with --quiet: what became of the user's files is never kept quiet. It
// ends the progress line first. A closed standard error is ignored
// (SIGPIPE stops the run anyway).
func say(format string, args ...any) {
	if meter != nil {
		meter.Done()
	}
	fmt.Fprintf(os.Stderr, "durabench: "+format+"\n", args...)
}
