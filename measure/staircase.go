package measure

// The staircase analysis asks whether latencies cluster on whole milliseconds,
// as they do when a device (or its firmware, or a hypervisor) completes
// flushes on a 1 ms tick.
//
// Invariants:
//   - Only samples of at least half a millisecond are considered: a faster
//     one is nearest to 0 ms, which is no step, and counting it as "near a
//     whole millisecond" would make any fast sync look like a staircase.
//   - A considered sample x is "on the staircase" when its distance to the
//     nearest multiple of 1 ms is at most the tolerance.
//   - Chance is the share a spread without any tick would give, computed from
//     the same samples (see chance), so Share and Chance are comparable.
//   - A tolerance of half a millisecond or more covers every value: Share and
//     Chance are then both 1.

// DefaultTolerance is the usual staircase tolerance: 100 µs, which gives a
// 20 % chance level for samples spread over many milliseconds.
const DefaultTolerance int64 = 100_000

// millisecond is the tick the staircase looks for, in nanoseconds.
const millisecond int64 = 1_000_000

// Staircase is the result of the staircase analysis: of N samples, the
// Considered ones (at least half a millisecond), the Share within ±Tolerance
// ns of a whole millisecond, and the Chance share that a spread of the same
// width without a tick would give. With nothing considered, both are 0.
type Staircase struct {
	N          int
	Considered int
	Tolerance  int64
	Share      float64
	Chance     float64
}

// minConsidered is the shortest sample the analysis considers.
const minConsidered = millisecond / 2

// StaircaseOf analyses ns (not modified) with the given tolerance in
// nanoseconds; a tolerance <= 0 means DefaultTolerance.
//
// Chance is the share a uniform distribution over the observed spread would
// place within the tolerance, the spread being the 1st to the 99th percentile
// [lo, hi] (so a few outliers do not widen it). If hi-lo is at least 1 ms,
// Chance is 2*tolerance/1ms (0.2 for 100 µs): the exact share for any whole
// number of milliseconds, and its limit for wide spreads. If the spread is
// narrower, Chance is the fraction of [lo, hi] within the tolerance of a whole
// millisecond (for lo == hi: 1 if that value is, else 0). The two agree at
// exactly 1 ms, so the rule has no jump. Samples under half a millisecond
// are left out (see the invariants).
func StaircaseOf(ns []int64, tolerance int64) Staircase {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	sc := Staircase{N: len(ns), Tolerance: tolerance}
	var considered []int64
	near := 0
	for _, x := range ns {
		if x < minConsidered {
			continue
		}
		considered = append(considered, x)
		if distanceToMs(x) <= tolerance {
			near++
		}
	}
	sc.Considered = len(considered)
	if sc.Considered == 0 {
		return sc
	}
	sc.Share = float64(near) / float64(sc.Considered)
	sorted := sortedCopy(considered)
	sc.Chance = chance(NearestRank(sorted, 1), NearestRank(sorted, 99), tolerance)
	return sc
}

// distanceToMs is the distance in ns from x to the nearest multiple of 1 ms.
func distanceToMs(x int64) int64 {
	r := x % millisecond
	if r < 0 {
		r += millisecond
	}
	return min(r, millisecond-r)
}

// chance is the share of a uniform distribution over [lo, hi] that lies
// within tol of a whole millisecond, with spreads of 1 ms or more taken as
// 2*tol/1ms (see StaircaseOf).
func chance(lo, hi, tol int64) float64 {
	tol = min(tol, millisecond/2)
	switch {
	case hi-lo >= millisecond:
		return float64(2*tol) / float64(millisecond)
	case hi == lo:
		if distanceToMs(lo) <= tol {
			return 1
		}
		return 0
	}
	return float64(nearMeasure(hi, tol)-nearMeasure(lo, tol)) / float64(hi-lo)
}

// nearMeasure is the signed length of {y in [0, x] : y within tol of a whole
// millisecond} (negative for x < 0), so that nearMeasure(hi)-nearMeasure(lo)
// is that length within [lo, hi]. Each whole millisecond contributes 2*tol;
// within the last partial one, [0, tol] and [1ms-tol, 1ms) are near.
// It requires tol <= 1ms/2.
func nearMeasure(x, tol int64) int64 {
	k := x / millisecond
	r := x % millisecond
	if r < 0 {
		k--
		r += millisecond
	}
	return k*2*tol + min(r, tol) + max(0, r-(millisecond-tol))
}
