package neighbor

import "math"

// Invariants:
//   - The bucket holds at most burst tokens (bytes); tokens may go negative,
//     which is a debt paid back by waiting.
//   - Whatever the caller's clock does, the bytes taken by time t never
//     exceed burst + rate·t (t from the bucket's start): a write may start
//     only after take's wait, and waiting late never lets a later write
//     catch up by more than the burst.

// bucket paces writes to a rate in bytes per second. Time is passed in (ns
// on any monotonic clock) so that tests can drive it.
type bucket struct {
	rate   float64 // bytes per ns
	burst  float64
	tokens float64
	last   int64
}

// newBucket returns a full bucket for rate bytes per second and burst
// bytes, starting at now.
func newBucket(rate, burst int64, now int64) *bucket {
	return &bucket{rate: float64(rate) / 1e9, burst: float64(burst), tokens: float64(burst), last: now}
}

// take takes n bytes' worth of tokens at now and returns how many ns the
// caller must wait before writing them (0 if it may write now).
func (b *bucket) take(n int64, now int64) int64 {
	if now > b.last {
		b.tokens = math.Min(b.burst, b.tokens+float64(now-b.last)*b.rate)
		b.last = now
	}
	b.tokens -= float64(n)
	if b.tokens >= 0 {
		return 0
	}
	return int64(math.Ceil(-b.tokens / b.rate))
}
