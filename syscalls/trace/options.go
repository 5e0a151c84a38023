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
	// Hook, if not nil, sees every system call of every traced task (not
	// only the counted ones, and inside or outside a window), and the
	// acknowledgement marks. It is called from the tracer's own thread
	// while the task is stopped, so it may read the task's memory
	// (ReadMem) and its /proc entries.
	Hook Hook
	// Stop, if not nil, ends the run early when it is closed: every traced
	// task (the command, its children and any daemon they left behind) is
	// killed, and Run returns the counts made so far, with a note saying so.
	Stop <-chan struct{}
}

// Hook is what a caller of Run plugs in to see the traced calls themselves,
// as a recorder does. Its methods run on the tracer's thread and must not
// keep c after they return.
type Hook interface {
	// Enter is called at the entry of every system call.
	Enter(c *Call)
	// Exit is called at the exit of every system call whose entry was
	// seen, with the same number and arguments and the result in Ret. A
	// task that dies inside a call (or an execve that replaces it) may have
	// no Exit.
	Exit(c *Call)
	// Ack is called for each acknowledgement mark (MarkAck) with its number.
	Ack(pid int, n uint64)
}

// Call is one system call of a traced task, as a Hook sees it.
type Call struct {
	// Pid is the thread that made the call.
	Pid int
	// Nr is the call's number on the architecture of the task's mode:
	// native (unix.SYS_*) unless Compat.
	Nr uint64
	// Args are the call's six argument registers.
	Args [6]uint64
	// Ret is the result at Exit: a negative errno on failure.
	Ret int64
	// Compat reports a 32-bit call (a -m32 program, or int 0x80 on amd64):
	// its numbers are the i386 (or arm) ones.
	Compat bool
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
