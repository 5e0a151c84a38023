package sqlitebench

import (
	"fmt"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
)

// Invariants: the figures derived from the configuration (rows, samples,
// payload buffers, bytes on disk) are computed with units' checked
// arithmetic in checkLimits, which Validate calls, and refused with the true
// figure when they would pass math.MaxInt64 or the memory a run may
// preallocate.

// dbOverhead is what an estimate of a database's size adds to its rows: the
// schema, the pages' slack and a journal or WAL as large as a commit.
const (
	dbOverhead  = 1 << 20
	rowOverhead = 64 // per row: its record header, rowid and b-tree cell
)

// checkLimits refuses a configuration whose figures overflow or whose
// buffers would pass measure.MaxBufferBytes.
func (c Config) checkLimits() error {
	cases := int64(len(c.Engines) * len(c.JournalModes) * len(c.Synchronous) * len(c.FullFsync) * len(c.CheckpointFullFsync))
	samples, err := units.Mul(cases, int64(c.Rounds), int64(c.Commits))
	if err != nil {
		return fmt.Errorf("sqlitebench: %w: samples to keep: %w", ErrConfig, err)
	}
	if err := measure.CheckBuffers(samples); err != nil {
		return fmt.Errorf("sqlitebench: %w: %w", ErrConfig, err)
	}
	payloads, err := units.Mul(cases, int64(c.RowBytes))
	if err == nil && payloads > measure.MaxBufferBytes {
		err = fmt.Errorf("%d cases × %d bytes = %s, more than the %s a run may preallocate; use smaller rows or fewer cases",
			cases, c.RowBytes, units.Human(payloads), units.Human(measure.MaxBufferBytes))
	}
	if err != nil {
		return fmt.Errorf("sqlitebench: %w: row payload buffers (one per case): %w", ErrConfig, err)
	}
	if _, err := c.diskNeeded(true); err != nil {
		return fmt.Errorf("sqlitebench: %w: bytes on disk: %w", ErrConfig, err)
	}
	return nil
}

// dbBytes estimates one case-round's database: its rows, with their
// overhead, and a fixed allowance for the schema and a journal.
func (c Config) dbBytes() (int64, error) {
	row, err := units.Add(int64(c.RowBytes), rowOverhead)
	if err != nil {
		return 0, err
	}
	return units.Of(int64(c.Warmup)).Add(int64(c.Commits)).Mul(int64(c.RowsPerCommit), row).Add(dbOverhead).Result()
}

// DiskNeeded estimates the most bytes the run holds on disk at once: one
// database (each is removed when its round ends), or every case-round's
// when the run keeps its files. Validate checks that it fits in an int64.
func (c Config) DiskNeeded(keep bool) int64 { return units.Saturate(c.diskNeeded(keep)) }

func (c Config) diskNeeded(keep bool) (int64, error) {
	one, err := c.dbBytes()
	if err != nil || !keep {
		return one, err
	}
	cases := int64(len(c.Engines) * len(c.JournalModes) * len(c.Synchronous) * len(c.FullFsync) * len(c.CheckpointFullFsync))
	return units.Mul(one, cases, int64(c.Rounds))
}
