package measure

import (
	"math"
	"slices"
	"testing"
)

// seq returns lo, lo+1, ..., hi.
func seq(lo, hi int64) []int64 {
	var s []int64
	for v := lo; v <= hi; v++ {
		s = append(s, v)
	}
	return s
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		in   []int64
		want Stats
	}{
		{"empty", nil, Stats{}},
		{"single", []int64{7}, Stats{N: 1, Mean: 7, Min: 7, P50: 7, P90: 7, P99: 7, P999: 7, Max: 7}},
		// 1..n: mean (n+1)/2, sample variance n(n+1)/12.
		{"1..10", seq(1, 10), Stats{N: 10, Mean: 5.5, Std: math.Sqrt(10 * 11 / 12.0),
			Min: 1, P50: 5, P90: 9, P99: 10, P999: 10, Max: 10}},
		{"1..100", seq(1, 100), Stats{N: 100, Mean: 50.5, Std: math.Sqrt(100 * 101 / 12.0),
			Min: 1, P50: 50, P90: 90, P99: 99, P999: 100, Max: 100}},
		{"1..1000", seq(1, 1000), Stats{N: 1000, Mean: 500.5, Std: math.Sqrt(1000 * 1001 / 12.0),
			Min: 1, P50: 500, P90: 900, P99: 990, P999: 999, Max: 1000}},
		// Deviations from 5: -3 -1 -1 -1 0 0 2 4, squares sum to 32; ranks
		// ceil(4)=4, ceil(7.2)=8, ceil(7.92)=8, ceil(7.992)=8.
		{"unsorted", []int64{9, 4, 5, 2, 4, 7, 4, 5}, Stats{N: 8, Mean: 5, Std: math.Sqrt(32 / 7.0),
			Min: 2, P50: 4, P90: 9, P99: 9, P999: 9, Max: 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.in)
			got := Summarize(in)
			if !slices.Equal(in, tt.in) {
				t.Fatalf("Summarize modified its input: %v, was %v", in, tt.in)
			}
			if math.Abs(got.Std-tt.want.Std) > 1e-9 {
				t.Errorf("Std = %v, want %v", got.Std, tt.want.Std)
			}
			got.Std = tt.want.Std
			if got != tt.want {
				t.Errorf("Summarize = %+v\nwant        %+v", got, tt.want)
			}
		})
	}
}

func TestNearestRank(t *testing.T) {
	s2000, s41000 := seq(1, 2000), seq(1, 41000)
	tests := []struct {
		sorted []int64
		p      float64
		want   int64
	}{
		{seq(1, 10), 10, 1},
		{seq(1, 10), 10.0001, 2},
		{seq(1, 10), 100, 10},
		{seq(1, 10), 0.0001, 1},
		{s2000, 99.9, 1998},
		{s41000, 99.9, 40959}, // 99.9*41000/100 computes as 40959.00000000001
		{s2000, 99.95, 1999},
		{s2000, 1, 20},
		{nil, 50, 0},
	}
	for _, tt := range tests {
		if got := NearestRank(tt.sorted, tt.p); got != tt.want {
			t.Errorf("NearestRank(n=%d, %v) = %d, want %d", len(tt.sorted), tt.p, got, tt.want)
		}
	}
}

func TestNearestRankRefusesBadPercentile(t *testing.T) {
	for _, p := range []float64{0, -1, 100.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NearestRank(_, %v) did not panic", p)
				}
			}()
			NearestRank(seq(1, 3), p)
		}()
	}
}

func TestPoolConcatenatesRawSamples(t *testing.T) {
	a, b := []int64{1, 2, 3}, []int64{100, 200, 300}
	pooled := Pool(a, nil, b)
	if want := []int64{1, 2, 3, 100, 200, 300}; !slices.Equal(pooled, want) {
		t.Fatalf("Pool = %v, want %v", pooled, want)
	}
	pooled[0] = 42
	if a[0] != 1 {
		t.Fatal("Pool shares memory with its input")
	}
	// The pooled median is a raw sample (rank 3 of 6), not the mean of the
	// rounds' medians (101).
	if got := Summarize(Pool(a, b)).P50; got != 3 {
		t.Fatalf("pooled P50 = %d, want 3", got)
	}
	if got := Pool(); len(got) != 0 {
		t.Fatalf("Pool() = %v, want empty", got)
	}
}
