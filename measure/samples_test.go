package measure

import (
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

func TestSamplesAddKeepsPartsTogether(t *testing.T) {
	s := NewSamples(3)
	s.Add(10, 4, 6)
	s.Add(20, 5, 15)
	if s.Len() != 2 {
		t.Fatalf("Len = %d, want 2", s.Len())
	}
	for name, got := range map[string][]int64{"Total": s.Total, "Write": s.Write, "Sync": s.Sync} {
		want := map[string][]int64{"Total": {10, 20}, "Write": {4, 5}, "Sync": {6, 15}}[name]
		if !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
}

func TestSamplesAddDoesNotAllocate(t *testing.T) {
	const runs = 1000
	s := NewSamples(runs + 1) // AllocsPerRun makes one extra warm-up call
	allocs := testing.AllocsPerRun(runs, func() { s.Add(3, 1, 2) })
	if allocs != 0 {
		t.Fatalf("Add allocates %v times per call, want 0", allocs)
	}
	if s.Len() != runs+1 {
		t.Fatalf("Len = %d after %d adds", s.Len(), runs+1)
	}
}

func TestSamplesAddPanicsWhenFull(t *testing.T) {
	s := NewSamples(1)
	s.Add(1, 0, 0)
	defer func() {
		r := recover()
		msg, _ := r.(string)
		if !strings.Contains(msg, "sample buffer full at 1 samples") {
			t.Fatalf("panic = %v, want a message about the full buffer", r)
		}
		if s.Len() != 1 {
			t.Fatalf("Len = %d after the refused Add, want 1", s.Len())
		}
	}()
	s.Add(2, 0, 0)
}

func TestSamplesResetKeepsCapacity(t *testing.T) {
	s := NewSamples(2)
	s.Add(1, 1, 0)
	s.Add(2, 1, 1)
	s.Reset()
	if s.Len() != 0 || len(s.Write) != 0 || len(s.Sync) != 0 {
		t.Fatalf("after Reset: Len %d, Write %v, Sync %v", s.Len(), s.Write, s.Sync)
	}
	allocs := testing.AllocsPerRun(1, func() { s.Reset(); s.Add(5, 2, 3); s.Add(6, 2, 4) })
	if allocs != 0 {
		t.Fatalf("refilling after Reset allocates %v times, want 0", allocs)
	}
	if !slices.Equal(s.Total, []int64{5, 6}) {
		t.Fatalf("Total = %v after refill, want [5 6]", s.Total)
	}
}

func TestNowIsMonotonicAndDoesNotAllocate(t *testing.T) {
	prev := Now()
	for range 1000 {
		now := Now()
		if now < prev {
			t.Fatalf("Now went back from %d to %d", prev, now)
		}
		prev = now
	}
	if allocs := testing.AllocsPerRun(1000, func() { _ = Now() }); allocs != 0 {
		t.Fatalf("Now allocates %v times per call, want 0", allocs)
	}
}

func TestHoldTurnsGCOffAndRestoresIt(t *testing.T) {
	orig := debug.SetGCPercent(77)
	defer debug.SetGCPercent(orig)

	release := Hold()
	during := debug.SetGCPercent(-1) // read without changing
	release()
	after := debug.SetGCPercent(77)

	if during != -1 {
		t.Errorf("GC percent while held = %d, want -1 (off)", during)
	}
	if after != 77 {
		t.Errorf("GC percent after release = %d, want the previous 77", after)
	}
}
