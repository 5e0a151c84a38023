package sqlitebench

import (
	"slices"
	"testing"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/syscount/syscounttest"
)

// testCounter counts a case the way durabench sqlite --count-syscalls does,
// with this test binary as the traced child (see TestMain).
func testCounter(t *testing.T, dir string) Counter {
	return syscounttest.Counter[Config](t, dir)
}

// TestCountsPerCommitMatchSQLitesSource traces single-row commits of every
// engine through the real counting path and checks the sync calls per
// commit, by file, against what SQLite's source makes them:
//   - rollback journal (pager.c syncJournal, then the database sync in
//     sqlite3PagerCommitPhaseOne): the journal once at normal, twice at
//     full (before and after writing the record count into its header);
//     its directory once, as the journal is new in every commit
//     (UNIXFILE_DIRSYNC, os_unix.c unixSync); the database once.
//   - WAL (wal.c walFrames): the WAL once per commit at full, nothing at
//     normal; the database only at checkpoints, and 55 commits stay far
//     below the 1,000 pages that trigger one.
//   - fullfsync changes nothing on Linux (no F_FULLFSYNC).
//
// All of a build's syncs are one call (os_unix.c full_fsync): fsync for
// mattn's and modernc's amalgamation, which does not define HAVE_FDATASYNC;
// fdatasync for a libsqlite3 built with SQLite's configure script, which
// finds fdatasync on Linux and defines it (Debian's does). Which one the
// system library makes is read from the library (drivers.SystemSyncCall).
func TestCountsPerCommitMatchSQLitesSource(t *testing.T) {
	const commits = 50
	cfg := Config{
		Engines:             realEngines(t),
		JournalModes:        []string{"delete", "wal"},
		Synchronous:         []string{"normal", "full"},
		FullFsync:           FullFsyncValues,
		CheckpointFullFsync: []string{CheckpointDefault},
		Commits:             commits, Warmup: 5, Rounds: 1, RowsPerCommit: 1, RowBytes: 100,
	}
	dir := t.TempDir()
	env, err := envinfo.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := CountAll(cfg, testCounter(t, dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(cfg.Engines) * 2 * 2 * 2; len(counts) != want {
		t.Fatalf("%d counts, want %d", len(counts), want)
	}
	type bySyncFile map[trace.Class]float64
	want := map[[2]string]bySyncFile{
		{"delete", "normal"}: {trace.ClassJournal: 1, trace.ClassDirectory: 1, trace.ClassDB: 1, trace.ClassWAL: 0},
		{"delete", "full"}:   {trace.ClassJournal: 2, trace.ClassDirectory: 1, trace.ClassDB: 1, trace.ClassWAL: 0},
		{"wal", "normal"}:    {trace.ClassJournal: 0, trace.ClassDirectory: 0, trace.ClassDB: 0, trace.ClassWAL: 0},
		{"wal", "full"}:      {trace.ClassJournal: 0, trace.ClassDirectory: 0, trace.ClassDB: 0, trace.ClassWAL: 1},
	}
	systemCall := "" // the system library's own: derived, not assumed
	if slices.Contains(cfg.Engines, "system") {
		if systemCall, _, err = drivers.SystemSyncCall(drivers.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range counts {
		kind, other := "fsync", "fdatasync"
		if c.Engine == "system" && systemCall == "fdatasync" {
			kind, other = other, kind
		}
		if c.Ops != commits {
			t.Errorf("%s: %d commits counted, want %d", c.Name(), c.Ops, commits)
			continue
		}
		files := want[[2]string{c.Asked.JournalMode, c.Asked.Synchronous}]
		var total float64
		for class, n := range files {
			total += n
			if got := c.Syncs(class); got != n {
				t.Errorf("%s: %v syncs per commit on the %s, want %v", c.Name(), got, class, n)
			}
		}
		for name, n := range map[string]float64{kind: total, other: 0, syscount.FullFsyncCall: 0, syscount.BarrierFsyncCall: 0} {
			if got := c.PerOp(name); got != n {
				t.Errorf("%s: %v %s per commit, want %v", c.Name(), got, name, n)
			}
		}
		// Every sync reaches a write-back cache as a flush; other
		// processes can only add to the counter.
		if f := c.FlushesPerOp(); env.WriteCache == "write back" && f >= 0 && f < total {
			t.Errorf("%s: %v device flushes per commit for %v syncs", c.Name(), f, total)
		}
	}
}
