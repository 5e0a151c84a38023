package main

import (
	"fmt"
	"io"
	"slices"
	"time"

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
sharing syncs; SQLite commits for every engine this build has, in DELETE
and WAL mode at synchronous NORMAL and FULL; and simulated power cuts of the
log (Linux: recorded with ptrace). Each part is a short run of the
corresponding command; run those for figures worth quoting (more rounds and
more commits).`

const suiteExamples = `  durabench suite                      # the current directory
  durabench suite --dir /data --out results/quick`

// suitePart is one section of the quick suite: a title, its measurement
// and its progress steps.
type suitePart struct {
	title, phase string
	run          measurement
	plan         func() plan
}

// suiteParts is the quick suite, in order.
var suiteParts = []suitePart{
	{"Sync methods (durabench sync)", "sync", quickSync, func() plan {
		cfg := quickSyncConfig()
		return plan{cfg.Steps(), cfg.Cases()}
	}},
	{"Write-ahead log and group commit (durabench wal)", "wal", quickWAL, func() plan {
		cfg := quickWALConfig(1, 8, 64)
		return plan{cfg.Steps(), cfg.Cases()}
	}},
	{"SQLite commits (durabench sqlite)", "sqlite", quickSQLite, func() plan {
		cfg, err := quickSQLiteConfig()
		if err != nil {
			return plan{}
		}
		return plan{cfg.Steps(), len(cfg.Engines) + cfg.Cases()}
	}},
	{"Simulated power cuts of the log (durabench crash wal)", "crash", quickCrash, func() plan { return plan{} }},
}

func runSuite(args []string) error {
	fs := newFlags("suite", suiteSynopsis, suiteExamples)
	var o outputFlags
	addOutputFlags(fs, &o)
	fs.Lookup("dir").DefValue = "."
	o.dir = "."
	if err := parseOptions(fs, args); err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	start := time.Now()
	var p plan
	for _, part := range suiteParts {
		p = p.plus(part.plan())
	}
	if err := checkSpace(o.dir, suiteDiskNeeded(o.keep), "the suite's largest part"); err != nil {
		return err
	}
	return measureSteps(&o, "suite", p, func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		var recs []results.Record
		var parts []func(io.Writer) error
		for _, p := range suiteParts {
			meter.Phase(p.phase)
			r, report, err := p.run(run, env)
			if err != nil && !stoppedRun(err) {
				return nil, nil, fmt.Errorf("%s: %w", p.title, err)
			}
			recs = append(recs, r...)
			title := p.title
			if report != nil {
				parts = append(parts, func(w io.Writer) error {
					fmt.Fprintf(w, "== %s\n\n", title)
					return report(w)
				})
			}
			if err != nil { // stopped: keep the parts so far, start no other
				return recs, reports(parts...), err
			}
		}
		took := time.Since(start)
		parts = append(parts, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "The suite took %.1f s.\n", took.Seconds())
			return err
		})
		return recs, reports(parts...), nil
	})
}

// quickSync is a short durabench sync: every method, 4K and 64K, overwrite
// and append.
func quickSync(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	cfg := quickSyncConfig()
	res, err := syncbench.Run(run, cfg, progress)
	if err != nil && !stoppedRun(err) {
		return nil, nil, err
	}
	return syncbench.Records(res, nil, env.ID), func(w io.Writer) error { return syncbench.Report(w, cfg, res, nil) }, err
}

// quickSyncConfig is the suite's sync configuration.
func quickSyncConfig() syncbench.Config {
	return syncbench.Config{
		Workloads:  []syncbench.Workload{syncbench.Overwrite, syncbench.Append},
		BlockSizes: []int64{4 << 10, 64 << 10},
		Methods:    syscalls.Methods(),
		Iterations: 200, Warmup: 20, Rounds: 3, // fewer than sync's defaults: the suite must stay under 90 s on a busy disk
		FileSize: 64 << 20, SyncEvery: 1, Threads: []int{1},
	}
}

// quickWAL is a short durabench wal: quickWALConfig with 1, 8 and 64
// writers.
func quickWAL(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	cfg := quickWALConfig(1, 8, 64)
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	res, err := walbench.Run(run, cfg, progress)
	if err != nil && !stoppedRun(err) {
		return nil, nil, err
	}
	return walbench.Records(res, nil, env.ID), func(w io.Writer) error { return walbench.Report(w, cfg, res, nil) }, err
}

// quickWALConfig is a short group-commit curve, the suite's and advise
// group-commit's: 4 KiB records in initialized segments, buffered,
// fdatasync where the OS has it (else fsync), for the writer counts given.
func quickWALConfig(writers ...int) walbench.Config {
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
		FileSize: 16 << 20, SyncEvery: 1, Writers: writers,
	}
}

// quickSQLite is a short durabench sqlite: every engine this build has,
// DELETE and WAL at NORMAL and FULL, fullfsync off.
func quickSQLite(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	cfg, err := quickSQLiteConfig()
	if err != nil {
		return nil, nil, err
	}
	out, err := sqlitebench.Run(run, cfg, progress)
	if err != nil && !stoppedRun(err) {
		return nil, nil, err
	}
	return sqlitebench.Records(cfg, out, env.ID), func(w io.Writer) error { return sqlitebench.Report(w, cfg, out) }, err
}

// quickSQLiteConfig is the suite's sqlite configuration: every engine this
// build and machine can run.
func quickSQLiteConfig() (sqlitebench.Config, error) {
	sel, err := sqlitebench.SelectEngines(nil, "")
	if err != nil {
		return sqlitebench.Config{}, err
	}
	cfg := sqlitebench.Config{
		Engines: sel.Names, Skipped: sel.Skipped,
		JournalModes:        []string{"delete", "wal"},
		Synchronous:         []string{"normal", "full"},
		FullFsync:           []string{"0"},
		CheckpointFullFsync: []string{sqlitebench.CheckpointDefault},
		Commits:             300, WALCommits: 1200, Warmup: 30, Rounds: 1, RowsPerCommit: 1, RowBytes: 100,
	}
	return cfg, cfg.Validate()
}

// suiteDiskNeeded is the most the suite holds on disk at once: its parts
// run one after the other, each removing its files as it goes (or, with
// keep, all of them together).
func suiteDiskNeeded(keep bool) int64 {
	needs := []int64{quickSyncConfig().DiskNeeded(keep), quickWALConfig(1, 8, 64).DiskNeeded(keep)}
	if cfg, err := quickSQLiteConfig(); err == nil {
		needs = append(needs, cfg.DiskNeeded(keep))
	}
	if !keep {
		return slices.Max(needs)
	}
	return units.Saturate(units.Add(needs...))
}
