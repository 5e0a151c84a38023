package walbench

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/durabench/durabench/wal"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscount"
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

// maxWriters bounds --writers.
const maxWriters = 1024

// ErrConfig is wrapped by every error Validate returns.
var ErrConfig = errors.New("invalid configuration")

// Validate checks everything that can be checked before a file is made,
// and says what to change.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	switch {
	case len(c.Layouts) == 0:
		return bad("no layout: use append, fallocate or initialized")
	case len(c.BlockSizes) == 0:
		return bad("no block size")
	case len(c.IOModes) == 0:
		return bad("no I/O mode: use buffered or direct")
	case len(c.Methods) == 0:
		return bad("no sync method")
	case len(c.Writers) == 0:
		return bad("no writer count")
	case c.Iterations < 1:
		return bad("--iterations %d: need at least one measured record", c.Iterations)
	case c.Warmup < 0:
		return bad("--warmup %d: must be 0 or more", c.Warmup)
	case c.Rounds < 1:
		return bad("--rounds %d: need at least one round", c.Rounds)
	case c.SyncEvery < 1:
		return bad("--sync-every %d: need at least one record per sync", c.SyncEvery)
	case c.FileSize < 0:
		return bad("--file-size %d is negative", c.FileSize)
	}
	if err := c.checkLimits(); err != nil {
		return err
	}
	for _, m := range c.Methods {
		if !m.SyncsExplicitly() {
			return bad("--methods %s: the log writer makes its own sync call after each group; use fsync or fdatasync (on darwin also barrier or full)", m)
		}
	}
	for _, w := range c.Writers {
		switch {
		case w < 1 || w > maxWriters:
			return bad("--writers %d: use 1 to %d", w, maxWriters)
		case w > 1 && c.SyncEvery > 1:
			return bad("--sync-every %d batches one writer's records, and --writers %d share syncs by themselves: use one or the other", c.SyncEvery, w)
		case w > c.Iterations:
			return bad("--writers %d is more than --iterations %d: every writer needs a measured record", w, c.Iterations)
		}
	}
	if c.Iterations%c.SyncEvery != 0 || c.Warmup%c.SyncEvery != 0 {
		return bad("--iterations %d and --warmup %d must be multiples of --sync-every %d: each sample is a whole batch", c.Iterations, c.Warmup, c.SyncEvery)
	}
	for _, bs := range c.BlockSizes {
		if err := c.checkBlock(bs); err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	return nil
}

// checkBlock checks one block size against the framing and the segments.
func (c Config) checkBlock(bs int64) error {
	size := units.FormatSize(bs)
	if bs < minBlock || bs%wal.FrameAlign != 0 {
		return fmt.Errorf("block size %s: a record is one block of a %d-byte header and its payload, framed on %d bytes; use a multiple of %d of at least %d",
			size, wal.HeaderSize, wal.FrameAlign, wal.FrameAlign, minBlock)
	}
	if c.FileSize == 0 {
		return nil
	}
	if c.hasDirect() && c.FileSize%wal.DefaultAlignment != 0 {
		return fmt.Errorf("--file-size %d is not a multiple of %d, the direct-I/O alignment, so the last block would pass it: use %s",
			c.FileSize, wal.DefaultAlignment, units.FormatSize(roundDown(c.FileSize, wal.DefaultAlignment)))
	}
	if bs > c.FileSize {
		return fmt.Errorf("block size %s does not fit in --file-size %s: raise --file-size", size, units.FormatSize(c.FileSize))
	}
	for _, l := range c.Layouts {
		if need := c.capacityNeeded(bs); l.FixedSize() && need > c.FileSize {
			return fmt.Errorf("%s at %s needs %s for --warmup %d + --iterations %d (%d records of %d bytes, headers included%s), more than --file-size %s: %s segments never grow or wrap; raise --file-size to %s or write fewer records",
				l, size, units.FormatSize(need), c.Warmup, c.Iterations, c.Warmup+c.Iterations, bs, c.paddingNote(),
				units.FormatSize(c.FileSize), l, units.FormatSize(roundUp64(need, 1<<20)))
		}
	}
	return nil
}

// capacityNeeded is the bytes one round's records take in a segment: whole
// records, rounded up to the alignment when direct I/O pads the last block.
func (c Config) capacityNeeded(bs int64) int64 {
	need := saturate(c.checkedCapacity(bs))
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
	need := saturate(c.checkedCapacity(bs))
	if need == math.MaxInt64 {
		return need
	}
	return roundUp64(need, wal.DefaultAlignment)
}

// DiskNeeded returns the most bytes the run holds on disk at once: one
// case-round's log, the largest, since each is removed when read back; or,
// when the run keeps its files, every case-round's log. Validate checks that
// it fits in an int64.
func (c Config) DiskNeeded(keep bool) int64 { return saturate(c.diskNeeded(keep)) }

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
	var out []wal.IOMode
	for _, part := range strings.Split(csv, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		m, err := wal.ParseIOMode(part)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no I/O mode in %q: use buffered, direct or both", csv)
	}
	return out, nil
}

// ParseLayouts parses a comma-separated list of segment layouts.
func ParseLayouts(csv string) ([]fixtures.State, error) {
	var out []fixtures.State
	for _, part := range strings.Split(csv, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		l, err := fixtures.ParseState(part)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no layout in %q: use append, fallocate, initialized", csv)
	}
	return out, nil
}

func roundUp64(n, gran int64) int64 { return (n + gran - 1) / gran * gran }
func roundDown(n, gran int64) int64 { return n / gran * gran }
