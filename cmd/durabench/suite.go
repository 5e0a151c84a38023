package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/sqlitebench"
	"github.com/durabench/durabench/syncbench"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
	"github.com/durabench/durabench/walbench"
)

const suiteSynopsis = `suite [--dir DIR] [--out DIR]

A quick tour of the disk under --dir (default: the current directory) in
seconds: the environment; every sync method this OS has for 4 KiB and
64 KiB overwrites and appends; a write-ahead log with 1, 8 and 64 writers
sharing syncs; and SQLite commits for every engine this build has, in DELETE
and WAL mode at synchronous NORMAL and FULL. Each part is a short run of the
corresponding command; run those for figures worth quoting (more rounds and
more commits).`

const suiteExamples = `  durabench suite                      # the current directory
  durabench suite --dir /data --out results/quick`

// suitePart is one section of the quick suite: a title and its measurement.
type suitePart struct {
	title string
	run   measurement
}

// suiteParts is the quick suite, in order.
var suiteParts = []suitePart{
	{"Sync methods (durabench sync)", quickSync},
	{"Write-ahead log and group commit (durabench wal)", quickWAL},
	{"SQLite commits (durabench sqlite)", quickSQLite},
}

func runSuite(args []string) error {
	fs := newFlags("suite", suiteSynopsis, suiteExamples)
	var o outputFlags
	addOutputFlags(fs, &o)
	fs.Lookup("dir").DefValue = "."
	o.dir = "."
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	if err := o.validate(); err != nil {
		return err
	}
	if err := checkSpace(o.dir, suiteDiskNeeded(o.keep), "the suite's largest part"); err != nil {
		return err
	}
	return measure(&o, "suite", func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		var recs []results.Record
		var parts []func(io.Writer) error
		for _, p := range suiteParts {
			fmt.Fprintf(os.Stderr, "durabench suite: %s\n", p.title)
			r, report, err := p.run(run, env)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", p.title, err)
			}
			recs = append(recs, r...)
			title := p.title
			parts = append(parts, func(w io.Writer) error {
				fmt.Fprintf(w, "== %s\n\n", title)
				return report(w)
			})
		}
		return recs, reports(parts...), nil
	})
}

// quickSync is a short durabench sync: every method, 4K and 64K, overwrite
// and append.
func quickSync(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	cfg := quickSyncConfig()
	res, err := syncbench.Run(run, cfg, nil)
	if err != nil {
		return nil, nil, err
	}
	return syncbench.Records(res, nil, env.ID), func(w io.Writer) error { return syncbench.Report(w, cfg, res, nil) }, nil
}

// quickSyncConfig is the configuration of quickSync.
func quickSyncConfig() syncbench.Config {
	return syncbench.Config{
		Workloads:  []syncbench.Workload{syncbench.Overwrite, syncbench.Append},
		BlockSizes: []int64{4 << 10, 64 << 10},
		Methods:    syscalls.Methods(),
		Iterations: 300, Warmup: 30, Rounds: 3,
		FileSize: 64 << 20, SyncEvery: 1, Threads: []int{1},
	}
}

// quickWAL is a short durabench wal: 4 KiB records in initialized segments,
// buffered, fdatasync where the OS has it (else fsync), 1, 8 and 64 writers.
func quickWAL(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	cfg := quickWALConfig()
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	res, err := walbench.Run(run, cfg, nil)
	if err != nil {
		return nil, nil, err
	}
	return walbench.Records(res, nil, env.ID), func(w io.Writer) error { return walbench.Report(w, cfg, res, nil) }, nil
}

// quickWALConfig is the configuration of quickWAL.
func quickWALConfig() walbench.Config {
	method := syscalls.Fsync
	if syscalls.Fdatasync.Available() {
		method = syscalls.Fdatasync
	}
	return walbench.Config{
		Layouts:    []fixtures.State{fixtures.Initialized},
		BlockSizes: []int64{4 << 10},
		IOModes:    []wal.IOMode{wal.Buffered},
		Methods:    []syscalls.Method{method},
		Iterations: 3200, Warmup: 320, Rounds: 2,
		FileSize: 16 << 20, SyncEvery: 1, Writers: []int{1, 8, 64},
	}
}

// quickSQLite is a short durabench sqlite: every engine this build has,
// DELETE and WAL at NORMAL and FULL, fullfsync off.
func quickSQLite(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	sel, err := sqlitebench.SelectEngines(nil, "")
	if err != nil {
		return nil, nil, err
	}
	cfg := quickSQLiteConfig(sel)
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	out, err := sqlitebench.Run(run, cfg, nil)
	if err != nil {
		return nil, nil, err
	}
	return sqlitebench.Records(cfg, out, env.ID), func(w io.Writer) error { return sqlitebench.Report(w, cfg, out) }, nil
}

// quickSQLiteConfig is the configuration of quickSQLite, with the engines
// selected.
func quickSQLiteConfig(sel sqlitebench.Selection) sqlitebench.Config {
	return sqlitebench.Config{
		Engines: sel.Names, Skipped: sel.Skipped,
		JournalModes:        []string{"delete", "wal"},
		Synchronous:         []string{"normal", "full"},
		FullFsync:           []string{"0"},
		CheckpointFullFsync: []string{sqlitebench.CheckpointDefault},
		Commits:             300, Warmup: 30, Rounds: 1, RowsPerCommit: 1, RowBytes: 100,
	}
}

// suiteDiskNeeded is the most the suite holds on disk at once: its parts
// run one after the other, each removing its files as it goes (or, with
// keep, all of them together).
func suiteDiskNeeded(keep bool) int64 {
	needs := []int64{quickSyncConfig().DiskNeeded(keep), quickWALConfig().DiskNeeded(keep)}
	if sel, err := sqlitebench.SelectEngines(nil, ""); err == nil {
		needs = append(needs, quickSQLiteConfig(sel).DiskNeeded(keep))
	}
	if !keep {
		return slices.Max(needs)
	}
	total, err := units.Add(needs...)
	if err != nil {
		return math.MaxInt64
	}
	return total
}
