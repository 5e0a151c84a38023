package wal

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// The group-commit protocol (leader and followers). Invariants, all under
// Writer.mu:
//   - Sequence numbers are given out in framing order, and
//     durable <= written <= nextSeq-1: the last record synced, the last
//     handed to the OS, the last framed.
//   - At most one goroutine does I/O at a time (busy): the leader of a
//     round. Before it unlocks it takes the active batch, every record framed
//     so far, and notes the last one as its target; a round that syncs moves
//     durable to exactly that target. So no caller is told its record is
//     durable unless its bytes were in the write that preceded the sync.
//   - While the leader writes and syncs, callers frame into the other batch:
//     the next group forms by itself, and one of its callers leads it when
//     the round ends.
//   - Framing waits only while a rotation is in flight or the batch is full
//     and a round is emptying it.
//   - A lone caller never waits for another goroutine: it finds no round in
//     flight and leads its own, so the single-writer path is the write and
//     the sync plus two uncontended lock pairs.
//   - A failed write or sync is final: every waiter and every later call
//     gets the error, because after a failed fsync the kernel may have
//     dropped the very pages it failed to write, and a retry could report
//     success for lost data.
//   - Close covers every record framed before it: once closed is set no
//     record is framed, and Close's round targets the last one framed. A
//     waiter therefore returns ErrClosed only when no round is in flight
//     and its record is still not written or durable, which after a
//     successful Close cannot happen.
//   - A segment is synced before the next one is created, so every record
//     of a segment is durable before any record of a later one is
//     acknowledged (Replay's rule relies on it).

// Errors a caller may need to tell apart.
var (
	// ErrClosed is returned by calls on a closed Writer.
	ErrClosed = errors.New("wal: writer is closed")
	// ErrFailed is wrapped by every error after a write or sync failed.
	ErrFailed = errors.New("wal: log write failed; the writer takes no more records")
	// ErrTooLarge is wrapped when a record cannot fit in a segment.
	ErrTooLarge = errors.New("wal: record larger than a segment")
	// ErrNotEmpty is wrapped by Open when the directory already holds a log.
	ErrNotEmpty = errors.New("wal: directory already holds a log")
)

// Writer appends records to a new log. It is safe for concurrent use;
// concurrent Appends share writes and syncs.
type Writer struct {
	o    Options
	gran int

	mu            sync.Mutex
	cond          sync.Cond // broadcast when a round or rotation ends
	file          segmentFile
	active, spare *batch
	nextSeq       uint64
	written       uint64
	durable       uint64
	busy          bool // a leader is doing I/O with mu released
	rotating      bool // the segment is being replaced: framing waits
	closed        bool
	lastSync      time.Time // start of the last sync, kept only with MinSyncInterval
	err           error
	m             Metrics
}

// Open starts a new log in o.Dir, which must exist and hold no segment: it
// creates the first segment in o.Layout and opens it in o.IOMode.
func Open(o Options) (*Writer, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkNoLog(o.Dir); err != nil {
		return nil, err
	}
	f, err := createSegment(o, 1)
	if err != nil {
		return nil, err
	}
	size := o.MaxBatchBytes + o.Alignment
	w := &Writer{
		o:       o,
		gran:    o.granule(),
		file:    f,
		active:  newBatch(size, o.Alignment),
		spare:   newBatch(size, o.Alignment),
		nextSeq: 1,
	}
	w.cond.L = &w.mu
	return w, nil
}

// checkNoLog refuses a directory that is missing or already holds segments.
func checkNoLog(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("wal: log directory: %w", err)
	}
	for _, e := range entries {
		if _, ok := parseSegmentName(e.Name()); ok {
			return fmt.Errorf("%w: %s holds segment %s; Open starts a new log, so give it an empty directory", ErrNotEmpty, dir, e.Name())
		}
	}
	return nil
}

// Append frames payload as the next record and returns its sequence number
// once the record is durable under the writer's sync method. Concurrent
// callers share syncs: while one writes and syncs, the others' records
// gather into the next group, which one of them writes and syncs for all.
// Append copies payload; the caller may reuse it at once.
func (w *Writer) Append(payload []byte) (uint64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	seq, err := w.frame(payload)
	if err != nil {
		return 0, err
	}
	return seq, w.await(&w.durable, seq, true)
}

// Write frames payload as the next record and returns its sequence number
// once the record is handed to the OS, without syncing: the record is
// durable only after a later Sync or Append returns. Write then Sync is
// Append with the two halves timed apart, or batched (N Writes, one Sync).
func (w *Writer) Write(payload []byte) (uint64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	seq, err := w.frame(payload)
	if err != nil {
		return 0, err
	}
	return seq, w.await(&w.written, seq, false)
}

// Sync returns once every record framed before the call is durable, writing
// what is still buffered. A sync already in flight that covers them is
// shared.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	return w.await(&w.durable, w.nextSeq-1, true)
}

// Close makes every record framed so far durable, closes the segment and
// ends the writer. It returns the writer's error if a write or sync failed,
// and ErrClosed if it was closed already.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.busy {
		w.cond.Wait()
	}
	if w.closed {
		return ErrClosed
	}
	w.closed = true // frame refuses new records from here on
	if w.err == nil && w.durable < w.nextSeq-1 {
		w.round(true)
	}
	err := w.err
	if w.file != nil {
		if cerr := w.file.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("wal: close segment: %w", cerr)
		}
		w.file = nil
	}
	w.cond.Broadcast()
	return err
}

// Metrics returns the writer's counts so far.
func (w *Writer) Metrics() Metrics {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.m
	m.PendingBytes = int64(w.active.pending())
	return m
}

// frame gives payload the next sequence number and frames it into the
// active batch, first rotating the segment or emptying a full batch if need
// be. It waits, never spins, while another goroutine does either.
func (w *Writer) frame(payload []byte) (uint64, error) {
	if len(payload) > MaxPayload(w.o.SegmentSize) {
		return 0, fmt.Errorf("%w: %d bytes of payload, and a %d-byte segment holds at most %d: raise the segment size",
			ErrTooLarge, len(payload), w.o.SegmentSize, MaxPayload(w.o.SegmentSize))
	}
	size := frameSize(len(payload))
	for {
		switch {
		case w.err != nil:
			return 0, w.err
		case w.closed:
			return 0, ErrClosed
		case w.rotating:
			w.cond.Wait()
			continue
		}
		b := w.active
		full := b.pending() > 0 && b.pending()+size > w.o.MaxBatchBytes
		if b.end()+int64(size) > w.o.SegmentSize || full {
			if w.busy {
				w.cond.Wait()
			} else if full {
				w.round(true)
			} else {
				w.rotate()
			}
			continue
		}
		b.reserve(size, w.gran, w.o.Alignment)
		seq := w.nextSeq
		w.nextSeq++
		b.n += encode(b.buf[b.n:], payload, seq, w.durable)
		w.m.Records++
		w.m.PayloadBytes += int64(len(payload))
		return seq, nil
	}
}

// await returns once *mark (w.written or w.durable) reaches seq, leading a
// round whenever none is in flight. A round in flight is waited for even
// after Close began: it may be Close's own, which makes seq durable, and a
// caller told ErrClosed for a durable record would write it again.
func (w *Writer) await(mark *uint64, seq uint64, sync bool) error {
	for *mark < seq {
		switch {
		case w.err != nil:
			return w.err
		case w.busy:
			w.cond.Wait()
		case w.closed:
			return ErrClosed
		default:
			w.round(sync)
		}
	}
	return nil
}

// round writes every framed record and, with sync, makes them durable. It is
// called with w.mu held and no round in flight, and returns with w.mu held;
// it releases w.mu for the I/O so that the next group forms meanwhile.
func (w *Writer) round(sync bool) {
	w.busy = true
	if sync && w.o.MinSyncInterval > 0 {
		w.pace()
	}
	target, data, off := w.take()
	f := w.file
	w.mu.Unlock()
	var err error
	if len(data) > 0 {
		err = f.Pwrite(data, off)
	}
	if err == nil && sync {
		err = f.Sync(w.o.Method)
	}
	w.mu.Lock()
	w.busy = false
	w.settle(target, len(data), sync, err)
	w.cond.Broadcast()
}

// take hands the active batch to the caller, who is about to write it, and
// makes the spare batch active. It returns the last record framed, the
// bytes to write (none if nothing is pending) and their file offset.
func (w *Writer) take() (target uint64, data []byte, off int64) {
	target = w.nextSeq - 1
	if w.active.pending() == 0 {
		return target, nil, 0
	}
	data, off = w.active.handOff(w.spare, w.gran)
	w.active, w.spare = w.spare, w.active
	return target, data, off
}

// settle records the outcome of a round's I/O: target written, and durable
// if synced, or the writer failed.
func (w *Writer) settle(target uint64, wrote int, synced bool, err error) {
	if err != nil {
		w.err = fmt.Errorf("%w: %w", ErrFailed, err)
		return
	}
	if wrote > 0 {
		w.m.Writes++
		w.m.WrittenBytes += int64(wrote)
	}
	w.written = target
	if synced {
		group := target - w.durable
		w.m.Syncs++
		w.m.SyncedRecords += group
		w.m.MaxRecordsPerSync = max(w.m.MaxRecordsPerSync, group)
		w.durable = target
	}
}

// pace waits out what is left of MinSyncInterval since the last sync began,
// with w.mu released so that records keep joining the group, and notes when
// this sync begins.
func (w *Writer) pace() {
	c := w.o.Clock
	if !w.lastSync.IsZero() {
		if d := w.lastSync.Add(w.o.MinSyncInterval).Sub(c.Now()); d > 0 {
			w.mu.Unlock()
			c.Sleep(d)
			w.mu.Lock()
		}
	}
	w.lastSync = c.Now()
}

// rotate writes and syncs what the current segment still needs, closes it and
// starts the next segment, named after the next record. Framing waits
// meanwhile. It is called like round, and counts as one.
func (w *Writer) rotate() {
	w.busy, w.rotating = true, true
	target, data, off := w.take()
	sync := w.durable < target
	old, first := w.file, w.nextSeq
	w.mu.Unlock()
	var err error
	if len(data) > 0 {
		err = old.Pwrite(data, off)
	}
	if err == nil && sync {
		err = old.Sync(w.o.Method)
	}
	if cerr := old.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close segment: %w", cerr)
	}
	var next segmentFile
	if err == nil {
		next, err = createSegment(w.o, first)
	}
	w.mu.Lock()
	w.busy, w.rotating = false, false
	w.file = next
	w.settle(target, len(data), sync, err)
	if err == nil {
		w.m.Rotations++
		w.active.reset()
		w.spare.reset()
	}
	w.cond.Broadcast()
}
