package syscount

import (
	"errors"
	"fmt"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls/trace"
)

// Counter runs a one-case configuration of a runner (a C) in a traced
// child, attributing files with classify (nil: by name), and returns what
// its measured operations did. The child runs the runner with the
// configuration, its Marks set to the window of ServeChild.
type Counter[C any] func(cfg C, classify trace.Classifier) (Result, error)

// ErrNotChild means ServeChild ran in a process Count did not start.
var ErrNotChild = errors.New("syscount: not started as a counting child")

// ServeChild is a counting child's whole side of Count, for every runner:
// it makes a run directory inside dir, calls measure with it and this
// process's counting window (which measure puts in the runner's Marks), and
// reports the window to the parent. It returns ErrNotChild, touching
// nothing, in a process Count did not start.
func ServeChild(dir string, measure func(run *fixtures.Run, window *Window) error) error {
	window := ChildWindow(dir)
	if window == nil {
		return ErrNotChild
	}
	run, err := fixtures.NewRun(dir, "count", false)
	if err != nil {
		return err
	}
	defer run.Close()
	if err := measure(run, window); err != nil {
		return err
	}
	if err := window.Close(); err != nil {
		return fmt.Errorf("syscount: report the counting window: %w", err)
	}
	return nil
}
