// Package syscount turns one case of a benchmark into counts per operation:
// the system calls that reached the kernel, by name and by file, and the
// flush requests that reached the device.
//
// Invariants: counting never shares a run with timing. The parent re-runs a
// case in a child durabench traced with ptrace (Linux) or with the
// interposer inserted (macOS); the child marks the window around its
// measured operations (trace.MarkStart/MarkStop) and reads the device's
// flush counter at the window's edges, so set-up, warm-up and read-back are
// outside the counts. A traced run reports counts, never latencies.
package syscount

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/syscalls/trace"
)

// windowEnv names the file a counting child reports its window to; its
// presence is what makes a durabench process a counting child.
const windowEnv = "DURABENCH_COUNT_WINDOW"

// report is what a counting child tells its parent about its windows.
type report struct {
	Ops int `json:"ops"`
	// DeviceFlushes is the rise of the device's flush counter inside the
	// windows, or -1 if the counter could not be read.
	DeviceFlushes int64  `json:"device_flushes"`
	FlushNote     string `json:"flush_note,omitempty"`
}

// Window is a counting child's side: it opens and closes the tracer's
// counting window around measured operations and reads the device's flush
// counter at its edges. A nil *Window does nothing, so timing passes pass nil.
type Window struct {
	dir     string
	path    string
	before  uint64
	rep     report
	flushOK bool
}

// ChildWindow returns the Window of this process if it was started as a
// counting child by Count, or nil. dir is the directory whose device's
// flushes are counted.
func ChildWindow(dir string) *Window {
	path := os.Getenv(windowEnv)
	if path == "" {
		return nil
	}
	return &Window{dir: dir, path: path, flushOK: true}
}

// Start opens the counting window.
func (w *Window) Start() {
	if w == nil {
		return
	}
	if w.flushOK {
		n, err := envinfo.DeviceFlushes(w.dir)
		if err != nil {
			w.flushOK, w.rep.FlushNote = false, err.Error()
		}
		w.before = n
	}
	trace.MarkStart()
}

// Stop closes the counting window, which held ops operations.
func (w *Window) Stop(ops int) {
	if w == nil {
		return
	}
	trace.MarkStop()
	w.rep.Ops += ops
	if w.flushOK {
		n, err := envinfo.DeviceFlushes(w.dir)
		if err != nil {
			w.flushOK, w.rep.FlushNote = false, err.Error()
			return
		}
		w.rep.DeviceFlushes += int64(n - w.before)
	}
}

// Close writes the report for the parent.
func (w *Window) Close() error {
	if w == nil {
		return nil
	}
	if !w.flushOK {
		w.rep.DeviceFlushes = -1
	}
	b, err := json.Marshal(w.rep)
	if err != nil {
		return err
	}
	return os.WriteFile(w.path, b, 0o644)
}

// Result is one case's counts, per operation.
type Result struct {
	// Ops is the number of measured operations inside the window.
	Ops int
	// Counts is everything the tracer saw inside the window.
	Counts *trace.Counts
	// DeviceFlushes is the device's flush requests inside the window, or -1
	// if they could not be counted (no block device, not Linux); FlushNote
	// says why.
	DeviceFlushes int64
	FlushNote     string
}

// PerOp returns the calls of syscall name per operation, summing fcntl's
// commands for "fcntl".
func (r Result) PerOp(name string) float64 { return float64(r.Counts.Total(name)) / float64(r.Ops) }

// FlushesPerOp returns device flushes per operation, or -1 if unknown.
func (r Result) FlushesPerOp() float64 {
	if r.DeviceFlushes < 0 {
		return -1
	}
	return float64(r.DeviceFlushes) / float64(r.Ops)
}

// ErrNoWindow means the child marked no window: it ran no measured
// operation, or it is not a durabench that knows how to count.
var ErrNoWindow = errors.New("syscount: the traced run marked no counting window")

// Available returns nil if this OS can run counting passes, and otherwise
// an error wrapping ErrNoCounting that says where it can.
func Available() error {
	_, err := methodFor(runtime.GOOS, runtime.GOARCH)
	return err
}

// Method names how counting passes see a child's calls here: "ptrace"
// (Linux) or "interpose" (macOS).
func Method() string {
	m, _ := methodFor(runtime.GOOS, runtime.GOARCH)
	return m
}

// Count runs this durabench binary with args as a counting child, under
// ptrace on Linux or with the interposer on macOS, and returns what its
// marked windows held. scratch is a directory
// for the child's report file; classify names the files (nil: by name).
func Count(args []string, scratch string, classify trace.Classifier) (Result, error) {
	self, err := os.Executable()
	if err != nil {
		return Result{}, fmt.Errorf("syscount: find this program: %w", err)
	}
	reportPath := filepath.Join(scratch, fmt.Sprintf("count-window-%d.json", os.Getpid()))
	defer os.Remove(reportPath)
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), windowEnv+"="+reportPath)
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	counts, err := runCounted(cmd, classify)
	if err != nil {
		return Result{}, err
	}
	if counts.Exit.Code != 0 {
		return Result{}, fmt.Errorf("syscount: traced run of %v ended with %s: %s", args, counts.Exit, stderr.String())
	}
	if !counts.Windowed {
		return Result{}, ErrNoWindow
	}
	b, err := os.ReadFile(reportPath)
	if err != nil {
		return Result{}, fmt.Errorf("syscount: the traced run left no window report: %w", err)
	}
	var rep report
	if err := json.Unmarshal(b, &rep); err != nil {
		return Result{}, fmt.Errorf("syscount: window report: %w", err)
	}
	if rep.Ops <= 0 {
		return Result{}, ErrNoWindow
	}
	return Result{Ops: rep.Ops, Counts: counts, DeviceFlushes: rep.DeviceFlushes, FlushNote: rep.FlushNote}, nil
}

// limitedBuffer keeps the first 4 KiB written to it, for error messages.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
