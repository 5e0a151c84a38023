package main

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/crash/sqlitecrash"
	"github.com/durabench/durabench/crash/walcrash"
	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/runner"
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
	var engines, journals, syncs, fulls, builds []string
	listVar(fs, &engines, "engines", "", "engines: "+strings.Join(drivers.Names(), ", ")+" (default: every one this build and machine can run)", sqlitebench.ParseEngines)
	listVar(fs, &journals, "journal-modes", "delete,wal", "journal modes", sqlitebench.ParseJournalModes)
	listVar(fs, &syncs, "synchronous", "off,normal,full,extra", "synchronous levels", sqlitebench.ParseSynchronous)
	listVar(fs, &fulls, "fullfsync", "0,1", "fullfsync values: what they map to is judged under the macos model", sqlitebench.ParseFullFsync)
	listVar(fs, &builds, "macos-build", strings.Join(sqlitecrash.MacOSBuilds, ","), "macos rows for fullfsync=1: public (F_FULLFSYNC), apple (F_BARRIERFSYNC)", parseBuilds)
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
	if *commits < 1 || *commits > 10_000 {
		return usageErrorf("--commits %d: use 1 to 10000", *commits)
	}
	sel, err := sqlitebench.SelectEngines(engines, *lib)
	if err != nil {
		return refuse(err, fs, sqliteRenamed)
	}
	cases, err := sqlitecrash.Plan(sel.Names, journals, syncs, fulls, models, builds, *commits, *lib)
	if err != nil {
		return asUsage(err)
	}
	return x.explore(&o, "crash-sqlite", torn, sqlitecrash.Workloads(cases, sqliteCrashCommand))
}

// parseBuilds parses the list of macOS builds: public, apple.
func parseBuilds(csv string) ([]string, error) {
	return runner.ParseList(csv, "macOS build", "use public, apple or both", func(b string) (string, error) {
		b = strings.ToLower(b)
		if !slices.Contains(sqlitecrash.MacOSBuilds, b) {
			return "", fmt.Errorf("macOS build %q: use public, apple or both", b)
		}
		return b, nil
	})
}

// sqliteCrashCommand runs the workload of cfg in root in a child durabench
// (the hidden __crash-sqlite role).
func sqliteCrashCommand(root string, cfg sqlitecrash.Config) *exec.Cmd {
	return crashChild("__crash-sqlite", root, cfg)
}

func init() { registerRole("__crash-sqlite", roleRun("__crash-sqlite", runCrashSQLiteChild)) }

// runCrashSQLiteChild is the hidden role that runs SQLite's crash workload
// under the recorder, marking each acknowledged commit.
func runCrashSQLiteChild(args []string) error {
	var cfg sqlitecrash.Config
	root, err := parseCrashChild("__crash-sqlite", "durabench crash sqlite", args, &cfg)
	if err != nil {
		return err
	}
	return sqlitecrash.Run(root, cfg, markAck)
}

// showWorkload returns the workload a state identifier's configuration
// names, for crash show: a crash wal or a crash sqlite configuration.
func showWorkload(name string) (crash.Workload, error) {
	if strings.HasPrefix(name, "sqlite/") {
		cfg, err := sqlitecrash.ParseName(name)
		if err != nil {
			return crash.Workload{}, err
		}
		return sqlitecrash.Workloads([]sqlitecrash.Case{{Config: cfg}}, sqliteCrashCommand)[0], nil
	}
	cfg, err := walcrash.ParseName(name)
	if err != nil {
		return crash.Workload{}, err
	}
	return walcrash.AsWorkload(cfg, nil, walCrashCommand), nil
}
