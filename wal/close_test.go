package wal

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
)

// gatedFile holds every Sync until the test releases it, announcing each
// one on entered.
type gatedFile struct {
	segmentFile
	entered chan struct{}
	release chan struct{}
}

func (g *gatedFile) Sync(m syscalls.Method) error {
	g.entered <- struct{}{}
	<-g.release
	return g.segmentFile.Sync(m)
}

// TestAppendDuringCloseRound is the regression test for an Append whose
// record Close makes durable: the Append waits while another round is in
// flight, Close takes over and syncs the Append's record, and the Append is
// woken while Close's sync is still running. It must wait for that sync and
// return success, not ErrClosed (a caller retrying on ErrClosed would write
// the record twice).
//
// Whether Close or the waiting Append leads the round after the first one
// is up to the scheduler; the test repeats until Close has led it a few
// times, and checks the Append's answer in every repetition.
func TestAppendDuringCloseRound(t *testing.T) {
	const wantCloseLed = 3
	closeLed := 0
	for try := 0; try < 400 && closeLed < wantCloseLed; try++ {
		g := &gatedFile{entered: make(chan struct{}), release: make(chan struct{})}
		o := testOptions(t, 1<<20, fixtures.Append, Buffered)
		o.wrap = func(f segmentFile) segmentFile { g.segmentFile = f; return g }
		w := mustOpen(t, o)

		type result struct {
			seq uint64
			err error
		}
		first := make(chan result, 1)
		go func() { s, err := w.Append([]byte("first")); first <- result{s, err} }()
		<-g.entered // round 1 is in its sync

		closed := make(chan error, 1)
		go func() { closed <- w.Close() }()
		runtime.Gosched()
		second := make(chan result, 1)
		go func() { s, err := w.Append([]byte("second")); second <- result{s, err} }()
		for framed := false; !framed; runtime.Gosched() {
			w.mu.Lock()
			framed = w.nextSeq == 3 || w.closed
			w.mu.Unlock()
		}
		g.release <- struct{}{} // round 1 ends; Close or the second Append leads round 2

		var r2 result
		have2 := false
		select {
		case <-g.entered: // round 2's sync
			w.mu.Lock()
			ledByClose := w.closed
			w.mu.Unlock()
			if ledByClose {
				closeLed++
				// The second Append has been woken; give it the chance to
				// return early, as it did before the fix.
				select {
				case r2 = <-second:
					have2 = true
				case <-time.After(100 * time.Millisecond):
				}
			}
			close(g.release)
		case r2 = <-second: // Close ran first and the Append was refused before framing
			have2 = true
			close(g.release)
		}
		if r1 := <-first; r1.seq != 1 || r1.err != nil {
			t.Fatalf("first Append = %d, %v; want 1, nil", r1.seq, r1.err)
		}
		if !have2 {
			r2 = <-second
		}
		if err := <-closed; err != nil {
			t.Fatalf("Close: %v", err)
		}
		got, _ := replayAll(t, o.Dir)
		switch {
		case r2.err == nil:
			if r2.seq != 2 || len(got) != 2 || string(got[1]) != "second" {
				t.Fatalf("second Append = %d, nil, log holds %q; want seq 2 in the log", r2.seq, got)
			}
		case errors.Is(r2.err, ErrClosed) && len(got) == 2:
			t.Fatalf("try %d: second Append returned %v, but Close made its record durable (log holds %q): a caller that retries writes it twice", try, r2.err, got)
		case errors.Is(r2.err, ErrClosed) && len(got) == 1:
			// refused before it was framed: correct
		default:
			t.Fatalf("second Append = %d, %v; log holds %q", r2.seq, r2.err, got)
		}
	}
	if closeLed < wantCloseLed {
		t.Fatalf("Close led the round after the first only %d times in 400 tries; the case under test did not happen", closeLed)
	}
}
