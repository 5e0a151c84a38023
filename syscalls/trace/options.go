package trace

import (
	"errors"
	"fmt"
	"os/exec"
)

// Options adjust a traced run. The zero value counts every call of the whole
// run and classifies files with ClassifyPath.
type Options struct {
	// Window limits counting to the windows the program marks with
	// MarkStart and MarkStop (or by writing MarkStartText and MarkStopText
	// to descriptor -1).
	Window bool
	// Classify puts each file in a Class; nil means ClassifyPath.
	Classify Classifier
}

// ErrUnsupported is returned by Run where ptrace tracing is not available.
var ErrUnsupported = errors.New("trace: ptrace tracing is Linux-only (amd64 and arm64); on macOS use the interposer (package syscalls/interpose)")

// RunError wraps err, the failure to start cmd, as "<pkg>: run "<name>":
// <reason>", e.g. `trace: run "nosuch": executable file not found in $PATH`.
// The exec.Error wrapper is dropped from the text but kept for errors.Is.
func RunError(pkg string, cmd *exec.Cmd, err error) error {
	name := cmd.Path
	if len(cmd.Args) > 0 {
		name = cmd.Args[0]
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return fmt.Errorf("%s: run %q: %w", pkg, ee.Name, &reason{ee})
	}
	return fmt.Errorf("%s: run %q: %w", pkg, name, err)
}

// reason prints an exec.Error without its "exec: "name": " prefix.
type reason struct{ err *exec.Error }

func (r *reason) Error() string { return r.err.Err.Error() }
func (r *reason) Unwrap() error { return r.err }
