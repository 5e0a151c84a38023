package measure

// Span is the monotonic start and end of a measured stretch, in ns of Now:
// from the first clock read of a loop to its last, so that it covers every
// sample of the stretch and the loop's own overhead.
type Span struct{ Start, End int64 }

// Wall returns the span's length in ns.
func (s Span) Wall() int64 { return s.End - s.Start }

// Union returns the smallest span that covers s and o: the wall time of
// stretches that ran together, such as one per thread.
func (s Span) Union(o Span) Span { return Span{min(s.Start, o.Start), max(s.End, o.End)} }

// PerSec returns x per second of ns nanoseconds, or 0 when ns is not
// positive (nothing was timed).
func PerSec(x float64, ns int64) float64 {
	if ns <= 0 {
		return 0
	}
	return x / (float64(ns) / 1e9)
}
