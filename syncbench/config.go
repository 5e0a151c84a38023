// Package syncbench times write + sync for every sync method the OS has, over
// file states, write sizes, interleavings and thread counts: durabench sync.
package syncbench

import (
	"errors"
	"fmt"
	"strings"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscount"
)

// Workload is what each write does to the file.
type Workload uint8

// The workloads. Each starts from a fixtures state prepared outside the timed
// interval.
const (
	// Append writes past EOF of an empty file: allocation and size changes
	// on every write.
	Append Workload = iota
	// Fallocate writes into reserved, unwritten extents: EOF is fixed and
	// each first write converts an extent. It never wraps.
	Fallocate
	// Overwrite rewrites an initialized file from its start, wrapping at
	// the file size: no allocation at all.
	Overwrite
)

var workloadNames = []string{Append: "append", Fallocate: "fallocate", Overwrite: "overwrite"}

// String returns the workload's flag name.
func (w Workload) String() string { return workloadNames[w] }

// State is the file state the workload starts from.
func (w Workload) State() fixtures.State {
	switch w {
	case Fallocate:
		return fixtures.Fallocate
	case Overwrite:
		return fixtures.Initialized
	}
	return fixtures.Append
}

// ParseWorkload parses one workload name, in any case.
func ParseWorkload(s string) (Workload, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for i, n := range workloadNames {
		if n == name {
			return Workload(i), nil
		}
	}
	return 0, fmt.Errorf("workload %q: use one of %s", s, strings.Join(workloadNames, ", "))
}

// ParseWorkloads parses a comma-separated list of workload names.
func ParseWorkloads(csv string) ([]Workload, error) {
	return runner.ParseList(csv, "workload", "use one or more of "+strings.Join(workloadNames, ", "), ParseWorkload)
}

// Order is how the methods of one case take turns.
type Order uint8

const (
	// Sequential runs each method's samples in a file of its own.
	Sequential Order = iota
	// Interleaved runs the methods round-robin on one file, one write +
	// sync each, so each sees the after-effects of the others.
	Interleaved
)

// String returns the order's flag name.
func (o Order) String() string {
	if o == Interleaved {
		return "interleaved"
	}
	return "sequential"
}

// ParseOrder parses "sequential" or "interleaved".
func ParseOrder(s string) (Order, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "sequential":
		return Sequential, nil
	case "interleaved":
		return Interleaved, nil
	}
	return 0, fmt.Errorf("order %q: use sequential or interleaved", s)
}

// Config is one durabench sync run.
type Config struct {
	Workloads  []Workload
	BlockSizes []int64
	Methods    []syscalls.Method
	Iterations int // measured writes per case and round
	// MaxCaseBytes, if positive, caps the measured writes of a case in a
	// round at MaxCaseBytes / block size (whole batches, at least one), so
	// that large writes do not take hours: the macOS sync-method table ran
	// 250 rather than 1,000 writes for its 1 MiB rows.
	MaxCaseBytes int64
	Warmup       int   // unmeasured writes before them, in the same file
	Rounds       int   // repetitions of every case; percentiles pool them
	FileSize     int64 // size of fallocate and overwrite files
	SyncEvery    int   // writes per sync; the batch is one sample
	Order        Order
	Threads      []int // thread counts; each thread syncs its own file
	Staircase    bool  // add the 1 ms staircase analysis
	Histogram    bool  // add each case's latency histogram
	// Marks, if set, is told when each measured stretch starts and ends
	// (outside the timed interval). Only counting passes set it; it needs a
	// single thread.
	Marks syscount.Marker `json:"-"`
}

// ErrConfig is wrapped by every error Validate returns.
var ErrConfig = errors.New("invalid configuration")

// Validate checks everything that can be checked before a file is touched.
// Its errors are *runner.ConfigError values naming the fields at fault.
func (c Config) Validate() error {
	bad := func(fields, format string, args ...any) error {
		return runner.Refuse(ErrConfig, fields, format, args...)
	}
	switch {
	case len(c.Workloads) == 0:
		return bad("Workloads", "no workload")
	case len(c.BlockSizes) == 0:
		return bad("BlockSizes", "no block size")
	case len(c.Methods) == 0:
		return bad("Methods", "no sync method")
	case c.Iterations < 1:
		return bad("Iterations", "%d measured writes: need at least one", c.Iterations)
	case c.Warmup < 0:
		return bad("Warmup", "%d warm-up writes: must be 0 or more", c.Warmup)
	case c.Rounds < 1:
		return bad("Rounds", "%d rounds: need at least one", c.Rounds)
	case c.SyncEvery < 1:
		return bad("SyncEvery", "%d writes per sync: need at least one", c.SyncEvery)
	case c.Iterations%c.SyncEvery != 0:
		return bad("Iterations,SyncEvery", "%d measured writes is not a multiple of %d writes per sync: each sample is a whole batch", c.Iterations, c.SyncEvery)
	case c.Warmup%c.SyncEvery != 0:
		return bad("Warmup,SyncEvery", "%d warm-up writes is not a multiple of %d writes per sync: each warm-up sample is a whole batch", c.Warmup, c.SyncEvery)
	case c.MaxCaseBytes < 0:
		return bad("MaxCaseBytes", "a cap of %d bytes per case: must be positive, or 0 for no cap", c.MaxCaseBytes)
	case len(c.Threads) == 0:
		return bad("Threads", "no thread count")
	}
	if err := c.checkLimits(); err != nil {
		return err
	}
	for _, t := range c.Threads {
		if t < 1 || t > 1024 {
			return bad("Threads", "%d threads: use 1 to 1024", t)
		}
		if t > 1 && c.Order == Interleaved {
			return bad("Order,Threads", "the interleaved order runs on one thread, not %d: use one thread or the sequential order", t)
		}
		if t > 1 && c.Marks != nil {
			return bad("Threads", "a counting pass runs on one thread, not %d", t)
		}
	}
	for _, bs := range c.BlockSizes {
		if bs <= 0 {
			return bad("BlockSizes", "block size %d: must be positive", bs)
		}
		for _, w := range c.Workloads {
			if w == Append {
				continue
			}
			if c.FileSize < bs {
				return bad("FileSize", "file size %s is below the block size %s: a %s file must hold at least one write",
					units.FormatSize(c.FileSize), units.FormatSize(bs), w)
			}
			if need := c.capacityNeeded(bs); w == Fallocate && need > c.FileSize {
				return bad("FileSize", "%s at %s needs %s for %d warm-up + %d measured writes%s, more than the file size %s: a fallocated file never grows or wraps; raise the file size to %s or write less",
					w, units.FormatSize(bs), units.FormatSize(need), c.Warmup, c.IterationsFor(bs), c.perFileNote(),
					units.FormatSize(c.FileSize), units.FormatSize(need))
			}
		}
	}
	return nil
}

// IterationsFor returns the measured writes per round of a case with
// block size bs: Iterations, or fewer under MaxCaseBytes.
func (c Config) IterationsFor(bs int64) int {
	n := c.Iterations
	if c.MaxCaseBytes > 0 && int64(n) > c.MaxCaseBytes/bs { // n×bs > cap, without the product
		n = int(c.MaxCaseBytes / bs / int64(c.SyncEvery) * int64(c.SyncEvery))
		n = max(n, c.SyncEvery)
	}
	return n
}

// capacityNeeded is the bytes one file takes in a round; past
// math.MaxInt64 it saturates there (checkLimits has refused such a run with
// the true figure already).
func (c Config) capacityNeeded(bs int64) int64 { return units.Saturate(c.checkedCapacity(bs)) }

func (c Config) perFileNote() string {
	if c.Order == Interleaved {
		return fmt.Sprintf(" for each of %d interleaved methods", len(c.Methods))
	}
	return ""
}
