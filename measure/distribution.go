package measure

// Invariants:
//   - A sample x falls in the bin [Lo, Lo+w) where w is 1 below 1,000 ns and
//     otherwise 10^(d-3) for a d-digit x: every sample keeps its first three
//     significant digits, so a bin is at most 1 % of its lower edge wide.
//   - Bins are sparse (only bins holding samples), ascending, and their
//     counts sum to N.

// Distribution is the shape of a set of nanosecond samples, fine enough to
// draw a histogram on any linear grid coarser than 1 % of the values, and a
// cumulative distribution, without keeping every sample.
type Distribution struct {
	N    int
	Bins []Bucket
}

// Distribute returns the distribution of ns (not modified). Samples below
// zero count in the bin [x, x+1).
func Distribute(ns []int64) Distribution {
	if len(ns) == 0 {
		return Distribution{}
	}
	sorted := sortedCopy(ns)
	d := Distribution{N: len(sorted)}
	for _, x := range sorted {
		lo, hi := binOf(x)
		if n := len(d.Bins); n > 0 && d.Bins[n-1].Lo == lo {
			d.Bins[n-1].Count++
			continue
		}
		d.Bins = append(d.Bins, Bucket{Lo: lo, Hi: hi, Count: 1})
	}
	return d
}

// binOf returns the edges of the bin holding x.
func binOf(x int64) (lo, hi int64) {
	if x < 1000 {
		return x, x + 1
	}
	w := int64(1)
	for x/w >= 1000 {
		w *= 10
	}
	lo = x - x%w
	if lo > maxInt64-w {
		return lo, maxInt64
	}
	return lo, lo + w
}

const maxInt64 = 1<<63 - 1
