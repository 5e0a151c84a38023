package syncbench

import (
	"fmt"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
)

// Invariants: every figure derived from the configuration (writes per file,
// bytes per file, samples, bytes on disk) is computed with units' checked
// arithmetic in checkLimits, which Validate calls before any other check
// uses them; a figure that would pass math.MaxInt64 refuses the run with the
// true figure instead of wrapping to a small one that passes the checks.

// checkLimits refuses a configuration whose figures overflow, whose sample
// buffers would pass measure.MaxBufferBytes, or whose files would not fit
// in an int64 of bytes.
func (c Config) checkLimits() error {
	var samples int64
	for _, bs := range c.BlockSizes {
		if bs <= 0 {
			return fmt.Errorf("%w: block size %d: must be positive", ErrConfig, bs)
		}
		if _, err := c.checkedCapacity(bs); err != nil {
			return fmt.Errorf("%w: bytes written per file at block size %s: %w", ErrConfig, units.FormatSize(bs), err)
		}
		for _, t := range c.Threads {
			// Each thread writes from a buffer of one block.
			if err := checkWriteBuffers(bs, int64(t)); err != nil {
				return fmt.Errorf("%w: %w", ErrConfig, err)
			}
			// Every case's buffers are allocated up front, for all rounds.
			n, err := units.Of(int64(c.Rounds)).Mul(int64(c.IterationsFor(bs)/c.SyncEvery), int64(t),
				int64(len(c.Workloads)), int64(len(c.Methods))).Add(samples).Result()
			if err != nil {
				return fmt.Errorf("%w: samples to keep: %w", ErrConfig, err)
			}
			samples = n
		}
	}
	if err := measure.CheckBuffers(samples); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if _, err := c.diskNeeded(true); err != nil {
		return fmt.Errorf("%w: bytes on disk: %w", ErrConfig, err)
	}
	return nil
}

// checkWriteBuffers refuses n write buffers of bs bytes past
// measure.MaxBufferBytes, with the true figure.
func checkWriteBuffers(bs, n int64) error {
	need, err := units.Mul(bs, n)
	if err == nil && need > measure.MaxBufferBytes {
		err = fmt.Errorf("%d buffers of %s = %s, more than the %s a run may preallocate", n, units.FormatSize(bs), units.Human(need), units.Human(measure.MaxBufferBytes))
	}
	if err != nil {
		return fmt.Errorf("write buffers: %w; use smaller blocks or fewer threads", err)
	}
	return nil
}

// checkedCapacity is capacityNeeded with checked arithmetic.
func (c Config) checkedCapacity(bs int64) (int64, error) {
	calc := units.Of(int64(c.Warmup)).Add(int64(c.IterationsFor(bs)))
	if c.Order == Interleaved {
		calc.Mul(int64(len(c.Methods)))
	}
	return calc.Mul(bs).Result()
}

// DiskNeeded returns the most bytes the run holds on disk at once: the
// largest case-round's files, since each is removed as its case ends, or,
// when the run keeps its files, every case-round's files. Validate checks
// that it fits in an int64.
func (c Config) DiskNeeded(keep bool) int64 { return units.Saturate(c.diskNeeded(keep)) }

func (c Config) diskNeeded(keep bool) (int64, error) {
	var most, all int64
	for _, w := range c.Workloads {
		for _, bs := range c.BlockSizes {
			per := c.FileSize
			if !w.State().FixedSize() {
				var err error
				if per, err = c.checkedCapacity(bs); err != nil {
					return 0, err
				}
			}
			for _, t := range c.Threads {
				files := int64(t)
				groups := int64(len(c.Methods)) // a file per method
				if c.Order == Interleaved {
					groups = 1 // the methods share one file
				}
				round, err := units.Mul(per, files)
				if err != nil {
					return 0, err
				}
				most = max(most, round)
				if all, err = units.Of(round).Mul(groups, int64(c.Rounds)).Add(all).Result(); err != nil {
					return 0, err
				}
			}
		}
	}
	if keep {
		return all, nil
	}
	return most, nil
}
