package walbench

// The counting passes (durabench wal --count-syscalls). Invariants:
//   - Counting never shares a run with timing: each layout, size, I/O mode
//     and method runs once more, in a child process traced with ptrace,
//     after the timing passes, and only counts come out of it.
//   - The child runs the same round as a timing pass (new log, warm-up,
//     records, close, read-back); the counting window holds only the timed
//     commits (Config.Marks), so opening the log, the warm-up and the
//     read-back are outside the counts.
//   - A counting pass runs one writer. Which calls a commit makes does not
//     depend on the writer count; how many commits share a sync does, and
//     under a tracer, which stops every call, groups grow, so the traced
//     figure would not be the timed one. The writer counts its own syncs
//     (Metrics.Syncs, records_per_sync in the timed pass), and the one-writer
//     count checks that it counts what reaches the kernel.
//   - Segments are attributed by name (trace.ClassWAL), directories as
//     directories: a directory sync comes from a rotation.

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/wal"
)

// maxCountRecords caps the records of a counting pass: counts per commit do
// not need thousands, and tracing slows every call.
const maxCountRecords = 500

// Count is one counting pass: what one writer's timed commits made reach
// the kernel and the device. Its Case has one writer.
type Count struct {
	Case
	syscount.Result
}

// Counter counts one case of a Config in a traced child (see
// syscount.Counter).
type Counter = syscount.Counter[Config]

// CountConfig is the configuration of the counting pass for one writer in
// case c's layout, block size, I/O mode and method: one round, the run's
// warm-up and batch size, its segment size for that block size, and at most
// maxCountRecords measured records in whole batches.
func CountConfig(cfg Config, c Case) Config {
	cc := cfg
	cc.Layouts, cc.BlockSizes, cc.IOModes, cc.Methods = []fixtures.State{c.Layout}, []int64{c.BlockSize}, []wal.IOMode{c.IOMode}, []syscalls.Method{c.Method}
	cc.Writers, cc.Rounds, cc.Marks = []int{1}, 1, nil
	cc.FileSize = cfg.SegmentSize(c.BlockSize)
	cc.Iterations = syscount.CapOps(cfg.Iterations, maxCountRecords, cfg.SyncEvery)
	return cc
}

// SegmentClassifier attributes a log's files: segments (by their names) are
// trace.ClassWAL, directories trace.ClassDirectory, anything else
// trace.ClassOther.
func SegmentClassifier(path string, isDir bool) trace.Class {
	switch {
	case isDir:
		return trace.ClassDirectory
	case wal.IsSegmentName(filepath.Base(path)):
		return trace.ClassWAL
	}
	return trace.ClassOther
}

// CountAll runs a counting pass with one writer for every layout, block
// size, I/O mode and method of cfg.
func CountAll(cfg Config, counter Counter, progress func(string)) ([]Count, error) {
	progress = runner.Quiet(progress)
	var out []Count
	for _, c := range cfg.cases() {
		c.Writers = 1
		if slices.ContainsFunc(out, func(o Count) bool { return o.Case == c }) {
			continue
		}
		progress("counting syscalls (traced, not timed, one writer): " + c.Name())
		r, err := counter(CountConfig(cfg, c), SegmentClassifier)
		if err != nil {
			return nil, fmt.Errorf("walbench: counting %s: %w", c.Name(), err)
		}
		out = append(out, Count{Case: c, Result: r})
	}
	return out, nil
}

// Writes returns the write calls per commit on the log's segments.
func (c Count) Writes() float64 { return c.PerOpOn(trace.ClassWAL, syscount.WriteCalls...) }

// WriteBytes returns the bytes written per commit to the log's segments.
func (c Count) WriteBytes() float64 { return c.BytesPerOpOn(trace.ClassWAL) }

// DirSyncs returns the sync calls per commit on directories.
func (c Count) DirSyncs() float64 { return c.PerOpOn(trace.ClassDirectory, syscount.SyncCalls...) }

// syncColumns are the sync calls the count table shows: fsync and
// fdatasync always, darwin's fcntl syncs on darwin or when a count has
// them.
func syncColumns(counts []Count, goos string) []string {
	var cols []string
	for _, name := range syscount.SyncCalls {
		show := name == "fsync" || name == "fdatasync" || goos == "darwin"
		for _, c := range counts {
			show = show || c.Counts.Total(name) > 0
		}
		if show {
			cols = append(cols, name)
		}
	}
	return cols
}

// CountReport writes the counting passes as a table: per layout, size, I/O
// mode and method, the write calls and bytes, the sync calls by kind, the
// directory syncs and the device's flushes, per commit of one writer.
func CountReport(w io.Writer, cfg Config, counts []Count) error {
	return countReport(w, cfg, counts, runtime.GOOS)
}

// countReport is CountReport for a run on goos.
func countReport(w io.Writer, cfg Config, counts []Count, goos string) error {
	if len(counts) == 0 {
		return nil
	}
	cols := syncColumns(counts, goos)
	headers := []string{"layout", "size", "io", "method", "writes", "bytes written"}
	for _, name := range cols {
		headers = append(headers, syscount.ColumnName(name))
	}
	headers = append(headers, "directory syncs", "device flushes")
	t := results.NewTable(headers...)
	commit := "commit"
	if cfg.SyncEvery > 1 {
		commit = fmt.Sprintf("commit (%d records and one sync)", cfg.SyncEvery)
	}
	t.Title = fmt.Sprintf("System calls per %s of one writer, from a separate traced pass of %d records per case (counts only; the timing passes above were never traced)",
		commit, counts[0].Ops*cfg.SyncEvery)
	for _, c := range counts {
		row := []string{c.Layout.String(), units.FormatSize(c.BlockSize), c.IOMode.String(), c.Method.String(),
			syscount.FormatPerOp(c.Writes()), syscount.FormatPerOp(c.WriteBytes())}
		for _, name := range cols {
			row = append(row, syscount.FormatPerOp(c.PerOp(name)))
		}
		t.AddRow(append(row, syscount.FormatPerOp(c.DirSyncs()), c.FlushesText())...)
	}
	if err := t.Render(w); err != nil {
		return err
	}
	fmt.Fprintln(w, "(Writes and bytes are those to the log's segments. Only append segments rotate here, as a fixed layout must hold a whole round: a rotation creates the next segment and fsyncs it and its directory.)")
	if len(cfg.Writers) > 1 || cfg.Writers[0] > 1 {
		fmt.Fprintln(w, "(Counted with one writer: the calls a commit makes do not depend on the writer count. With several writers commits share syncs, and syncs per commit is 1 / records/sync in the throughput table: the writer counts its own syncs while timed, as tracing would slow every call and grow the groups.)")
	}
	fmt.Fprintln(w, syscount.FlushesFootnote("commits"))
	return nil
}

// CountWarnings says where the device saw something other than what the
// method promises: a method that promises stable storage and sent no
// flush.
func CountWarnings(counts []Count) []string {
	var out []string
	for _, c := range counts {
		if c.Method.Promise() != syscalls.PromiseStable {
			continue
		}
		name := fmt.Sprintf("%s %s %s %s promises stable storage", c.Layout, units.FormatSize(c.BlockSize), c.IOMode, c.Method)
		if w := c.FlushMismatch(name, "", "commit"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// countMetrics returns the metrics a one-writer case's pooled record
// carries from its counting pass, named as durabench sync names its own.
func countMetrics(c Count) map[string]float64 {
	m := c.Metrics(syscount.SyncCalls)
	m["writes_per_op"] = c.Writes()
	m["write_bytes_per_op"] = c.WriteBytes()
	m["syncs_per_op.directory"] = c.DirSyncs()
	return m
}
