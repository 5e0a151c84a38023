// Package measure times samples and summarises them: preallocated sample
// buffers, a monotonic clock, a way to hold the garbage collector and the
// scheduler off a round, nearest-rank percentiles, the 1 ms staircase
// analysis, a log-spaced latency histogram, and a finer Distribution kept
// with results for plots.
//
// All figures are integer nanoseconds. Percentiles are nearest-rank over raw
// samples; to summarise several rounds, Pool the raw samples first and
// Summarize the pool, never average per-round percentiles.
package measure
