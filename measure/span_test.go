package measure

import "testing"

func TestSpanAndPerSec(t *testing.T) {
	s := Span{Start: 100, End: 300}.Union(Span{Start: 150, End: 500})
	if s != (Span{Start: 100, End: 500}) || s.Wall() != 400 {
		t.Errorf("Union = %+v, wall %d; want {100 500}, 400", s, s.Wall())
	}
	if got := PerSec(1000, 2e9); got != 500 {
		t.Errorf("PerSec(1000, 2 s) = %v, want 500", got)
	}
	if got := PerSec(1000, 0); got != 0 {
		t.Errorf("PerSec over no time = %v, want 0", got)
	}
}

func TestSummarizeSince(t *testing.T) {
	s := NewSet(2, 4)
	s[0].Add(10, 4, 6)
	s[1].Add(20, 5, 15)
	mark := s.Marks()
	s[0].Add(30, 10, 20)
	s[1].Add(50, 20, 30)
	s[1].Add(40, 10, 30)
	if got := s.SummarizeSince(mark); got.N != 3 || got.Total.Max != 50 || got.Write.Min != 10 || got.Sync.Max != 30 {
		t.Errorf("SummarizeSince(mark) = %+v, want 3 samples, total max 50, write min 10, sync max 30", got)
	}
	if got := s.SummarizeSince(nil); got.N != 5 || got.Total.Min != 10 {
		t.Errorf("SummarizeSince(nil) = %+v, want 5 samples, total min 10", got)
	}
}
