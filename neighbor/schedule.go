package neighbor

import (
	"slices"

	"github.com/durabench/durabench/syscalls"
)

// Invariants:
//   - Trial (or pass) k runs the methods in the order given when k is even
//     and in reverse when k is odd, so that no method always runs first or
//     always follows the same other method.
//   - Every cell appears exactly once per trial (or pass): the schedules
//     hold len(backlogs)·len(methods)·trials and len(rates)·len(methods)·passes
//     cells.

// BacklogCell is one measurement of backlog mode: a fresh neighbor with
// Backlog bytes, and one timed write + sync with Method.
type BacklogCell struct {
	Trial   int // 0-based
	Backlog int64
	Method  syscalls.Method
}

// StreamCell is one measurement of stream mode: a fresh neighbor writing at
// Rate while the probe loops write + sync with Method.
type StreamCell struct {
	Pass   int // 0-based
	Rate   Rate
	Method syscalls.Method
}

// Alternate returns xs in order for even k and reversed for odd k, as a new
// slice.
func Alternate[T any](xs []T, k int) []T {
	out := slices.Clone(xs)
	if k%2 == 1 {
		slices.Reverse(out)
	}
	return out
}

// BacklogSchedule returns the cells of a backlog run in the order they run:
// trial by trial, backlogs in the order given, methods alternating with the
// trial (see Alternate).
func BacklogSchedule(backlogs []int64, methods []syscalls.Method, trials int) []BacklogCell {
	var cells []BacklogCell
	for k := range trials {
		for _, b := range backlogs {
			for _, m := range Alternate(methods, k) {
				cells = append(cells, BacklogCell{Trial: k, Backlog: b, Method: m})
			}
		}
	}
	return cells
}

// StreamSchedule returns the cells of a stream run in the order they run:
// pass by pass, with both the rates and the methods reversed on odd passes.
func StreamSchedule(rates []Rate, methods []syscalls.Method, passes int) []StreamCell {
	var cells []StreamCell
	for p := range passes {
		for _, r := range Alternate(rates, p) {
			for _, m := range Alternate(methods, p) {
				cells = append(cells, StreamCell{Pass: p, Rate: r, Method: m})
			}
		}
	}
	return cells
}
