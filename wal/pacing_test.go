package wal

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/durabench/durabench/fixtures"
)

// fakeClock moves only when told to. Sleep reports its duration on slept
// and returns when the test sends on wake, having moved the clock on.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	slept chan time.Duration
	wake  chan struct{}
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Unix(1000, 0), slept: make(chan time.Duration), wake: make(chan struct{})}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(d time.Duration) {
	c.slept <- d
	<-c.wake
	c.advance(d)
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// MinSyncInterval: a sync due sooner waits out the rest of the interval,
// records arriving meanwhile join it, and a sync due later does not wait.
func TestMinSyncIntervalGathersAGroup(t *testing.T) {
	clock := newFakeClock()
	o := testOptions(t, 1<<20, fixtures.Append, Buffered)
	o.MinSyncInterval = time.Millisecond
	o.Clock = clock
	w := mustOpen(t, o)
	defer w.Close()

	if _, err := w.Append(testPayload(0, 0, 100)); err != nil { // the first sync has nothing to wait for
		t.Fatal(err)
	}
	clock.advance(200 * time.Microsecond)
	var wg sync.WaitGroup
	appendAsync := func(i int) {
		wg.Go(func() {
			if _, err := w.Append(testPayload(0, i, 100)); err != nil {
				t.Error(err)
			}
		})
	}
	appendAsync(1)
	if d := <-clock.slept; d != 800*time.Microsecond {
		t.Errorf("the leader waits %v, want the 800µs left of the interval", d)
	}
	for i := 2; i < 7; i++ {
		appendAsync(i)
	}
	for w.Metrics().Records < 7 { // the five join while the leader waits
		runtime.Gosched()
	}
	clock.wake <- struct{}{}
	wg.Wait()
	if m := w.Metrics(); m.Syncs != 2 || m.MaxRecordsPerSync != 6 {
		t.Errorf("%d syncs, largest group %d; want 2 syncs, the second for all 6 records", m.Syncs, m.MaxRecordsPerSync)
	}

	clock.advance(5 * time.Millisecond)
	done := make(chan error)
	go func() {
		_, err := w.Append(testPayload(0, 7, 100))
		done <- err
	}()
	select {
	case d := <-clock.slept:
		t.Errorf("a sync due long ago waited %v", d)
		clock.wake <- struct{}{}
		<-done
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	}
}
