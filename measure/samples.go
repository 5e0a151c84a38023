package measure

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"
)

// Invariants:
//   - Total, Write and Sync always have the same length (the number of samples
//     added) and the same capacity, fixed by NewSamples.
//   - Add never grows a slice: it writes into the preallocated backing arrays,
//     so it does not allocate, and it panics rather than grow past capacity.

// Samples holds preallocated nanosecond samples for one round: the whole
// commit (Total), and its write and sync parts (0 where not measured).
// Element i of each slice belongs to the same sample.
type Samples struct {
	Total, Write, Sync []int64
}

// NewSamples returns an empty Samples with room for capacity samples.
func NewSamples(capacity int) *Samples {
	if capacity < 0 {
		panic(fmt.Sprintf("measure: negative sample capacity %d", capacity))
	}
	return &Samples{
		Total: make([]int64, 0, capacity),
		Write: make([]int64, 0, capacity),
		Sync:  make([]int64, 0, capacity),
	}
}

// Add records one sample: the whole interval and its write and sync parts, in
// nanoseconds. It does not allocate. It panics if the buffer is full: size it
// with NewSamples for every sample of the round.
func (s *Samples) Add(total, write, sync int64) {
	n := len(s.Total)
	if n == cap(s.Total) {
		panicFull(n)
	}
	s.Total = s.Total[:n+1]
	s.Write = s.Write[:n+1]
	s.Sync = s.Sync[:n+1]
	s.Total[n] = total
	s.Write[n] = write
	s.Sync[n] = sync
}

// panicFull is kept out of line so that Add stays small and its formatting
// never runs, or allocates, on the timed path.
//
//go:noinline
func panicFull(n int) {
	panic(fmt.Sprintf("measure: sample buffer full at %d samples; size it with NewSamples(samples per round)", n))
}

// Reset empties the buffer for the next round, keeping its capacity.
func (s *Samples) Reset() {
	s.Total = s.Total[:0]
	s.Write = s.Write[:0]
	s.Sync = s.Sync[:0]
}

// Len returns the number of samples added since the last Reset.
func (s *Samples) Len() int { return len(s.Total) }

// start is the origin of Now; time.Time carries a monotonic reading, so
// differences of Now are immune to wall-clock steps.
var start = time.Now()

// Now returns monotonic nanoseconds since the process started. It does not
// allocate. Only differences between two calls mean anything.
func Now() int64 { return int64(time.Since(start)) }

// Hold prepares the calling goroutine for a timed round: it collects garbage
// once, turns the collector off (debug.SetGCPercent(-1)) and locks the
// goroutine to its OS thread. The returned release restores the previous GC
// percent and unlocks the thread; call it once, from the same goroutine,
// when the round ends. Memory allocated while held is not collected, so the
// round itself must not allocate.
func Hold() (release func()) {
	runtime.GC()
	prev := debug.SetGCPercent(-1)
	runtime.LockOSThread()
	return func() {
		runtime.UnlockOSThread()
		debug.SetGCPercent(prev)
	}
}
