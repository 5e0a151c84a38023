package neighbor

import (
	"slices"
	"testing"

	"github.com/durabench/durabench/syscalls"
)

func TestAlternate(t *testing.T) {
	xs := []int{1, 2, 3}
	for k, want := range [][]int{{1, 2, 3}, {3, 2, 1}, {1, 2, 3}, {3, 2, 1}} {
		if got := Alternate(xs, k); !slices.Equal(got, want) {
			t.Errorf("Alternate(%v, %d) = %v, want %v", xs, k, got, want)
		}
	}
	if !slices.Equal(xs, []int{1, 2, 3}) {
		t.Errorf("Alternate changed its input to %v", xs)
	}
}

func TestBacklogScheduleAlternatesMethods(t *testing.T) {
	ms := []syscalls.Method{syscalls.Fsync, syscalls.Fdatasync, syscalls.None}
	backlogs := []int64{0, 256 << 20, 1 << 30}
	cells := BacklogSchedule(backlogs, ms, 4)
	if len(cells) != 4*len(backlogs)*len(ms) {
		t.Fatalf("%d cells, want %d", len(cells), 4*len(backlogs)*len(ms))
	}
	i := 0
	for trial := range 4 {
		want := ms
		if trial%2 == 1 {
			want = []syscalls.Method{syscalls.None, syscalls.Fdatasync, syscalls.Fsync}
		}
		for _, b := range backlogs {
			var got []syscalls.Method
			for range ms {
				c := cells[i]
				i++
				if c.Trial != trial || c.Backlog != b {
					t.Fatalf("cell %d is trial %d backlog %d, want trial %d backlog %d", i-1, c.Trial, c.Backlog, trial, b)
				}
				got = append(got, c.Method)
			}
			if !slices.Equal(got, want) {
				t.Errorf("trial %d backlog %d runs %v, want %v", trial, b, got, want)
			}
		}
	}
}

func TestStreamScheduleReversesRatesAndMethods(t *testing.T) {
	ms := []syscalls.Method{syscalls.Fsync, syscalls.Fdatasync}
	rates := []Rate{0, 100 << 20, RateMax}
	cells := StreamSchedule(rates, ms, 2)
	want := []StreamCell{
		{0, 0, syscalls.Fsync}, {0, 0, syscalls.Fdatasync},
		{0, 100 << 20, syscalls.Fsync}, {0, 100 << 20, syscalls.Fdatasync},
		{0, RateMax, syscalls.Fsync}, {0, RateMax, syscalls.Fdatasync},
		{1, RateMax, syscalls.Fdatasync}, {1, RateMax, syscalls.Fsync},
		{1, 100 << 20, syscalls.Fdatasync}, {1, 100 << 20, syscalls.Fsync},
		{1, 0, syscalls.Fdatasync}, {1, 0, syscalls.Fsync},
	}
	if !slices.Equal(cells, want) {
		t.Errorf("StreamSchedule =\n%v\nwant\n%v", cells, want)
	}
}
