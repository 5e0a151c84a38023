package neighbor

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The parent's side of a neighbor. Invariants:
//   - A neighbor is started with its standard input a pipe from us: when
//     we die the pipe closes and it removes its files and exits, on every
//     OS. On Linux it also gets SIGTERM from the kernel (procattr_linux.go).
//   - close always reaps the process and then checks that its directory is
//     gone; a neighbor that left files behind is an error, never ignored.
//   - A neighbor's life is bounded from our side too: killGrace after its
//     timeout we kill it (SIGKILL works on a stopped process, whose own
//     timer cannot fire), so no reply we wait for and no reaping outlasts
//     the timeout by more than killGrace.

// Launch says how to start a neighbor process: Path with Args runs the
// neighbor role (the command that serves it passes ChildRole to
// ServeChild), and Env is added to this process's environment.
type Launch struct {
	Path string
	Args []string
	Env  []string
}

// neighbor is a running neighbor process.
type neighbor struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  *bufio.Scanner
	stderr *tail
	dir    string
	reaped bool
	err    error // of the reaping

	deadline *time.Timer // kills the process killGrace after its timeout
	overdue  atomic.Bool // the deadline fired
	timeout  time.Duration
}

// killGrace is how long past its own timeout a neighbor may take to remove
// its files and exit before we kill it.
const killGrace = 2 * time.Second

// startNeighbor starts a neighbor with task c.
func startNeighbor(l Launch, c childConfig) (*neighbor, error) {
	cmd := exec.Command(l.Path, append(slices.Clone(l.Args), c.args()...)...)
	cmd.Env = append(os.Environ(), l.Env...)
	cmd.SysProcAttr = procAttr()
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("neighbor pipes: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("neighbor pipes: %w", err)
	}
	stderr := &tail{max: 4096}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the neighbor %s: %w", l.Path, err)
	}
	n := &neighbor{cmd: cmd, in: in, lines: bufio.NewScanner(out), stderr: stderr, dir: c.Dir, timeout: c.Timeout}
	n.deadline = time.AfterFunc(c.Timeout+killGrace, func() {
		n.overdue.Store(true)
		cmd.Process.Kill()
	})
	return n, nil
}

// pid returns the neighbor's process id.
func (n *neighbor) pid() int { return n.cmd.Process.Pid }

// file returns the path of the neighbor's data file.
func (n *neighbor) file() string { return filepath.Join(n.dir, dataFile) }

// expect reads the next reply, which must be of kind want, and returns its
// numbers. If the neighbor ended instead, the error says how, with what it
// wrote on its standard error.
func (n *neighbor) expect(want string) ([]int64, error) {
	if !n.lines.Scan() {
		err := n.close()
		if err == nil {
			err = errors.New("it exited normally")
		}
		return nil, fmt.Errorf("neighbor ended before saying %q: %w", want, err)
	}
	return parseReply(n.lines.Text(), want)
}

// send writes a command line.
func (n *neighbor) send(cmd string) error {
	if err := writeMsg(n.in, cmd); err != nil {
		return fmt.Errorf("sending %q to the neighbor: %w", cmd, err)
	}
	return nil
}

// close closes the command pipe, which ends the neighbor if it has not
// ended yet, reaps it, and checks that its directory is gone. It may be
// called more than once.
func (n *neighbor) close() error {
	if n.reaped {
		return n.err
	}
	n.reaped = true
	n.in.Close()
	var errs []error
	err := n.cmd.Wait()
	n.deadline.Stop()
	if n.overdue.Load() {
		errs = append(errs, fmt.Errorf("the neighbor was still running %v after its %v timeout (stopped or hung) and was killed", killGrace, n.timeout))
		// It could not remove its own files: they are ours to remove.
		if rerr := os.RemoveAll(n.dir); rerr != nil {
			errs = append(errs, rerr)
		}
	} else if err != nil {
		msg := strings.TrimSpace(n.stderr.String())
		if msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		errs = append(errs, err)
	}
	if _, err := os.Lstat(n.dir); !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, fmt.Errorf("neighbor left %s behind (%v)", n.dir, err))
	}
	n.err = errors.Join(errs...)
	return n.err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write keeps p, dropping the oldest bytes past max.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

// String returns the bytes kept.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
