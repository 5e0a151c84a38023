package measure

import (
	"math"
	"strings"
	"testing"
)

func TestHistogramBucketPlacement(t *testing.T) {
	tests := []struct {
		x      int64
		lo, hi int64
	}{
		{0, 0, 1},
		{1, 1, 2},
		{9, 5, 10},
		{10, 10, 20},
		{150, 100, 200},
		{200, 200, 500},
		{999, 500, 1000},
		{1000, 1000, 2000},
		{2_000_000, 2_000_000, 5_000_000},
		{math.MaxInt64, 5_000_000_000_000_000_000, math.MaxInt64},
	}
	for _, tt := range tests {
		h := NewHistogram([]int64{tt.x})
		want := Bucket{Lo: tt.lo, Hi: tt.hi, Count: 1}
		if h.N != 1 || len(h.Buckets) != 1 || h.Buckets[0] != want {
			t.Errorf("NewHistogram([%d]) = %+v, want one bucket %+v", tt.x, h, want)
		}
	}
}

func TestHistogramCountsAreContiguousAndSumToN(t *testing.T) {
	var ns []int64
	for x := int64(100); x < 3_000_000; x = x*11/10 + 7 {
		ns = append(ns, x, x)
	}
	h := NewHistogram(ns)
	if h.N != len(ns) {
		t.Fatalf("N = %d, want %d", h.N, len(ns))
	}
	sum := 0
	for i, b := range h.Buckets {
		if i > 0 && b.Lo != h.Buckets[i-1].Hi {
			t.Errorf("bucket %d starts at %d, previous ends at %d", i, b.Lo, h.Buckets[i-1].Hi)
		}
		want := 0
		for _, x := range ns {
			if b.Lo <= x && x < b.Hi {
				want++
			}
		}
		if b.Count != want {
			t.Errorf("bucket [%d, %d) counts %d, want %d", b.Lo, b.Hi, b.Count, want)
		}
		sum += b.Count
	}
	if sum != len(ns) {
		t.Fatalf("counts sum to %d, want %d", sum, len(ns))
	}
	if first, last := h.Buckets[0], h.Buckets[len(h.Buckets)-1]; first.Lo != 100 || last.Hi != 5_000_000 {
		t.Fatalf("buckets span [%d, %d), want [100, 5000000)", first.Lo, last.Hi)
	}
}

func TestHistogramString(t *testing.T) {
	h := NewHistogram([]int64{1500, 1500, 1999, 3000, 600_000})
	want := "  1 µs -   2 µs |########################################| 3  60.0 %\n" +
		"  2 µs -   5 µs |#############                           | 1  20.0 %\n" +
		"  5 µs -  10 µs |                                        | 0   0.0 %\n" +
		" 10 µs -  20 µs |                                        | 0   0.0 %\n" +
		" 20 µs -  50 µs |                                        | 0   0.0 %\n" +
		" 50 µs - 100 µs |                                        | 0   0.0 %\n" +
		"100 µs - 200 µs |                                        | 0   0.0 %\n" +
		"200 µs - 500 µs |                                        | 0   0.0 %\n" +
		"500 µs -   1 ms |#############                           | 1  20.0 %\n"
	if got := h.String(); got != want {
		t.Fatalf("String() =\n%s\nwant\n%s", got, want)
	}
	if got := NewHistogram(nil).String(); got != "(no samples)\n" {
		t.Fatalf("empty String() = %q", got)
	}
}

func TestHistogramSmallCountsStillShow(t *testing.T) {
	ns := make([]int64, 1000)
	for i := range ns {
		ns[i] = 5
	}
	ns[0] = 1
	h := NewHistogram(ns)
	if got := h.String(); !strings.HasPrefix(got, "1 ns -  2 ns |# ") {
		t.Fatalf("a bucket holding 1 of 1000 samples draws no bar:\n%s", got)
	}
}
