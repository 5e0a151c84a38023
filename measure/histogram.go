package measure

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Invariants:
//   - Bucket edges are 1-2-5 per decade in nanoseconds: [1,2), [2,5),
//     [5,10), [10,20), ... ; a bucket holds Lo <= x < Hi. Samples below 1 ns
//     fall in a first bucket [0, 1); the last possible bucket ends at MaxInt64.
//   - Buckets are contiguous from the one holding the smallest sample to the
//     one holding the largest, empty ones included, and their counts sum to N.

// Bucket is one histogram bin: Count samples x with Lo <= x < Hi, in ns.
type Bucket struct {
	Lo, Hi int64
	Count  int
}

// Histogram counts nanosecond samples in log-spaced buckets (1-2-5 per
// decade).
type Histogram struct {
	N       int
	Buckets []Bucket
}

// histogramWidth is the length, in characters, of the longest bar String draws.
const histogramWidth = 40

// NewHistogram counts ns (not modified) into log-spaced buckets.
func NewHistogram(ns []int64) Histogram {
	if len(ns) == 0 {
		return Histogram{}
	}
	first, last := bucketIndex(ns[0]), bucketIndex(ns[0])
	for _, x := range ns[1:] {
		i := bucketIndex(x)
		first, last = min(first, i), max(last, i)
	}
	h := Histogram{N: len(ns), Buckets: make([]Bucket, last-first+1)}
	for i := range h.Buckets {
		h.Buckets[i] = Bucket{Lo: bucketLo(first + i), Hi: bucketLo(first + i + 1)}
	}
	for _, x := range ns {
		h.Buckets[bucketIndex(x)-first].Count++
	}
	return h
}

// bucketIndex numbers buckets: 0 is [0, 1), then 1+3*d+c for decade d
// (10^d <= x < 10^(d+1)) and c = 0, 1, 2 for mantissas [1,2), [2,5), [5,10).
func bucketIndex(x int64) int {
	if x < 1 {
		return 0
	}
	d := 0
	p := int64(1)
	for x/p >= 10 {
		p *= 10
		d++
	}
	switch m := x / p; {
	case m < 2:
		return 1 + 3*d
	case m < 5:
		return 2 + 3*d
	default:
		return 3 + 3*d
	}
}

// bucketLo is the lower edge of bucket i; past the largest edge int64 can
// hold (5e18, decade 18) it is MaxInt64, the upper edge of the last bucket.
func bucketLo(i int) int64 {
	if i == 0 {
		return 0
	}
	d, c := (i-1)/3, (i-1)%3
	if d > 18 {
		return math.MaxInt64
	}
	p := int64(1)
	for range d {
		p *= 10
	}
	return [3]int64{1, 2, 5}[c] * p
}

// String renders the histogram as a text bar chart, one line per bucket:
// its range, a bar of '#' scaled to the fullest bucket, the count and the
// share of all samples.
func (h Histogram) String() string {
	if h.N == 0 {
		return "(no samples)\n"
	}
	most := 0
	loW, hiW, countW := 0, 0, 0
	for _, b := range h.Buckets {
		most = max(most, b.Count)
		loW = max(loW, utf8.RuneCountInString(edgeLabel(b.Lo)))
		hiW = max(hiW, utf8.RuneCountInString(edgeLabel(b.Hi)))
		countW = max(countW, len(strconv.Itoa(b.Count)))
	}
	var sb strings.Builder
	for _, b := range h.Buckets {
		bar := b.Count * histogramWidth / most
		if b.Count > 0 && bar == 0 {
			bar = 1
		}
		fmt.Fprintf(&sb, "%*s - %*s |%-*s| %*d %5.1f %%\n",
			loW, edgeLabel(b.Lo), hiW, edgeLabel(b.Hi),
			histogramWidth, strings.Repeat("#", bar),
			countW, b.Count, 100*float64(b.Count)/float64(h.N))
	}
	return sb.String()
}

// edgeLabel names a bucket edge, always an exact 1-2-5 value, in the largest
// unit that keeps it whole: "500 ns", "2 µs", "50 ms", "1 s".
func edgeLabel(v int64) string {
	switch {
	case v == 0:
		return "0"
	case v == math.MaxInt64:
		return "max"
	case v%1_000_000_000 == 0:
		return fmt.Sprintf("%d s", v/1_000_000_000)
	case v%1_000_000 == 0:
		return fmt.Sprintf("%d ms", v/1_000_000)
	case v%1_000 == 0:
		return fmt.Sprintf("%d µs", v/1_000)
	}
	return fmt.Sprintf("%d ns", v)
}
