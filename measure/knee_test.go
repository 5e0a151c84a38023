package measure

import "testing"

func TestFindKnee(t *testing.T) {
	for _, tt := range []struct {
		name     string
		xs       []int
		ys       []float64
		at, peak int
		inside   bool
	}{
		{"bends", []int{1, 4, 16, 64}, []float64{1000, 3000, 9200, 10000}, 16, 64, true},
		{"still rising", []int{1, 8, 64}, []float64{1000, 5000, 9000}, 64, 64, false},
		{"peaks then falls", []int{1, 2, 4, 8}, []float64{100, 300, 290, 200}, 2, 2, true},
		{"flat", []int{1, 64}, []float64{1000, 1050}, 1, 64, true},
		{"one point", []int{8}, []float64{500}, 8, 8, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k := FindKnee(tt.xs, tt.ys)
			if k.At != tt.at || k.PeakAt != tt.peak || k.Inside != tt.inside {
				t.Errorf("knee at %d, peak at %d, inside %v; want %d, %d, %v", k.At, k.PeakAt, k.Inside, tt.at, tt.peak, tt.inside)
			}
			if k.First != tt.xs[0] || k.Last != tt.xs[len(tt.xs)-1] {
				t.Errorf("range %d–%d", k.First, k.Last)
			}
		})
	}
}
