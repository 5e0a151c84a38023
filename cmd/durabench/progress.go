package main

import (
	"fmt"
	"os"

	"golang.org/x/term"

	progressmeter "github.com/durabench/durabench/internal/progress"
)

// quiet is --quiet: print only the result.
var quiet bool

// meter is the running command's progress meter, started by measure.
var meter *progressmeter.Meter

// plan is how many progress steps a measuring command takes, and how many
// plain lines it may write for them (one per case, not per round).
type plan struct{ steps, lines int }

// plus adds another stretch of steps (a counting pass, a part of the suite).
func (p plan) plus(q plan) plan { return plan{p.steps + q.steps, p.lines + q.lines} }

// startMeter starts the progress meter of a command: one rewritten line on
// a terminal, at most p.lines plain lines elsewhere, nothing with --quiet.
func startMeter(title string, p plan) *progressmeter.Meter {
	mode, width := progressmeter.Plain, 0
	switch fd := int(os.Stderr.Fd()); {
	case quiet:
		mode = progressmeter.Quiet
	case term.IsTerminal(fd):
		mode = progressmeter.Terminal
		width, _, _ = term.GetSize(fd)
	}
	meter = progressmeter.New(os.Stderr, mode, progressmeter.Options{Title: title, Total: p.steps, Lines: p.lines, Width: width})
	return meter
}

// progress is the runners' progress function: the next step begins.
func progress(line string) {
	if meter != nil {
		meter.Step(line)
	}
}

// status prints a line about the run on standard error, unless --quiet,
// without breaking the progress line.
func status(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	switch {
	case meter != nil:
		meter.Println(line)
	case !quiet:
		fmt.Fprintln(os.Stderr, line)
	}
}
