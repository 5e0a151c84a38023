package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/advise"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/saved"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/sqlitebench"
	"github.com/durabench/durabench/walbench"
	"github.com/spf13/pflag"
)

const adviseSynopsis = `advise pragmas|group-commit [flags]

Turns measured figures into a decision. From saved results (--from, the
--out directory of sqlite, wal or suite) or, without --from, from a short
measurement it runs itself under --dir:

  pragmas       the fastest SQLite configuration that keeps every
                acknowledged commit through the failure you name, on the OS
                the figures were measured on; the alternatives with what
                each risks; and the exact lines to set it (PRAGMA
                statements, modernc and mattn DSNs). The promises come from
                one table, each row with its source; durabench crash
                results given with --from add measured verdicts.
  group-commit  the writer count, batch size and sync method that reach a
                commit rate within a p99 limit, or the closest and why, with
                the arithmetic (records per sync ≈ arrival rate × sync time)
                and the group-commit curve's knee when it has one.

Run 'durabench advise pragmas --help' or 'durabench advise group-commit
--help' for each one's flags.`

const adviseExamples = `  durabench advise pragmas --durability power-loss --from results/sqlite1
  durabench advise group-commit --target-commits 20000 --max-p99 2ms --from results/wal1`

const pragmasSynopsis = `advise pragmas --durability power-loss|os-crash|app-crash [--engine E] [--min-commits N] [--from RESULTS]

The fastest SQLite configuration that keeps every acknowledged commit, in a
sound database, through the failure named by --durability, on the OS the
figures were measured on (from env.json): its commits/s and p99, the
faster configurations with what each risks, the slower ones that keep the
promise too, and the lines to set it per engine, mattn's _sync trap
included. Without --from it first measures a short matrix (journal modes
delete, truncate and wal, synchronous normal, full and extra, every engine
this build has) under --dir.`

const pragmasExamples = `  # From a saved sqlite run (or a suite run)
  durabench advise pragmas --durability power-loss --from results/sqlite1

  # One engine, and a floor: no pick below 5,000 commits/s
  durabench advise pragmas --durability os-crash --engine mattn --min-commits 5000 --from results/sqlite1

  # Add the measured crash verdicts of durabench crash sqlite
  durabench advise pragmas --durability power-loss --from results/sqlite1 --from results/crash1

  # No saved results: measure a short matrix under /data first (about a minute)
  durabench advise pragmas --durability power-loss --dir /data`

const groupSynopsis = `advise group-commit --target-commits N --max-p99 D [--from RESULTS]

From wal results, the writer count, batch size (--sync-every) and sync
method that reach N commits/s with a p99 commit latency of at most D, with
the fewest writers; or the closest on each side (the fastest within the
p99 limit, the quickest reaching the rate) and why. The arithmetic is shown:
records per sync ≈ arrival rate × sync time, and a record waits for the
sync in flight and then its own. The group-commit curve is printed with
its knee only when it bends within the writer counts tried; otherwise it
says to try more writers. Without --from it first measures 1 to 64 writers
on 4 KiB records in an initialized segment under --dir.`

const groupExamples = `  durabench advise group-commit --target-commits 20000 --max-p99 2ms --from results/wal1
  durabench advise group-commit --target-commits 5000 --max-p99 500us --dir /data`

func runAdvise(args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "pragmas":
			return runAdvisePragmas(args[1:])
		case "group-commit":
			return runAdviseGroup(args[1:])
		}
	}
	fs := newFlags("advise", adviseSynopsis, adviseExamples)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return usageErrorf("name what to advise on: pragmas or group-commit")
}

// adviseSource is where advice takes its figures from: saved runs, or a
// short measurement under dir.
type adviseSource struct {
	from []string
	dir  string
}

func (s *adviseSource) addFlags(fs *pflag.FlagSet) {
	fs.StringArrayVar(&s.from, "from", nil, "saved results: an --out directory (or its results.jsonl); repeat to add more, e.g. durabench crash results")
	fs.StringVar(&s.dir, "dir", ".", "without --from: where to measure (a new child directory, removed afterwards)")
}

// loadOrMeasure reads the saved runs, refusing ones that cannot be read;
// without --from it measures m under --dir instead, in a run directory
// named after experiment.
func (s *adviseSource) loadOrMeasure(experiment string, m func(run *fixtures.Run) ([]results.Record, error)) ([]saved.Run, error) {
	var runs []saved.Run
	for _, p := range s.from {
		r, err := saved.Load(p)
		if err != nil {
			return nil, usageErrorf("--from %s: %v", p, err)
		}
		runs = append(runs, r)
	}
	if len(runs) > 0 {
		return runs, nil
	}
	if err := checkDir(s.dir); err != nil {
		return nil, err
	}
	r, err := measureFor(s.dir, experiment, m)
	if err != nil {
		return nil, err
	}
	return []saved.Run{r}, nil
}

// figures gathers the records of the runs, the first environment found
// among them, and a label for where they came from.
func figures(runs []saved.Run) (recs []results.Record, env envinfo.Env, hasEnv bool, from string) {
	var names []string
	for _, r := range runs {
		recs = append(recs, r.Records...)
		if r.HasEnv && !hasEnv {
			env, hasEnv = r.Env, true
		}
		names = append(names, r.Path)
	}
	return recs, env, hasEnv, strings.Join(names, " + ")
}

// measureFor runs m in a new run directory under dir and returns its
// records as a saved run would hold them.
func measureFor(dir, experiment string, m func(run *fixtures.Run) ([]results.Record, error)) (saved.Run, error) {
	env, err := envinfo.Collect(dir)
	if err != nil {
		return saved.Run{}, err
	}
	run, err := fixtures.NewRun(dir, experiment, false)
	if err != nil {
		return saved.Run{}, err
	}
	defer run.Close()
	fmt.Fprintf(os.Stderr, "durabench advise: no --from given: measuring a short %s run under %s\n", experiment, dir)
	start := time.Now()
	recs, err := m(run)
	if err != nil {
		return saved.Run{}, err
	}
	fmt.Fprintf(os.Stderr, "durabench advise: measured in %.1f s\n", time.Since(start).Seconds())
	return saved.Run{Path: "a short measurement under " + dir + " just now", Records: recs, Env: env, HasEnv: true}, nil
}

func runAdvisePragmas(args []string) error {
	fs := newFlags("advise pragmas", pragmasSynopsis, pragmasExamples)
	var src adviseSource
	var durability, engine string
	var minCommits float64
	fs.StringVar(&durability, "durability", "", "the failure every acknowledged commit must survive: power-loss, os-crash or app-crash (required)")
	fs.StringVar(&engine, "engine", "", "only this engine: "+strings.Join(drivers.Names(), ", ")+" (default: every one measured)")
	fs.Float64Var(&minCommits, "min-commits", 0, "the pick must reach this many commits/s; otherwise say how far the closest is")
	src.addFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	if durability == "" {
		return usageErrorf("--durability is required: power-loss, os-crash or app-crash")
	}
	failure, err := advise.ParseFailure(durability)
	if err != nil {
		return asUsage(err)
	}
	if engine != "" && !slices.Contains(drivers.Names(), engine) {
		return usageErrorf("--engine %q: use one of %s", engine, strings.Join(drivers.Names(), ", "))
	}
	if minCommits < 0 {
		return usageErrorf("--min-commits %v: must be 0 or more", minCommits)
	}
	runs, err := src.loadOrMeasure("advise-sqlite", func(run *fixtures.Run) ([]results.Record, error) {
		return quickPragmaRun(run, engine)
	})
	if err != nil {
		return err
	}
	recs, env, hasEnv, from := figures(runs)
	in := advise.PragmaInput{Records: recs, From: from}
	if hasEnv {
		in.OS, in.FS, in.EnvWarnings = env.OS, env.FSType, env.Warnings
	}
	a, err := advise.Pragmas(in, advise.PragmaQuestion{Failure: failure, Engine: engine, MinCommits: minCommits})
	if errors.Is(err, advise.ErrNoFigures) {
		return usageErrorf("%v: give --from the --out directory of durabench sqlite (or suite), or leave --from out to measure under --dir", err)
	}
	if err != nil {
		return asUsage(err)
	}
	return a.Render(os.Stdout)
}

// quickPragmaRun is the short matrix advise pragmas measures without
// --from: delete, truncate and wal at normal, full and extra, fullfsync 0
// (and 1 on macOS), one round.
func quickPragmaRun(run *fixtures.Run, engine string) ([]results.Record, error) {
	var asked []string
	if engine != "" {
		asked = []string{engine}
	}
	sel, err := sqlitebench.SelectEngines(asked, "")
	if err != nil {
		return nil, asUsage(err)
	}
	full := []string{"0"}
	if runtime.GOOS == "darwin" {
		full = []string{"0", "1"}
	}
	cfg := sqlitebench.Config{
		Engines: sel.Names, Skipped: sel.Skipped,
		JournalModes:        []string{"delete", "truncate", "wal"},
		Synchronous:         []string{"normal", "full", "extra"},
		FullFsync:           full,
		CheckpointFullFsync: []string{sqlitebench.CheckpointDefault},
		Commits:             300, WALCommits: 1200, Warmup: 30, Rounds: 1, RowsPerCommit: 1, RowBytes: 100,
	}
	out, err := sqlitebench.Run(run, cfg, progress)
	if err != nil {
		return nil, err
	}
	return sqlitebench.Records(cfg, out, ""), nil
}

func runAdviseGroup(args []string) error {
	fs := newFlags("advise group-commit", groupSynopsis, groupExamples)
	var src adviseSource
	var target float64
	var maxP99 string
	fs.Float64Var(&target, "target-commits", 0, "commits per second to reach, all writers together (required)")
	fs.StringVar(&maxP99, "max-p99", "", "the highest p99 commit latency allowed, e.g. 2ms, 500us (required)")
	src.addFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	if target <= 0 {
		return usageErrorf("--target-commits is required: a rate above 0, e.g. 20000")
	}
	if maxP99 == "" {
		return usageErrorf("--max-p99 is required: a duration such as 2ms or 500us")
	}
	limit, err := time.ParseDuration(strings.ReplaceAll(maxP99, "µs", "us"))
	if err != nil || limit <= 0 {
		return usageErrorf("--max-p99 %q: give a positive duration such as 2ms or 500us", maxP99)
	}
	runs, err := src.loadOrMeasure("advise-wal", quickGroupRun)
	if err != nil {
		return err
	}
	recs, _, _, from := figures(runs)
	a, err := advise.GroupCommit(recs, from, advise.GroupQuestion{TargetCommits: target, MaxP99: limit.Nanoseconds()})
	if errors.Is(err, advise.ErrNoFigures) {
		return usageErrorf("%v: give --from the --out directory of durabench wal (or suite), e.g. of durabench wal --writers 1,2,4,8,16,32,64 --out DIR", err)
	}
	if err != nil {
		return asUsage(err)
	}
	return a.Render(os.Stdout)
}

// quickGroupRun is the short curve advise group-commit measures without
// --from: the suite's, with 1 to 64 writers.
func quickGroupRun(run *fixtures.Run) ([]results.Record, error) {
	cfg := quickWALConfig(1, 2, 4, 8, 16, 32, 64)
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	res, err := walbench.Run(run, cfg, progress)
	if err != nil {
		return nil, err
	}
	return walbench.Records(res, nil, ""), nil
}
