package neighbor

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
)

// The neighbor's life. Invariants:
//   - Its directory is new (Mkdir fails if it exists) and is removed on every
//     way out: the normal end, end of input (the parent is gone), a signal,
//     and its timeout. On the last three it is removed at once, from the
//     watcher, even while the work is still inside a long sync; the work then
//     stops at its next check and closes the file.
//   - Signals are caught before the directory is created and watched only
//     once its file exists, so no signal can leave a file behind and no
//     removal can race with the file's creation.
//   - Nothing is written before the free-space check has passed.

// ChildRole is the argument that selects the hidden neighbor role: the
// command that serves it passes it first, then the flags the parent wrote.
const ChildRole = "__neighbor"

// dataFile is the name of the neighbor's file in its directory.
const dataFile = "data"

// Errors that end a neighbor early; callers branch on them.
var (
	ErrTimeout    = errors.New("neighbor timed out")
	ErrSignalled  = errors.New("neighbor stopped by a signal")
	ErrParentGone = errors.New("neighbor's parent closed the command pipe")
)

// exitSignals end a neighbor. SIGTERM is also what Linux sends when the
// parent dies (see procattr_linux.go); catching SIGPIPE turns a write to a
// gone parent into an error instead of a silent death.
var exitSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE}

// ServeChild runs the neighbor role: args are the flags the parent wrote
// (see Launch), commands come from in and replies go to out, normally the
// process's standard input and output. It returns when the work is done or
// ended early, always after removing the neighbor's directory.
func ServeChild(args []string, in io.Reader, out io.Writer) error {
	c, err := parseChildArgs(args)
	if err != nil {
		return err
	}
	err = serveChild(c, in, out, syscalls.FreeSpace)
	// The parent may be gone: reporting err on a closed stderr must not
	// kill the process with SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	return err
}

func serveChild(c childConfig, in io.Reader, out io.Writer, free fixtures.FreeSpaceFunc) (err error) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, exitSignals...)
	defer signal.Stop(sigs)

	if err := fixtures.CheckSpace(filepath.Dir(c.Dir), c.need(), "the neighbor's file", free); err != nil {
		return err
	}
	if err := os.Mkdir(c.Dir, 0o755); err != nil {
		return fmt.Errorf("neighbor: %w", err)
	}
	q := &quit{dir: c.Dir, c: make(chan struct{})}
	defer func() {
		if rerr := q.remove(); err == nil {
			err = rerr
		}
	}()
	f, err := syscalls.OpenFile(filepath.Join(c.Dir, dataFile), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("neighbor: %w", err)
	}
	defer f.Close() // before the removal: defers run last first

	done := make(chan struct{})
	defer close(done)
	go q.watch(sigs, c.Timeout, done)
	cmds := readCommands(in, q)

	if c.Mode == modeStream {
		return serveStream(f, c, cmds, q, out)
	}
	return serveBacklog(f, c, cmds, q, out)
}

// quit ends a neighbor early, once, with a cause, removing its directory
// first.
type quit struct {
	dir     string
	c       chan struct{}
	once    sync.Once
	err     error
	rmOnce  sync.Once
	rmError error
}

// stop removes the directory, records why the neighbor ends, and closes
// the done channel. Only the first call counts.
func (q *quit) stop(err error) {
	q.once.Do(func() {
		q.remove()
		q.err = err
		close(q.c)
	})
}

// done is closed once stop has been called.
func (q *quit) done() <-chan struct{} { return q.c }

// cause is why the neighbor ended early; call it only after done is closed.
func (q *quit) cause() error { <-q.c; return q.err }

// remove removes the directory once and returns the first attempt's error.
func (q *quit) remove() error {
	q.rmOnce.Do(func() {
		if err := os.RemoveAll(q.dir); err != nil {
			q.rmError = fmt.Errorf("neighbor: removing %s: %w", q.dir, err)
		}
	})
	return q.rmError
}

// watch stops the neighbor on a signal or when timeout has passed, until
// done is closed.
func (q *quit) watch(sigs <-chan os.Signal, timeout time.Duration, done <-chan struct{}) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case sig := <-sigs:
		q.stop(fmt.Errorf("%w (%v); removed %s", ErrSignalled, sig, q.dir))
	case <-t.C:
		q.stop(fmt.Errorf("%w after %v (its time limit); removed %s", ErrTimeout, timeout, q.dir))
	case <-done:
	}
}

// readCommands delivers the lines of in; at its end (the parent closed the
// pipe, or died) it stops the neighbor and closes the channel.
func readCommands(in io.Reader, q *quit) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			select {
			case ch <- sc.Text():
			case <-q.done():
				return
			}
		}
		cause := ErrParentGone
		if err := sc.Err(); err != nil {
			cause = fmt.Errorf("%w: %v", ErrParentGone, err)
		}
		q.stop(cause)
	}()
	return ch
}

// await waits for the command want, or for the neighbor to be stopped.
func await(cmds <-chan string, q *quit, want string) error {
	select {
	case line, ok := <-cmds:
		if !ok {
			return q.cause()
		}
		if line != want {
			return fmt.Errorf("%w: got command %q, want %q", errProtocol, line, want)
		}
		return nil
	case <-q.done():
		return q.cause()
	}
}

// FullSync returns the sync the neighbor times on its own file: F_FULLFSYNC
// where the OS has it (darwin), else fsync(2).
func FullSync() syscalls.Method {
	if syscalls.Full.Available() {
		return syscalls.Full
	}
	return syscalls.Fsync
}
