package walbench

import (
	"errors"
	"fmt"
	"math"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/wal"
)

// Config is one durabench wal run. Every case of the cross product of
// layouts, block sizes, I/O modes, methods and writer counts runs once per
// round, in a log of its own.
type Config struct {
	Layouts []fixtures.State
	// BlockSizes are record sizes on disk: each record is one block, a
	// 24-byte header and the rest payload, so that a 16K record is a 16 KiB
	// write, as in the Linux Rust WAL benchmark. Multiples of 8, at least 40 bytes.
	BlockSizes []int64
	IOModes    []wal.IOMode
	Methods    []syscalls.Method
	Iterations int // measured records per case and round, over all writers
	Warmup     int // unmeasured records before them, in the same log
	Rounds     int
	// FileSize is the segment size. 0 sizes the segment per block size to
	// hold the warm-up and measured records exactly, rounded up to the
	// alignment (the size sweep): the Linux Rust WAL benchmark's
	// (iterations + warmup) × size, identical across methods and I/O modes.
	FileSize int64
	// SyncEvery is the records one writer writes per sync; the batch is one
	// sample. Only with a single writer.
	SyncEvery int
	// Writers are the writer counts: that many goroutines append
	// concurrently, each its share of the records, and share syncs.
	Writers []int

	// Marks, if set, is told where each round's timed commits start and
	// end, just outside the timed interval. Only counting passes set it.
	Marks syscount.Marker `json:"-"`
}

// minBlock is the smallest record: the header and the 16 bytes stamped in
// every payload for the read-back.
const minBlock = wal.HeaderSize + stampSize

// maxWriters bounds the writer counts.
const maxWriters = 1024

// ErrConfig is wrapped by every error Validate returns.
var ErrConfig = errors.New("invalid configuration")

// Validate checks everything that can be checked before a file is made,
// and says what to change. Its errors are *runner.ConfigError values
// naming the fields at fault.
func (c Config) Validate() error {
	bad := func(fields, format string, args ...any) error {
		return runner.Refuse(ErrConfig, fields, format, args...)
	}
	switch {
	case len(c.Layouts) == 0:
		return bad("Layouts", "no layout: use append, fallocate or initialized")
	case len(c.BlockSizes) == 0:
		return bad("BlockSizes", "no block size")
	case len(c.IOModes) == 0:
		return bad("IOModes", "no I/O mode: use buffered or direct")
	case len(c.Methods) == 0:
		return bad("Methods", "no sync method")
	case len(c.Writers) == 0:
		return bad("Writers", "no writer count")
	case c.Iterations < 1:
		return bad("Iterations", "%d measured records: need at least one", c.Iterations)
	case c.Warmup < 0:
		return bad("Warmup", "%d warm-up records: must be 0 or more", c.Warmup)
	case c.Rounds < 1:
		return bad("Rounds", "%d rounds: need at least one", c.Rounds)
	case c.SyncEvery < 1:
		return bad("SyncEvery", "%d records per sync: need at least one", c.SyncEvery)
	case c.FileSize < 0:
		return bad("FileSize", "segment size %d is negative", c.FileSize)
	}
	if err := c.checkLimits(); err != nil {
		return err
	}
	for _, m := range c.Methods {
		if !m.SyncsExplicitly() {
			return bad("Methods", "sync method %s: the log writer makes its own sync call after each group; use fsync or fdatasync (on darwin also barrier or full)", m)
		}
	}
	for _, w := range c.Writers {
		switch {
		case w < 1 || w > maxWriters:
			return bad("Writers", "%d writers: use 1 to %d", w, maxWriters)
		case w > 1 && c.SyncEvery > 1:
			return bad("SyncEvery,Writers", "%d records per sync batch one writer's records, and %d writers share syncs by themselves: use one or the other", c.SyncEvery, w)
		case w > c.Iterations:
			return bad("Writers,Iterations", "%d writers is more than %d measured records: every writer needs a measured record", w, c.Iterations)
		}
	}
	if c.Iterations%c.SyncEvery != 0 || c.Warmup%c.SyncEvery != 0 {
		return bad("Iterations,Warmup,SyncEvery", "%d measured and %d warm-up records must be multiples of %d records per sync: each sample is a whole batch", c.Iterations, c.Warmup, c.SyncEvery)
	}
	for _, bs := range c.BlockSizes {
		if err := c.checkBlock(bs); err != nil {
			return err
		}
	}
	return nil
}

// checkBlock checks one block size against the framing and the segments.
func (c Config) checkBlock(bs int64) error {
	bad := func(fields, format string, args ...any) error {
		return runner.Refuse(ErrConfig, fields, format, args...)
	}
	size := units.FormatSize(bs)
	if bs < minBlock || bs%wal.FrameAlign != 0 {
		return bad("BlockSizes", "block size %s: a record is one block of a %d-byte header and its payload, framed on %d bytes; use a multiple of %d of at least %d",
			size, wal.HeaderSize, wal.FrameAlign, wal.FrameAlign, minBlock)
	}
	if c.FileSize == 0 {
		return nil
	}
	if c.hasDirect() && c.FileSize%wal.DefaultAlignment != 0 {
		return bad("FileSize", "segment size %d is not a multiple of %d, the direct-I/O alignment, so the last block would pass it: use %s",
			c.FileSize, wal.DefaultAlignment, units.FormatSize(roundDown(c.FileSize, wal.DefaultAlignment)))
	}
	if bs > c.FileSize {
		return bad("BlockSizes,FileSize", "block size %s does not fit in a segment of %s: raise the segment size", size, units.FormatSize(c.FileSize))
	}
	for _, l := range c.Layouts {
		if need := c.capacityNeeded(bs); l.FixedSize() && need > c.FileSize {
			return bad("FileSize", "%s at %s needs %s for %d warm-up + %d measured records (%d records of %d bytes, headers included%s), more than the segment size %s: %s segments never grow or wrap; raise the segment size to %s or write fewer records",
				l, size, units.FormatSize(need), c.Warmup, c.Iterations, c.Warmup+c.Iterations, bs, c.paddingNote(),
				units.FormatSize(c.FileSize), l, units.FormatSize(roundUp64(need, 1<<20)))
		}
	}
	return nil
}

// capacityNeeded is the bytes one round's records take in a segment: whole
// records, rounded up to the alignment when direct I/O pads the last block.
func (c Config) capacityNeeded(bs int64) int64 {
	need := units.Saturate(c.checkedCapacity(bs))
	if c.hasDirect() && need != math.MaxInt64 {
		need = roundUp64(need, wal.DefaultAlignment)
	}
	return need
}

// SegmentSize returns the segment size for a block size: FileSize, or the
// exact capacity of the size sweep.
func (c Config) SegmentSize(bs int64) int64 {
	if c.FileSize > 0 {
		return c.FileSize
	}
	need := units.Saturate(c.checkedCapacity(bs))
	if need == math.MaxInt64 {
		return need
	}
	return roundUp64(need, wal.DefaultAlignment)
}

// DiskNeeded returns the most bytes the run holds on disk at once: one
// case-round's log, the largest, since each is removed when read back; or,
// when the run keeps its files, every case-round's log. Validate checks that
// it fits in an int64.
func (c Config) DiskNeeded(keep bool) int64 { return units.Saturate(c.diskNeeded(keep)) }

func (c Config) hasDirect() bool {
	for _, m := range c.IOModes {
		if m == wal.Direct {
			return true
		}
	}
	return false
}

func (c Config) paddingNote() string {
	if c.hasDirect() {
		return fmt.Sprintf(", the last direct write padded to %d", wal.DefaultAlignment)
	}
	return ""
}

// ParseIOModes parses a comma-separated list of I/O modes.
func ParseIOModes(csv string) ([]wal.IOMode, error) {
	return runner.ParseList(csv, "I/O mode", "use buffered, direct or both", wal.ParseIOMode)
}

// ParseLayouts parses a comma-separated list of segment layouts.
func ParseLayouts(csv string) ([]fixtures.State, error) {
	return runner.ParseList(csv, "layout", "use append, fallocate, initialized", fixtures.ParseState)
}

func roundUp64(n, gran int64) int64 { return (n + gran - 1) / gran * gran }
func roundDown(n, gran int64) int64 { return n / gran * gran }
