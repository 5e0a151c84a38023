package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/crash/sqlitecrash"
	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/sqlitebench"
)

const crashSQLiteSynopsis = `crash sqlite --dir DIR [flags]

Records SQLite making --commits single-row insert commits, each
acknowledged as its commit returns, for every engine, journal mode,
synchronous level and fullfsync value; then builds the states a power cut
could leave under each model and opens each with the same engine: PRAGMA
integrity_check must say ok, every acknowledged row must be there, and no
row beyond the one commit in flight.

Under macos, each recorded sync stands for the call SQLite makes there, and
the mapping is printed with each row: fullfsync=0 → fsync (which persists
nothing on macOS); fullfsync=1 → F_FULLFSYNC with the public build, or
F_BARRIERFSYNC with Apple's system build (--macos-build picks which rows).

The recording uses ptrace (Linux). Each failing state is printed with an
identifier that rebuilds it.`

const crashSQLiteExamples = `  # The configurations whose verdicts SQLite's documentation makes crisp
  durabench crash sqlite --dir /tmp --engines modernc --journal-modes wal,delete --synchronous normal,full,extra

  # What fullfsync buys on macOS, with the public build and with Apple's
  durabench crash sqlite --dir /tmp --journal-modes wal --synchronous full --fullfsync 0,1 --models macos

  # More states, another seed, results kept
  durabench crash sqlite --dir /tmp --states 5000 --seed 7 --out results/crash-sqlite`

func runCrashSQLite(args []string) error {
	fs := newFlags("crash sqlite", crashSQLiteSynopsis, crashSQLiteExamples)
	var o outputFlags
	var x exploreFlags
	addOutputFlags(fs, &o)
	addExploreFlags(fs, &x)
	engines := fs.String("engines", "", "engines: "+strings.Join(drivers.Names(), ", ")+" (default: every one this build and machine can run)")
	journals := fs.String("journal-modes", "delete,wal", "journal modes")
	syncs := fs.String("synchronous", "off,normal,full,extra", "synchronous levels")
	fulls := fs.String("fullfsync", "0,1", "fullfsync values: what they map to is judged under the macos model")
	builds := fs.String("macos-build", strings.Join(sqlitecrash.MacOSBuilds, ","), "macos rows for fullfsync=1: public (F_FULLFSYNC), apple (F_BARRIERFSYNC)")
	commits := fs.Int("commits", sqlitecrash.DefaultCommits, "commits the workload makes and acknowledges")
	lib := fs.String("sqlite-lib", "", "libsqlite3 for the system engine (default: the platform's own)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	models, torn, err := x.parse()
	if err != nil {
		return err
	}
	names := *engines
	if names == "" {
		for _, st := range drivers.Available(drivers.Options{SystemLib: *lib}) {
			if st.Available {
				names += st.Name + ","
			}
		}
	}
	es, err := sqlitebench.ParseEngines(names)
	if err != nil {
		return usageErrorf("--engines: %v", err)
	}
	js, err := sqlitebench.ParseJournalModes(*journals)
	if err != nil {
		return usageErrorf("--journal-modes: %v", err)
	}
	ss, err := sqlitebench.ParseSynchronous(*syncs)
	if err != nil {
		return usageErrorf("--synchronous: %v", err)
	}
	ff, err := sqlitebench.ParseFullFsync(*fulls)
	if err != nil {
		return usageErrorf("--fullfsync: %v", err)
	}
	bs, err := parseBuilds(*builds)
	if err != nil {
		return err
	}
	if *commits < 1 || *commits > 10_000 {
		return usageErrorf("--commits %d: use 1 to 10000", *commits)
	}
	for _, e := range es {
		if _, err := drivers.Lookup(e, drivers.Options{SystemLib: *lib}); err != nil {
			return usageErrorf("--engines %s: %v", e, err)
		}
	}
	cases, err := sqlitecrash.Plan(es, js, ss, ff, models, bs, *commits, *lib)
	if err != nil {
		return asUsage(err)
	}
	if err := checkRecording(); err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	return measure(&o, "crash-sqlite", func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		b := crash.Batch{Dir: run.Dir, Seed: x.seed, States: x.states, Torn: torn, Record: recordLog, Progress: progress}
		res, err := b.Explore(sqlitecrash.Workloads(cases, sqliteCrashCommand))
		if err != nil {
			return nil, nil, err
		}
		return crash.Records(res, env.ID), func(w io.Writer) error { return crash.Report(w, res) }, nil
	})
}

// parseBuilds parses --macos-build.
func parseBuilds(csv string) ([]string, error) {
	var out []string
	for _, b := range strings.Split(csv, ",") {
		b = strings.ToLower(strings.TrimSpace(b))
		switch {
		case b == "":
			continue
		case b != "public" && b != "apple":
			return nil, usageErrorf("--macos-build %q: use public, apple or both", b)
		}
		for _, seen := range out {
			if seen == b {
				return nil, usageErrorf("--macos-build: %s given twice", b)
			}
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, usageErrorf("--macos-build: nothing given: use public, apple or both")
	}
	return out, nil
}

// sqliteCrashCommand runs the workload of cfg in root in a child durabench
// (the hidden __crash-sqlite role).
func sqliteCrashCommand(root string, cfg sqlitecrash.Config) *exec.Cmd {
	b, _ := json.Marshal(cfg) // a Config always marshals
	cmd := exec.Command(selfPath(), "__crash-sqlite", "--root", root, "--config", string(b))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd
}

func init() { registerRole("__crash-sqlite", roleRun("__crash-sqlite", runCrashSQLiteChild)) }

// runCrashSQLiteChild is the hidden role that runs SQLite's crash workload
// under the recorder, marking each acknowledged commit.
func runCrashSQLiteChild(args []string) error {
	fs := newFlags("__crash-sqlite", "internal: the workload of durabench crash sqlite", "")
	root := fs.String("root", "", "directory to create the database in")
	config := fs.String("config", "", "the case as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var cfg sqlitecrash.Config
	if err := json.Unmarshal([]byte(*config), &cfg); err != nil {
		return usageErrorf("--config: %v", err)
	}
	return sqlitecrash.Run(*root, cfg, markAck)
}
