//go:build linux || darwin

package interpose

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/durabench/durabench/syscalls/trace"
	"golang.org/x/sys/unix"
)

// envFile names the counters file for the library.
const envFile = "DURABENCH_INTERPOSE_FILE"

// Options adjust an interposed run. The zero value counts the whole run,
// classifies files with trace.ClassifyPath, compiles with $CC or cc, and
// caches the library in os.UserCacheDir()/durabench.
type Options struct {
	// Window limits counting to the windows the program marks (see
	// trace.MarkStart; a Go program on macOS, or any program writing
	// trace.MarkStartText to descriptor -1 through libc).
	Window bool
	// Classify puts each file in a class; nil means trace.ClassifyPath.
	Classify trace.Classifier
	// CC is the C compiler command, with any arguments ("clang -arch
	// arm64e"); empty means $CC, or cc.
	CC string
	// CacheDir holds built libraries; empty means
	// os.UserCacheDir()/durabench.
	CacheDir string
}

// preloadVar is the dynamic loader's variable for libraries to insert, and
// libExt the library's file name extension, on this OS.
var preloadVar, libExt, buildFlags = func() (string, string, []string) {
	if runtime.GOOS == "darwin" {
		return "DYLD_INSERT_LIBRARIES", ".dylib", []string{"-dynamiclib", "-O2"}
	}
	return "LD_PRELOAD", ".so", []string{"-shared", "-fPIC", "-O2"}
}()

// linkFlags come after the source: dlsym is in libdl before glibc 2.34.
var linkFlags = func() []string {
	if runtime.GOOS == "linux" {
		return []string{"-ldl"}
	}
	return nil
}()

func compiler(opts Options) []string {
	cc := opts.CC
	if cc == "" {
		cc = os.Getenv("CC")
	}
	if f := strings.Fields(cc); len(f) > 0 {
		return f
	}
	return []string{"cc"}
}

// Build returns the path of the interposer library, compiling Source first
// unless the cache already holds a build of the same source by the same
// compiler. The cached name carries a hash of both:
// interpose-<hash>.so (.dylib on macOS).
func Build(opts Options) (string, error) {
	cc := compiler(opts)
	version, err := exec.Command(cc[0], append(cc[1:], "--version")...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("interpose: run the C compiler %q: %w (install one, or name it in $CC)", strings.Join(cc, " "), err)
	}
	h := sha256.New()
	for _, part := range [][]byte{Source, []byte(strings.Join(cc, " ")), version,
		[]byte(strings.Join(buildFlags, " ")), []byte(runtime.GOOS + "/" + runtime.GOARCH)} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	dir := opts.CacheDir
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("interpose: find a cache directory: %w (set $XDG_CACHE_HOME or $HOME)", err)
		}
		dir = filepath.Join(base, "durabench")
	}
	lib := filepath.Join(dir, "interpose-"+hex.EncodeToString(h.Sum(nil))[:16]+libExt)
	if _, err := os.Stat(lib); err == nil {
		return lib, nil
	}

	// Build in a private directory and rename into place, so that a
	// concurrent run never loads a half-written library.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("interpose: create cache directory: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", fmt.Errorf("interpose: create build directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "interpose.c")
	if err := os.WriteFile(src, Source, 0o644); err != nil {
		return "", fmt.Errorf("interpose: write source: %w", err)
	}
	out := filepath.Join(tmp, "interpose"+libExt)
	args := append(append(append(append([]string{}, cc[1:]...), buildFlags...), "-o", out, src), linkFlags...)
	if msg, err := exec.Command(cc[0], args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("interpose: compile the library with %s %s: %w\n%s", cc[0], strings.Join(args, " "), err, msg)
	}
	if err := os.Rename(out, lib); err != nil {
		return "", fmt.Errorf("interpose: install the library: %w", err)
	}
	return lib, nil
}

// Run builds the library if needed, runs cmd with it inserted, waits for
// cmd, and returns what the library counted in cmd and every process it
// started. cmd must not have been started; Run adds to its environment (the
// process's own if cmd.Env is nil).
//
// A command that exits with a failure, crashes or is killed is not an error:
// its counts up to that point are returned, and Counts.Exit says how it
// ended. A command that cannot be started yields an error naming it, e.g.
// `interpose: run "nosuch": executable file not found in $PATH`.
//
// cmd dies with the calling process: on Linux the kernel kills it
// (PR_SET_PDEATHSIG) if this process ends first, even by SIGKILL, and the
// counters file has no name once cmd has started, so nothing is left
// behind. On macOS the file is removed when Run returns.
func Run(cmd *exec.Cmd, opts Options) (*trace.Counts, error) {
	return RunContext(context.Background(), cmd, opts)
}

// RunContext is Run, stopping early when ctx is done: it kills cmd, waits
// for it, removes the counters file and returns an error wrapping
// context.Cause(ctx). A caller that stops on a signal passes a context the
// signal cancels.
func RunContext(ctx context.Context, cmd *exec.Cmd, opts Options) (*trace.Counts, error) {
	if cmd.Err != nil {
		return nil, trace.RunError("interpose", cmd, cmd.Err)
	}
	lib, err := Build(opts)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(lib, ": ") {
		return nil, fmt.Errorf("interpose: library path %q contains a colon or space, which %s cannot carry; set Options.CacheDir", lib, preloadVar)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("interpose: %q not started: %w", cmd.Args[0], context.Cause(ctx))
	}

	counters, err := newCountersFile(opts.Window)
	if err != nil {
		return nil, err
	}
	defer counters.close()

	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(withPreload(env, lib), envFile+"="+counters.path)
	// The thread that starts cmd must live until cmd ends: the kernel sends
	// the parent-death signal when that thread, not the process, exits.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return nil, trace.RunError("interpose", cmd, err)
	}
	counters.started()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err = <-waited:
	case <-ctx.Done():
		cmd.Process.Kill()
		<-waited
		return nil, fmt.Errorf("interpose: %q killed before it finished: %w", cmd.Args[0], context.Cause(ctx))
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, fmt.Errorf("interpose: wait for %q: %w", cmd.Args[0], err)
		}
	}

	data, err := counters.read()
	if err != nil {
		return nil, fmt.Errorf("interpose: read counters: %w", err)
	}
	c := trace.NewCounts("interpose", cmd.Args)
	c.Window = opts.Window
	classify := opts.Classify
	if classify == nil {
		classify = trace.ClassifyPath
	}
	if err := decode(data, runtime.GOOS, classify, c); err != nil {
		return nil, err
	}
	c.Exit = exitStatus(cmd.ProcessState)
	return c, nil
}

// countersFile is the file the library's counters live in, shared by
// mapping. path is what the traced processes open.
type countersFile struct {
	f    *os.File
	path string // the name given to the library
	name string // the file's own name while it has one; "" once removed
	// byProc says path is /proc/PID/fd/N: the file can lose its name as
	// soon as cmd has started, since every process opens it through this
	// process's descriptor.
	byProc bool
}

// newCountersFile creates the counters file with its header and size.
func newCountersFile(window bool) (*countersFile, error) {
	f, err := os.CreateTemp("", "durabench-interpose-*.counts")
	if err != nil {
		return nil, fmt.Errorf("interpose: create counters file: %w", err)
	}
	c := &countersFile{f: f, path: f.Name(), name: f.Name()}
	_, err = f.Write(newHeader(window))
	if err == nil {
		err = f.Truncate(int64(sharedSize))
	}
	if err != nil {
		c.close()
		return nil, fmt.Errorf("interpose: prepare counters file: %w", err)
	}
	if p, ok := procPath(f); ok {
		c.path, c.byProc = p, true
	}
	return c, nil
}

// started is called once cmd runs: a file reached through /proc loses its
// name now, so that no exit of this process, however abrupt, leaves it.
func (c *countersFile) started() {
	if c.byProc && os.Remove(c.name) == nil {
		c.name = ""
	}
}

func (c *countersFile) read() ([]byte, error) {
	b := make([]byte, sharedSize)
	n, err := c.f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:n], nil
}

func (c *countersFile) close() {
	c.f.Close()
	if c.name != "" {
		os.Remove(c.name)
	}
}

// withPreload returns env with lib first in the preload variable, keeping
// any libraries already there.
func withPreload(env []string, lib string) []string {
	out := make([]string, 0, len(env)+1)
	value := lib
	for _, kv := range env {
		if old, ok := strings.CutPrefix(kv, preloadVar+"="); ok {
			if old != "" {
				value = lib + ":" + old
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, preloadVar+"="+value)
}

func exitStatus(ps *os.ProcessState) trace.ExitStatus {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return trace.ExitStatus{Code: -1, Signal: unix.SignalName(ws.Signal()), CoreDumped: ws.CoreDump()}
	}
	return trace.ExitStatus{Code: ps.ExitCode()}
}
