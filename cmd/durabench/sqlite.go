package main

import (
	"io"
	"strings"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/sqlitebench"
	"github.com/spf13/pflag"
)

const sqliteSynopsis = `sqlite --dir DIR [flags]

Times single-row SQLite commits (BEGIN; INSERT; COMMIT through reused
prepared statements) across journal_mode × synchronous × fullfsync
(× checkpoint_fullfsync), for each SQLite engine: modernc (pure Go), mattn
(cgo, the public amalgamation) and system (the platform's libsqlite3,
loaded at run time). Each case and round gets a fresh database in a new
child directory of --dir, on one connection whose pragmas are set and read
back; the figures stand under the values SQLite reports, and a case that did
not run as asked is marked. After each case the rows are counted.

The report starts with what each engine gives a user who sets nothing (they
differ: mattn's driver sets synchronous=NORMAL), then per engine a table:
rows journal × synchronous, columns fullfsync, commits/s with p99, and what
each row risks if the app, the OS or the power fails.`

const sqliteExamples = `  # Every engine, journal mode, synchronous level and fullfsync (about 10 minutes)
  durabench sqlite --dir /data

  # The rows of the macOS article "a real fsync takes a whole number of ms", 2,000 commits each
  durabench sqlite --dir /data --journal-modes wal,delete --synchronous normal,full \
      --commits 2000 --warmup 100

  # Apple's system SQLite against a Homebrew build (checkpoint_fullfsync as each has it, then on)
  durabench sqlite --dir /data --engines system --sqlite-lib /opt/homebrew/opt/sqlite/lib/libsqlite3.dylib \
      --checkpoint-fullfsync default,1

  # Which syncs each commit makes, by kind and by file, and the device's flushes
  # (after the timing passes, a separate traced pass per case; Linux)
  durabench sqlite --dir /data --journal-modes delete,wal --synchronous normal,full \
      --fullfsync 0,1 --count-syscalls

  # Group commit inside SQLite: 100 rows per transaction
  durabench sqlite --dir /data --journal-modes wal --synchronous full --rows-per-commit 100

  # Keep every figure: CSV, JSON Lines and Go benchmark format for benchstat
  durabench sqlite --dir /data --out results/sqlite1`

// sqliteFlags are durabench sqlite's own flags, as given.
type sqliteFlags struct {
	engines, journalModes, synchronous, fullfsync, checkpointFullFsync []string
	sqliteLib                                                          string
	commits, walCommits, warmup, rounds, rowsPerCommit, rowBytes       int
	countSyscalls                                                      bool
}

// sqliteRenamed are the sqlitebench.Config fields whose flag is not the
// field's name kebab-cased.
var sqliteRenamed = map[string]string{"FullFsync": "fullfsync", "CheckpointFullFsync": "checkpoint-fullfsync", "SystemLib": "sqlite-lib", "WALCommits": "wal-commits"}

func runSQLite(args []string) error {
	fs := newFlags("sqlite", sqliteSynopsis, sqliteExamples)
	var o outputFlags
	var f sqliteFlags
	addOutputFlags(fs, &o)
	listVar(fs, &f.engines, "engines", "", "engines to run: "+strings.Join(drivers.Names(), ", ")+" (default: every one this build and machine can run)", sqlitebench.ParseEngines)
	listVar(fs, &f.journalModes, "journal-modes", strings.Join(sqlitebench.JournalModes, ","), "journal modes", sqlitebench.ParseJournalModes)
	listVar(fs, &f.synchronous, "synchronous", strings.Join(sqlitebench.SynchronousLevels, ","), "synchronous levels", sqlitebench.ParseSynchronous)
	listVar(fs, &f.fullfsync, "fullfsync", "0,1", "fullfsync values (F_FULLFSYNC on macOS; changes nothing elsewhere)", sqlitebench.ParseFullFsync)
	listVar(fs, &f.checkpointFullFsync, "checkpoint-fullfsync", sqlitebench.CheckpointDefault, "checkpoint_fullfsync values: default (left as the engine has it), 0, 1", sqlitebench.ParseCheckpointFullFsync)
	fs.IntVar(&f.commits, "commits", 500, "measured commits per case and round (WAL cases: --wal-commits)")
	fs.IntVar(&f.walCommits, "wal-commits", 3000, "measured commits per round in WAL mode, enough to hold WAL checkpoints (every 1,000 pages by default, the only syncs at synchronous=normal); 0, or --commits given without this flag: as --commits")
	fs.IntVar(&f.warmup, "warmup", 50, "unmeasured commits before them, on the same connection")
	fs.IntVar(&f.rounds, "rounds", 3, "rounds; each runs every case on a fresh database, and percentiles pool them")
	fs.IntVar(&f.rowsPerCommit, "rows-per-commit", 1, "inserts per transaction")
	fs.IntVar(&f.rowBytes, "row-bytes", 100, "bytes of each row's blob")
	fs.StringVar(&f.sqliteLib, "sqlite-lib", "", "libsqlite3 for the system engine (default: the platform's own)")
	fs.BoolVar(&f.countSyscalls, "count-syscalls", false, "after timing, run each case again, traced (ptrace on Linux, the interposer on macOS), and count its sync calls per commit by kind and by file, and the device's flushes")
	if err := parseOptions(fs, args); err != nil {
		return err
	}
	if fs.Changed("commits") && !fs.Changed("wal-commits") {
		f.walCommits = 0 // the commits asked for, in every case
	}
	cfg, err := f.config(fs)
	if err != nil {
		return err
	}
	if err := checkCounting(f.countSyscalls); err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	if err := checkSpace(o.dir, cfg.DiskNeeded(o.keep), "this run's largest database (estimated)"); err != nil {
		return err
	}
	for _, st := range cfg.Skipped {
		hint := ""
		if st.Name == "system" {
			hint = " (--sqlite-lib PATH names the libsqlite3 to load)"
		}
		status("durabench sqlite: not running %s: %s%s", st.Name, st.Reason, hint)
	}

	p := plan{cfg.Steps(), len(cfg.Engines) + cfg.Cases()}
	if f.countSyscalls {
		p = p.plus(plan{cfg.CountSteps(), cfg.CountSteps()})
	}
	return measureSteps(&o, "sqlite", p, func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		out, err := sqlitebench.Run(run, cfg, progress)
		if err != nil && !stoppedRun(err) {
			return nil, nil, err
		}
		if f.countSyscalls && err == nil {
			if out.Counts, err = sqlitebench.CountAll(cfg, counter[sqlitebench.Config](run, countSQLiteRole), progress); err != nil && !stoppedRun(err) {
				return nil, nil, err
			}
		}
		return sqlitebench.Records(cfg, out, env.ID), func(w io.Writer) error { return sqlitebench.Report(w, cfg, out) }, err
	})
}

// config turns the flags into a validated sqlitebench.Config, with the
// engines this build and machine can run; every error is refused input
// naming its flag.
func (f sqliteFlags) config(fs *pflag.FlagSet) (sqlitebench.Config, error) {
	cfg := sqlitebench.Config{SystemLib: f.sqliteLib, JournalModes: f.journalModes, Synchronous: f.synchronous,
		FullFsync: f.fullfsync, CheckpointFullFsync: f.checkpointFullFsync,
		Commits: f.commits, WALCommits: f.walCommits, Warmup: f.warmup, Rounds: f.rounds, RowsPerCommit: f.rowsPerCommit, RowBytes: f.rowBytes}
	sel, err := sqlitebench.SelectEngines(f.engines, f.sqliteLib)
	if err != nil {
		return cfg, refuse(err, fs, sqliteRenamed)
	}
	cfg.Engines, cfg.Skipped = sel.Names, sel.Skipped
	return cfg, refuse(cfg.Validate(), fs, sqliteRenamed)
}
