package walbench

import (
	"fmt"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/wal"
)

// Invariants: the figures derived from the configuration (bytes per log,
// segment sizes, samples, bytes on disk) are computed with units' checked
// arithmetic in checkLimits, which Validate calls before any other check
// uses them; capacityNeeded, SegmentSize and DiskNeeded saturate at
// math.MaxInt64 rather than wrap, so no comparison can pass by overflow.

// checkLimits refuses a configuration whose figures overflow or whose
// sample buffers would pass measure.MaxBufferBytes, with the true figure.
func (c Config) checkLimits() error {
	for _, bs := range c.BlockSizes {
		if bs <= 0 {
			return fmt.Errorf("%w: block size %d: must be positive", ErrConfig, bs)
		}
		for _, w := range c.Writers {
			// A payload per writer and the log's own aligned buffer.
			need, err := units.Of(bs).Mul(int64(w) + 1).Result()
			if err == nil && need > measure.MaxBufferBytes {
				err = fmt.Errorf("%d buffers of %s = %s, more than the %s a run may preallocate", w+1, units.FormatSize(bs), units.Human(need), units.Human(measure.MaxBufferBytes))
			}
			if err != nil {
				return fmt.Errorf("%w: record buffers: %w; use smaller records or fewer writers", ErrConfig, err)
			}
		}
		if _, err := c.checkedCapacity(bs); err != nil {
			return fmt.Errorf("%w: bytes of one log at block size %s (warm-up and measured records): %w", ErrConfig, units.FormatSize(bs), err)
		}
	}
	cases := int64(len(c.Layouts) * len(c.BlockSizes) * len(c.IOModes) * len(c.Methods) * len(c.Writers))
	samples, err := units.Mul(cases, int64(c.Rounds), int64(c.Iterations/c.SyncEvery))
	if err != nil {
		return fmt.Errorf("%w: samples to keep: %w", ErrConfig, err)
	}
	if err := measure.CheckBuffers(samples); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if _, err := c.diskNeeded(true); err != nil {
		return fmt.Errorf("%w: bytes on disk: %w", ErrConfig, err)
	}
	return nil
}

// checkedCapacity is capacityNeeded with checked arithmetic.
func (c Config) checkedCapacity(bs int64) (int64, error) {
	need, err := units.Of(int64(c.Warmup)).Add(int64(c.Iterations)).Mul(bs).Result()
	if err != nil {
		return 0, err
	}
	if c.hasDirect() || c.FileSize == 0 {
		// Rounded up to the alignment: by direct I/O's padding, or to size
		// a sweep's segment.
		if _, err := units.Add(need, wal.DefaultAlignment); err != nil {
			return 0, err
		}
	}
	return need, nil
}

func (c Config) diskNeeded(keep bool) (int64, error) {
	var most, all int64
	for _, cs := range c.cases() {
		need, err := c.checkedCapacity(cs.BlockSize)
		if err != nil {
			return 0, err
		}
		if c.hasDirect() {
			need = roundUp64(need, wal.DefaultAlignment)
		}
		if cs.Layout.FixedSize() {
			need = cs.SegmentSize
		}
		most = max(most, need)
		if all, err = units.Of(need).Mul(int64(c.Rounds)).Add(all).Result(); err != nil {
			return 0, err
		}
	}
	if keep {
		return all, nil
	}
	return most, nil
}
