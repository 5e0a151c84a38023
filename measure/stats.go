package measure

import (
	"fmt"
	"math"
	"slices"
)

// Invariants:
//   - Percentiles are nearest-rank: the p-th percentile of n sorted samples is
//     the sample at 1-based rank ceil(p/100*n), so it is always an observed
//     value, and P50 <= P90 <= P99 <= P999 <= Max.
//   - Summarize never modifies its input; it sorts a copy.
//   - A Stats with N == 0 is all zeros.

// Stats summarises a set of nanosecond samples. Percentiles are nearest-rank
// over the raw samples; Std is the sample standard deviation (n-1 in the
// denominator), 0 for fewer than two samples.
type Stats struct {
	N                             int
	Mean, Std                     float64
	Min, P50, P90, P99, P999, Max int64
}

// Summarize returns the statistics of ns. It does not modify ns. An empty
// input gives the zero Stats (N == 0).
func Summarize(ns []int64) Stats {
	n := len(ns)
	if n == 0 {
		return Stats{}
	}
	sorted := sortedCopy(ns)

	var sum float64
	for _, v := range sorted {
		sum += float64(v)
	}
	mean := sum / float64(n)
	var std float64
	if n > 1 {
		var sq float64
		for _, v := range sorted {
			d := float64(v) - mean
			sq += d * d
		}
		std = math.Sqrt(sq / float64(n-1))
	}
	return Stats{
		N:    n,
		Mean: mean,
		Std:  std,
		Min:  sorted[0],
		P50:  NearestRank(sorted, 50),
		P90:  NearestRank(sorted, 90),
		P99:  NearestRank(sorted, 99),
		P999: NearestRank(sorted, 99.9),
		Max:  sorted[n-1],
	}
}

// NearestRank returns the p-th percentile of sorted (ascending) by the
// nearest-rank method: the sample at 1-based rank ceil(p/100*n). p must be in
// (0, 100]; NearestRank panics otherwise. An empty slice gives 0.
func NearestRank(sorted []int64, p float64) int64 {
	if !(p > 0 && p <= 100) {
		panic(fmt.Sprintf("measure: percentile %v outside (0, 100]", p))
	}
	n := len(sorted)
	if n == 0 {
		return 0
	}
	return sorted[rank(p, n)-1]
}

// rank is ceil(p/100*n) clamped to [1, n]. Percentiles are written in decimal
// (99.9) and are not exact in binary, so p*n/100 can land a hair above an
// integer it is meant to equal (which would make ceil one rank too high);
// values within a relative 1e-9 of an integer are taken as that integer.
func rank(p float64, n int) int {
	x := p * float64(n) / 100
	r := math.Round(x)
	if math.Abs(x-r) > 1e-9*math.Max(1, x) {
		r = math.Ceil(x)
	}
	return int(min(max(r, 1), float64(n)))
}

// Pool concatenates the raw samples of several rounds into one new slice, to
// be summarised as a whole.
func Pool(rounds ...[]int64) []int64 {
	total := 0
	for _, r := range rounds {
		total += len(r)
	}
	pooled := make([]int64, 0, total)
	for _, r := range rounds {
		pooled = append(pooled, r...)
	}
	return pooled
}

// sortedCopy returns an ascending copy of ns.
func sortedCopy(ns []int64) []int64 {
	sorted := slices.Clone(ns)
	slices.Sort(sorted)
	return sorted
}
