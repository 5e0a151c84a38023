package wal

import (
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
// record Close makes durable: the Append is waiting for its record when
// Close leads the round that syncs it, and is woken while Close's sync is
// still running. It must wait for that sync and return success, not
// ErrClosed (a caller retrying on ErrClosed would write the record twice).
//
// Whether Close or a waiting Append leads a round is up to the scheduler, so
// the test builds the moment directly: the record is framed and written
// (Write), Close leads the round that syncs it and is held in its sync, and
// the Append's waiting half (await, as Append calls it) starts right then.
func TestAppendDuringCloseRound(t *testing.T) {
	g := &gatedFile{entered: make(chan struct{}), release: make(chan struct{})}
	o := testOptions(t, 1<<20, fixtures.Append, Buffered)
	o.wrap = func(f segmentFile) segmentFile { g.segmentFile = f; return g }
	w := mustOpen(t, o)
	seq, err := w.Write([]byte("record"))
	if err != nil || seq != 1 {
		t.Fatalf("Write = %d, %v; want 1, nil", seq, err)
	}

	closed := make(chan error, 1)
	go func() { closed <- w.Close() }()
	<-g.entered // Close leads the round that syncs record 1, and is in its sync

	waited := make(chan error, 1)
	go func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		waited <- w.await(&w.durable, seq, true)
	}()
	select {
	case err := <-waited:
		t.Fatalf("the waiting Append returned %v while Close's sync of its record was still running", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(g.release)
	if err := <-waited; err != nil {
		t.Fatalf("the waiting Append returned %v; Close made its record durable, so it must succeed", err)
	}
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got, _ := replayAll(t, o.Dir); len(got) != 1 || string(got[0]) != "record" {
		t.Fatalf("log holds %q, want the one record", got)
	}
}
