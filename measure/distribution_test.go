package measure

import "testing"

func TestDistribute(t *testing.T) {
	ns := []int64{5, 5, 999, 1000, 1009, 1010, 123_456, 123_499, 123_500, 2_000_000_001}
	d := Distribute(ns)
	want := []Bucket{
		{5, 6, 2}, {999, 1000, 1}, {1000, 1010, 2}, {1010, 1020, 1},
		{123_000, 124_000, 3}, {2_000_000_000, 2_010_000_000, 1},
	}
	if d.N != len(ns) {
		t.Errorf("N = %d, want %d", d.N, len(ns))
	}
	if len(d.Bins) != len(want) {
		t.Fatalf("bins = %v, want %v", d.Bins, want)
	}
	for i := range want {
		if d.Bins[i] != want[i] {
			t.Errorf("bin %d = %v, want %v", i, d.Bins[i], want[i])
		}
	}
	if ns[0] != 5 || ns[len(ns)-1] != 2_000_000_001 {
		t.Error("Distribute modified its input")
	}
	if got := Distribute(nil); got.N != 0 || got.Bins != nil {
		t.Errorf("Distribute(nil) = %v, want empty", got)
	}
}

func TestDistributeBinsWithinOnePercent(t *testing.T) {
	for _, x := range []int64{1000, 9999, 10_000, 99_999, 1_000_000, 5_432_109, 1 << 62} {
		lo, hi := binOf(x)
		if !(lo <= x && x < hi) {
			t.Errorf("binOf(%d) = [%d, %d): does not hold it", x, lo, hi)
		}
		if float64(hi-lo) > 0.01*float64(lo) {
			t.Errorf("binOf(%d) = [%d, %d): wider than 1 %% of its lower edge", x, lo, hi)
		}
	}
}
