package neighbor

import (
	"fmt"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
)

// maxCells bounds the cells of one run: each starts a neighbor process,
// so a run past it would not end in any useful time.
const maxCells = 100_000

// checkCells refuses a schedule of factors' product cells past maxCells,
// with the true figure, computed without overflow; fields are the
// configuration's fields behind the factors.
func checkCells(fields, what string, factors ...int64) error {
	n, err := units.Mul(factors...)
	if err == nil && n > maxCells {
		err = fmt.Errorf("%d cells, each with a neighbor process of its own; at most %d", n, maxCells)
	}
	if err != nil {
		return bad(fields, "%s: %v", what, err)
	}
	return nil
}

// checkLimits refuses a backlog run with more than maxCells cells.
func (c BacklogConfig) checkLimits() error {
	return checkCells("Backlogs,Methods,Trials", "backlogs × methods × trials", int64(len(c.Backlogs)), int64(len(c.Methods)), int64(c.Trials))
}

// checkLimits refuses a stream run with more than maxCells cells or a
// sample buffer past measure.MaxBufferBytes.
func (c StreamConfig) checkLimits() error {
	if err := checkCells("Rates,Methods,Passes", "rates × methods × passes", int64(len(c.Rates)), int64(len(c.Methods)), int64(c.Passes)); err != nil {
		return err
	}
	if err := measure.CheckBuffers(int64(c.MaxSamples)); err != nil {
		return bad("MaxSamples", "the probe's sample buffer: %v", err)
	}
	return nil
}
