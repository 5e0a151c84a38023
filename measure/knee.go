package measure

// Knee is where a throughput curve (commits/s against a growing count of
// writers, threads or batch size) stops paying: the smallest count that
// reaches KneeShare of the best throughput. It is a knee only when the
// curve really bends inside the tried range: when the last step up gained
// less than FlatGain. A curve still rising at its largest count has no
// knee there: more was not tried.
type Knee struct {
	// At is the smallest count reaching KneeShare of the peak, and Index
	// its position in the curve; Share is its throughput over the peak.
	At, Index int
	Share     float64
	// Peak is the best throughput, reached at PeakAt.
	Peak   float64
	PeakAt int
	// Inside is true when the curve bends inside the tried range: it has
	// at least two points and its last step gained less than FlatGain.
	Inside bool
	// LastGain is the last step's gain, (y[n-1] - y[n-2]) / y[n-2]:
	// 0.8 for a curve that rose 80 % from its second-largest count to its
	// largest; 0 for a curve of one point.
	LastGain float64
	// First and Last are the smallest and largest counts tried.
	First, Last int
}

// KneeShare is the share of the peak that defines a knee.
const KneeShare = 0.9

// FlatGain is the last step's gain below which a curve counts as bent.
const FlatGain = 0.1

// FindKnee finds the knee of the curve ys over counts xs, which must have
// the same length, at least one point, and counts ascending.
func FindKnee(xs []int, ys []float64) Knee {
	k := Knee{First: xs[0], Last: xs[len(xs)-1]}
	for i, y := range ys {
		if i == 0 || y > k.Peak {
			k.Peak, k.PeakAt = y, xs[i]
		}
	}
	for i, y := range ys {
		if y >= KneeShare*k.Peak {
			k.At, k.Index = xs[i], i
			if k.Peak > 0 {
				k.Share = y / k.Peak
			}
			break
		}
	}
	if n := len(ys); n >= 2 {
		if prev := ys[n-2]; prev > 0 {
			k.LastGain = (ys[n-1] - prev) / prev
		}
		k.Inside = k.LastGain < FlatGain
	}
	return k
}
