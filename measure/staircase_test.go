package measure

import (
	"math"
	"testing"
)

const ms = millisecond

func TestStaircaseOnWholeMilliseconds(t *testing.T) {
	sc := StaircaseOf([]int64{1 * ms, 2 * ms, 5 * ms, 10 * ms, 3 * ms}, DefaultTolerance)
	want := Staircase{N: 5, Considered: 5, Tolerance: DefaultTolerance, Share: 1, Chance: 0.2}
	if sc != want {
		t.Fatalf("StaircaseOf = %+v, want %+v", sc, want)
	}
}

func TestStaircaseOnHalfMilliseconds(t *testing.T) {
	sc := StaircaseOf([]int64{ms / 2, 3 * ms / 2, 5 * ms / 2, 7 * ms / 2}, DefaultTolerance)
	if sc.Share != 0 || sc.Chance != 0.2 {
		t.Fatalf("StaircaseOf = %+v, want Share 0, Chance 0.2", sc)
	}
}

func TestStaircaseOnEvenSpreadMatchesChance(t *testing.T) {
	// An even grid over [0, 20 ms) with a step that does not divide 1 ms.
	const step, span = 997, 20 * ms
	var ns []int64
	for x := int64(0); x < span; x += step {
		ns = append(ns, x)
	}
	sc := StaircaseOf(ns, DefaultTolerance)
	if sc.Chance != 0.2 {
		t.Fatalf("Chance = %v, want 0.2 for a 20 ms spread", sc.Chance)
	}
	// Each of the span/ms+1 bands (whole or cut at the ends) holds within one
	// point of its width/step, so the share is off by at most that many points.
	if want := len(ns) - int(ms/2/step) - 1; sc.Considered != want {
		t.Fatalf("Considered = %d, want %d (the samples from 0.5 ms on)", sc.Considered, want)
	}
	bound := float64(span/ms+1) / float64(sc.Considered)
	if d := math.Abs(sc.Share - 0.2); d > bound {
		t.Fatalf("Share = %v, off 0.2 by %v, more than the grid allows (%v)", sc.Share, d, bound)
	}
}

func TestStaircaseNarrowSpread(t *testing.T) {
	// 100 samples 1.800, 1.804, ..., 2.196 ms: p1 = 1.800 ms, p99 = 2.192 ms.
	// Of [1.800, 2.192], the 0.2 ms from 1.9 to 2.1 ms is near 2 ms; samples
	// i = 25..75 (51 of them) lie there.
	var ns []int64
	for i := range int64(100) {
		ns = append(ns, 1800_000+i*4_000)
	}
	sc := StaircaseOf(ns, DefaultTolerance)
	if want := 200_000.0 / 392_000; math.Abs(sc.Chance-want) > 1e-12 {
		t.Errorf("Chance = %v, want %v", sc.Chance, want)
	}
	if sc.Share != 0.51 {
		t.Errorf("Share = %v, want 0.51", sc.Share)
	}
}

func TestStaircaseLeavesOutSamplesUnderHalfAMillisecond(t *testing.T) {
	sc := StaircaseOf(seq(1_000, 50_000), DefaultTolerance)
	if sc.N != 49_001 || sc.Considered != 0 || sc.Share != 0 || sc.Chance != 0 {
		t.Fatalf("StaircaseOf(1..50 µs) = %+v, want nothing considered", sc)
	}
	// Fast samples near 0 ms must not count as on the staircase: only the
	// two 2 ms samples are considered, and both are on it.
	sc = StaircaseOf([]int64{40_000, 60_000, 2 * ms, 2 * ms}, DefaultTolerance)
	if sc.Considered != 2 || sc.Share != 1 {
		t.Fatalf("StaircaseOf = %+v, want 2 considered, share 1", sc)
	}
}

func TestStaircaseDefaultsAndEmpty(t *testing.T) {
	if got := StaircaseOf(nil, 0); got != (Staircase{Tolerance: DefaultTolerance}) {
		t.Errorf("StaircaseOf(nil, 0) = %+v", got)
	}
	// ±50 µs: 2.04 ms is near, 2.06 ms is not.
	if got := StaircaseOf([]int64{2_040_000, 2_060_000}, 50_000); got.Share != 0.5 || got.Tolerance != 50_000 {
		t.Errorf("StaircaseOf(±50 µs) = %+v, want Share 0.5", got)
	}
}

func TestChance(t *testing.T) {
	tests := []struct {
		lo, hi, tol int64
		want        float64
	}{
		{0, ms, 100_000, 0.2},
		{0, 5 * ms, 100_000, 0.2},
		{1_800_000, 2_200_000, 100_000, 0.5},
		{500_000, 600_000, 100_000, 0},
		{950_000, 1_150_000, 100_000, 0.75},
		{500_000, 1_000_000, 100_000, 0.2},
		{-50_000, 50_000, 100_000, 1},
		{400_000, 1_350_000, 100_000, 0.2 / 0.95},
		{2 * ms, 2 * ms, 100_000, 1},
		{2_500_000, 2_500_000, 100_000, 0},
		{300_000, 700_000, 600_000, 1},
		{0, 3 * ms, 600_000, 1},
	}
	for _, tt := range tests {
		if got := chance(tt.lo, tt.hi, tt.tol); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("chance(%d, %d, ±%d) = %v, want %v", tt.lo, tt.hi, tt.tol, got, tt.want)
		}
	}
}
