package measure

import (
	"slices"
	"testing"
)

func TestSetRoundsAndPool(t *testing.T) {
	s := NewSet(2, 4)
	s[0].Add(1, 10, 100)
	s[1].Add(2, 20, 200)
	mark := s.Marks()
	if !slices.Equal(mark, []int{1, 1}) {
		t.Fatalf("Marks = %v", mark)
	}
	s[0].Add(3, 30, 300)
	s[0].Add(4, 40, 400)
	s[1].Add(5, 50, 500)
	total, write, sync := s.Since(mark)
	if !slices.Equal(total, []int64{3, 4, 5}) || !slices.Equal(write, []int64{30, 40, 50}) || !slices.Equal(sync, []int64{300, 400, 500}) {
		t.Errorf("Since = %v %v %v", total, write, sync)
	}
	total, _, _ = s.All()
	if !slices.Equal(total, []int64{1, 3, 4, 2, 5}) {
		t.Errorf("All = %v", total)
	}
	if allocs := testing.AllocsPerRun(1, func() { s[1].Add(6, 60, 600) }); allocs != 0 {
		t.Errorf("adding to a set's buffer allocates %v times", allocs)
	}
}
