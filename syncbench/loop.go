package syncbench

import (
	"encoding/binary"

	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscount"
)

// The timed loop. Invariants:
//   - One sample is one batch: SyncEvery writes and the sync after them, timed
//     as one interval with the monotonic clock; the write and sync parts are
//     timed apart inside it only to explain it.
//   - Nothing in the loop allocates (TestLoopAllocatesNothing) and nothing
//     untimed happens between the clock reads: stamping the write index into
//     the buffer is inside the timed write part.
//   - Warm-up batches run the same code in the same file; they are not
//     recorded.

// cursor walks write offsets through one file, appending past EOF or
// wrapping at the capacity for overwrites, and counts the writes. Targets on
// the same file share one cursor.
type cursor struct {
	off, bs, capacity int64
	wrap              bool
	writes            uint64
}

// next returns the offset of the next write and its 1-based index.
func (c *cursor) next() (int64, uint64) {
	off := c.off
	c.off += c.bs
	if c.wrap && c.off+c.bs > c.capacity {
		c.off = 0
	}
	c.writes++
	return off, c.writes
}

// stamp writes the 1-based index of a write into the first 8 bytes of its
// block, so the file can be checked afterwards.
func stamp(buf []byte, seq uint64) { binary.LittleEndian.PutUint64(buf, seq) }

// target is one file and method being timed.
type target struct {
	f      *syscalls.File
	method syscalls.Method
	syncs  bool // method.SyncsExplicitly(), resolved once
	buf    []byte
	cur    *cursor
}

// batch writes every writes and syncs once, returning the write and sync
// parts of the interval in nanoseconds.
func (t *target) batch(every int) (total, write, sync int64, err error) {
	t0 := measure.Now()
	for range every {
		off, seq := t.cur.next()
		stamp(t.buf, seq)
		if err = t.f.Pwrite(t.buf, off); err != nil {
			return 0, 0, 0, err
		}
	}
	t1 := measure.Now()
	if !t.syncs {
		// none, dsync and osync make no call after the write: nothing to
		// time, and a third clock read would only add its own cost.
		return t1 - t0, t1 - t0, 0, nil
	}
	if err = t.f.Sync(t.method); err != nil {
		return 0, 0, 0, err
	}
	t2 := measure.Now()
	return t2 - t0, t1 - t0, t2 - t1, nil
}

// runSequential times warmup then measured batches of one target into s and
// returns when the measured part started and ended. marks, if not nil, is
// told just before and after the measured part.
func runSequential(t *target, every, warmup, measured int, s *measure.Samples, marks syscount.Marker) (measure.Span, error) {
	for range warmup {
		if _, _, _, err := t.batch(every); err != nil {
			return measure.Span{}, err
		}
	}
	if marks != nil {
		marks.Start()
		defer marks.Stop(measured * every)
	}
	start := measure.Now()
	for range measured {
		total, write, sync, err := t.batch(every)
		if err != nil {
			return measure.Span{}, err
		}
		s.Add(total, write, sync)
	}
	return measure.Span{Start: start, End: measure.Now()}, nil
}

// runInterleaved times the targets round-robin, one batch each per turn,
// into their own sample buffers. marks, if not nil, is told just before and
// after the measured turns.
func runInterleaved(ts []*target, every, warmup, measured int, ss []*measure.Samples, marks syscount.Marker) error {
	for range warmup {
		for _, t := range ts {
			if _, _, _, err := t.batch(every); err != nil {
				return err
			}
		}
	}
	if marks != nil {
		marks.Start()
		defer marks.Stop(measured * every * len(ts))
	}
	for range measured {
		for i, t := range ts {
			total, write, sync, err := t.batch(every)
			if err != nil {
				return err
			}
			ss[i].Add(total, write, sync)
		}
	}
	return nil
}
