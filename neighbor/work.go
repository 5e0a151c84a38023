package neighbor

import (
	"fmt"
	"io"
	"time"

	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
)

// What the neighbor writes. Invariants:
//   - Writes are plain buffered pwrites of at most chunk bytes; nothing here
//     syncs except the timed full sync the parent asks for in backlog mode.
//   - A backlog is exactly the bytes asked, at offsets 0..n, unless the
//     neighbor is stopped first; a stream never writes past its file size.
//   - Between two writes the work checks whether it was stopped, so it ends
//     within one write (or one pacing wait) of being told.

// streamBurst is the token bucket's depth: enough to absorb a late timer,
// small enough that no catch-up burst matters.
const streamBurst = 4 * chunk

// serveBacklog writes the backlog, says ready, waits for the sync command,
// and reports how long a full sync of its file took.
func serveBacklog(f *syscalls.File, c childConfig, cmds <-chan string, q *quit, out io.Writer) error {
	n, err := writeBacklog(f, c.Bytes, q.done())
	if err != nil {
		return err
	}
	if n < c.Bytes {
		return q.cause()
	}
	if err := writeMsg(out, msgReady, n); err != nil {
		return fmt.Errorf("neighbor: telling the parent it is ready: %w", err)
	}
	if err := await(cmds, q, cmdSync); err != nil {
		return err
	}
	m := FullSync()
	t0 := measure.Now()
	err = f.Sync(m)
	ns := measure.Now() - t0
	if err != nil {
		return fmt.Errorf("neighbor: own %s: %w", m, err)
	}
	return writeMsg(out, msgSynced, ns)
}

// writeBacklog writes n bytes from offset 0 in chunk-sized pwrites and
// returns how many it wrote; it stops early, without error, when stop is
// closed.
func writeBacklog(f *syscalls.File, n int64, stop <-chan struct{}) (int64, error) {
	buf := neighborBlock()
	var off int64
	for off < n {
		select {
		case <-stop:
			return off, nil
		default:
		}
		w := min(int64(len(buf)), n-off)
		if err := f.Pwrite(buf[:w], off); err != nil {
			return off, fmt.Errorf("neighbor: backlog: %w", err)
		}
		off += w
	}
	return off, nil
}

// serveStream streams until told to stop, then reports the bytes written and
// over how long.
func serveStream(f *syscalls.File, c childConfig, cmds <-chan string, q *quit, out io.Writer) error {
	stop := make(chan struct{})
	res := make(chan streamed, 1)
	go func() { res <- stream(f, c.Rate, c.FileSize, stop) }()
	if err := writeMsg(out, msgReady, 0); err != nil {
		close(stop)
		<-res
		return fmt.Errorf("neighbor: telling the parent it is ready: %w", err)
	}
	err := await(cmds, q, cmdStop)
	close(stop)
	r := <-res
	switch {
	case err != nil:
		return err
	case r.err != nil:
		return r.err
	}
	return writeMsg(out, msgStopped, r.bytes, r.ns)
}

// streamed is what a stream achieved.
type streamed struct {
	bytes, ns int64
	err       error
}

// stream writes chunks at rate (RateIdle: none; RateMax: unpaced) into f,
// rewriting from offset 0 when the next chunk would pass size, until stop is
// closed.
func stream(f *syscalls.File, rate Rate, size int64, stop <-chan struct{}) streamed {
	start := measure.Now()
	if rate == RateIdle {
		<-stop
		return streamed{ns: measure.Now() - start}
	}
	var b *bucket
	if rate != RateMax {
		b = newBucket(int64(rate), streamBurst, start)
	}
	buf := neighborBlock()
	var off, bytes int64
	for {
		select {
		case <-stop:
			return streamed{bytes: bytes, ns: measure.Now() - start}
		default:
		}
		if b != nil {
			if wait := b.take(chunk, measure.Now()); wait > 0 {
				t := time.NewTimer(time.Duration(wait))
				select {
				case <-stop:
					t.Stop()
					return streamed{bytes: bytes, ns: measure.Now() - start}
				case <-t.C:
				}
			}
		}
		if off+chunk > size {
			off = 0
		}
		if err := f.Pwrite(buf, off); err != nil {
			return streamed{err: fmt.Errorf("neighbor: stream: %w", err)}
		}
		off += chunk
		bytes += chunk
	}
}

// neighborBlock returns a chunk of recognisable, non-zero data.
func neighborBlock() []byte {
	buf := make([]byte, chunk)
	for i := range buf {
		buf[i] = byte('A' + i%23)
	}
	return buf
}
