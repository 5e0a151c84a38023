package sqlitebench

// The counting passes (durabench sqlite --count-syscalls). Invariants:
//   - Counting never shares a run with timing: each case runs once more, in
//     a traced child process (ptrace on Linux, the interposer on macOS),
//     after the timing passes, and only
//     counts come out of it.
//   - The child runs the same round as a timing pass (fresh database,
//     pragmas, schema, warm-up, commits, row check); the counting window
//     holds only the timed commits (Config.Marks), so the schema, the
//     pragmas and the warm-up are outside the counts.
//   - Files are attributed by name: the case's database, its -journal, -wal
//     and -shm, and any directory (SQLite syncs the journal's directory).

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
)

// maxCountCommits caps the commits of a counting pass: tracing slows every
// call, and a thousand commits are enough to hold a WAL checkpoint at the
// default wal_autocheckpoint of 1,000 pages when the timed rounds do.
const maxCountCommits = 1000

// Count is one case's counting pass: the system calls its timed commits
// made, and the flushes the device saw meanwhile.
type Count struct {
	Case
	syscount.Result
}

// Counter counts one case of a Config in a traced child (see
// syscount.Counter).
type Counter = syscount.Counter[Config]

// CountConfig is the configuration of the counting pass for case c: that
// case alone, one round, the run's warm-up, and its commits up to
// maxCountCommits.
func CountConfig(cfg Config, c Case) Config {
	cc := cfg
	cc.Engines, cc.Skipped = []string{c.Engine}, nil
	cc.JournalModes = []string{c.Asked.JournalMode}
	cc.Synchronous = []string{c.Asked.Synchronous}
	cc.FullFsync = []string{c.Asked.FullFsync}
	cc.CheckpointFullFsync = []string{c.Asked.CheckpointFullFsync}
	cc.Rounds, cc.Commits, cc.WALCommits, cc.Marks = 1, min(cfg.CommitsFor(c), maxCountCommits), 0, nil
	return cc
}

// CountClassifier attributes the files of case c's counting pass: its
// database, journal, WAL and WAL index by name, wherever the pass runs;
// any directory is a directory; everything else is other.
func CountClassifier(c Case) trace.Classifier {
	name := c.dbName(0)
	return func(path string, isDir bool) trace.Class {
		return trace.SQLiteClassifier(filepath.Join(filepath.Dir(path), name))(path, isDir)
	}
}

// CountAll runs a counting pass for every case of cfg, in matrix order.
func CountAll(cfg Config, counter Counter, progress Progress) ([]Count, error) {
	progress = runner.Quiet(progress)
	var out []Count
	for _, c := range cfg.cases() {
		progress("counting syscalls (traced, not timed): " + c.Name())
		r, err := counter(CountConfig(cfg, c), CountClassifier(c))
		if err != nil {
			return nil, fmt.Errorf("sqlitebench: counting %s: %w", c.Name(), err)
		}
		out = append(out, Count{Case: c, Result: r})
	}
	return out, nil
}

// syncFiles are the files whose syncs the count table shows, in its order.
var syncFiles = []trace.Class{trace.ClassDB, trace.ClassJournal, trace.ClassWAL, trace.ClassDirectory}

// Syncs returns the sync calls per commit on files of class.
func (c Count) Syncs(class trace.Class) float64 { return c.PerOpOn(class, syscount.SyncCalls...) }

// AllSyncs returns the sync calls per commit on every file.
func (c Count) AllSyncs() float64 {
	var n float64
	for _, name := range syscount.SyncCalls {
		n += c.PerOp(name)
	}
	return n
}

// CountReport writes the counting passes as a table: per engine and
// settings (as SQLite reported them in the timing pass), the sync calls
// per commit by kind and by file, and the device's flushes per commit.
func CountReport(w io.Writer, out Outcome) error { return countReport(w, out, runtime.GOOS) }

// countReport is CountReport for a run on goos.
func countReport(w io.Writer, out Outcome, goos string) error {
	if len(out.Counts) == 0 {
		return nil
	}
	effective := map[Case]drivers.Settings{}
	for _, r := range out.Results {
		effective[r.Case] = r.Effective
	}
	withCkpt := false
	for _, c := range out.Counts {
		withCkpt = withCkpt || c.Asked.CheckpointFullFsync != CheckpointDefault
	}
	headers := []string{"engine", "journal", "synchronous", "fullfsync"}
	if withCkpt {
		headers = append(headers, "checkpoint_fullfsync")
	}
	for _, name := range syscount.SyncCalls {
		headers = append(headers, syscount.ColumnName(name))
	}
	for _, class := range syncFiles {
		headers = append(headers, string(class)+" syncs")
	}
	headers = append(headers, "device flushes")
	t := results.NewTable(headers...)
	t.Title = fmt.Sprintf("System calls per commit, by kind and by file, and the device's flushes: a separate traced pass of %s per case (counts only; the timing passes above were never traced)",
		plural(out.Counts[0].Ops, "commit"))
	for _, c := range out.Counts {
		eff, ok := effective[c.Case]
		if !ok {
			eff = c.Asked
		}
		row := []string{c.Engine, eff.JournalMode, eff.Synchronous, eff.FullFsync}
		if withCkpt {
			row = append(row, eff.CheckpointFullFsync)
		}
		for _, name := range syscount.SyncCalls {
			row = append(row, syscount.FormatPerOp(c.PerOp(name)))
		}
		for _, class := range syncFiles {
			row = append(row, syscount.FormatPerOp(c.Syncs(class)))
		}
		t.AddRow(append(row, c.FlushesText())...)
	}
	if err := t.Render(w); err != nil {
		return err
	}
	fmt.Fprintln(w, "(At synchronous=full a rollback-journal commit syncs the journal, its directory when the journal is new (journal_mode=delete makes one per commit), the journal again after writing the record count into its header, then the database; normal skips the first journal sync. In WAL mode a commit syncs only the WAL, and only at synchronous=full or extra; the database file is synced only by checkpoints.)")
	if goos != "darwin" {
		fmt.Fprintf(w, "(F_FULLFSYNC and F_BARRIERFSYNC exist only on macOS: 0 on %s, where fullfsync changes no call.)\n", goos)
	}
	fmt.Fprintln(w, syscount.FlushesFootnote("commits"))
	return nil
}

// CountWarnings says where the device saw something the syncs do not
// explain: commits that synced with no flush reaching the device, or
// commits that made no sync while the device flushed.
func CountWarnings(counts []Count) []string {
	var out []string
	for _, c := range counts {
		var flushing, quiet string
		switch s := c.AllSyncs(); {
		case s >= 0.5:
			flushing = fmt.Sprintf("%s made %s sync calls per commit", c.Name(), syscount.FormatPerOp(s))
		case s == 0:
			quiet = c.Name() + " made no sync call"
		}
		if w := c.FlushMismatch(flushing, quiet, "commit"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// countMetrics returns the metrics a case's pooled record carries from its
// counting pass, named as durabench sync names its own.
func countMetrics(c Count) map[string]float64 {
	m := c.Metrics(syscount.SyncCalls)
	for _, class := range syncFiles {
		m["syncs_per_op."+string(class)] = c.Syncs(class)
	}
	return m
}
