package walbench

import (
	"sync"

	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/wal"
)

// The timed loops. Invariants:
//   - One sample is one commit, timed as a whole with the monotonic clock:
//     for one writer, SyncEvery Writes and the Sync after them, with the
//     write and sync parts timed apart inside it; for several writers, one
//     Append, from the call to the return that says it is durable.
//   - Nothing untimed happens between the clock reads, and nothing in the
//     loops allocates (TestLoopsAllocateNothing): payloads and sample
//     buffers are made before the round, and stamping a record's identity
//     into its payload is inside the timed write.
//   - Warm-up runs the same code without recording (nil samples).

// writeBatches has one writer write n batches of every records, each
// followed by a Sync, recording a sample per batch into s (nil: not
// recorded). Records are numbered from first.
func writeBatches(w *wal.Writer, p []byte, first, n, every int, s *measure.Samples) (measure.Span, error) {
	start := measure.Now()
	for b := range n {
		t0 := measure.Now()
		for k := range every {
			stamp(p, 0, first+b*every+k)
			if _, err := w.Write(p); err != nil {
				return measure.Span{}, err
			}
		}
		t1 := measure.Now()
		if err := w.Sync(); err != nil {
			return measure.Span{}, err
		}
		t2 := measure.Now()
		if s != nil {
			s.Add(t2-t0, t1-t0, t2-t1)
		}
	}
	return measure.Span{Start: start, End: measure.Now()}, nil
}

// appendShare has writer id append records first..first+n-1 of its own
// numbering, one Append each, recording each commit into s (nil: not
// recorded).
func appendShare(w *wal.Writer, p []byte, id, first, n int, s *measure.Samples) error {
	for i := range n {
		t0 := measure.Now()
		stamp(p, id, first+i)
		if _, err := w.Append(p); err != nil {
			return err
		}
		if s != nil {
			s.Add(measure.Now()-t0, 0, 0)
		}
	}
	return nil
}

// appendConcurrently runs one goroutine per payload, writer i appending
// shares[i] records numbered from firsts[i] into samples[i] (nil: not
// recorded), all released together. It returns the span from the release
// to the last return.
func appendConcurrently(w *wal.Writer, payloads [][]byte, firsts, shares []int, samples []*measure.Samples) (measure.Span, error) {
	var wg sync.WaitGroup
	errs := make([]error, len(payloads))
	gate := make(chan struct{})
	for i, p := range payloads {
		var s *measure.Samples
		if samples != nil {
			s = samples[i]
		}
		wg.Go(func() {
			<-gate
			errs[i] = appendShare(w, p, i, firsts[i], shares[i], s)
		})
	}
	start := measure.Now()
	close(gate)
	wg.Wait()
	end := measure.Now()
	for _, err := range errs {
		if err != nil {
			return measure.Span{}, err
		}
	}
	return measure.Span{Start: start, End: end}, nil
}
