package sqlitebench

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/internal/dirtest"
	"github.com/durabench/durabench/measure"
)

// realEngines returns the engines this test binary can run: all three
// with cgo and the system library installed. An engine may be missing only
// for a stated reason.
func realEngines(t testing.TB) []string {
	t.Helper()
	var names []string
	for _, st := range drivers.Available(drivers.Options{}) {
		if st.Available {
			names = append(names, st.Name)
			continue
		}
		t.Logf("engine %s not tested: %s", st.Name, st.Reason)
	}
	if len(names) == 0 {
		t.Fatal("no engine available")
	}
	return names
}

// TestRunEveryCombination runs every journal mode × synchronous level ×
// fullfsync on every real engine, and checks that the runner reports each
// case under the settings SQLite read back, which here are the ones asked
// for, with the rows all there.
func TestRunEveryCombination(t *testing.T) {
	cfg := Config{
		Engines:             realEngines(t),
		JournalModes:        JournalModes,
		Synchronous:         SynchronousLevels,
		FullFsync:           FullFsyncValues,
		CheckpointFullFsync: []string{CheckpointDefault},
		Commits:             3, Warmup: 1, Rounds: 1, RowsPerCommit: 2, RowBytes: 10,
	}
	out, err := Run(newRun(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(cfg.Engines) * 6 * 4 * 2; len(out.Results) != want {
		t.Fatalf("%d results, want %d", len(out.Results), want)
	}
	defaults := map[string]drivers.Settings{}
	for _, e := range out.Engines {
		defaults[e.Name] = e.Defaults
	}
	for _, r := range out.Results {
		want := r.Asked
		want.CheckpointFullFsync = defaults[r.Engine].CheckpointFullFsync
		if r.Effective != want || !r.AsAsked() {
			t.Errorf("%s: effective %+v, notes %q; want %+v as asked", r.Name(), r.Effective, r.Notes, want)
		}
		if got := r.Rounds[0].Rows; got != 8 {
			t.Errorf("%s: %d rows checked, want 8", r.Name(), got)
		}
		// The database/sql drivers allocate at least 7 times per commit
		// (mattn; modernc 10): the count must see them.
		if r.Engine != "system" && r.AllocsPerCommit < 7 {
			t.Errorf("%s: %v allocations per commit counted, want the driver's 7 or more", r.Name(), r.AllocsPerCommit)
		}
	}
	for _, rec := range Records(cfg, out, "env1") {
		for _, p := range rec.Params {
			if strings.HasPrefix(p.Key, "asked_") && p.Key != "asked_checkpoint_fullfsync" {
				t.Errorf("%s: a case run as asked records %s", rec.Params, p.Key)
			}
		}
	}
}

// TestRunCheckpointFullFsync sets checkpoint_fullfsync both ways and
// leaves it alone, on every real engine.
func TestRunCheckpointFullFsync(t *testing.T) {
	cfg := Config{
		Engines: realEngines(t), JournalModes: []string{"wal"}, Synchronous: []string{"normal"}, FullFsync: []string{"1"},
		CheckpointFullFsync: CheckpointFullFsyncs,
		Commits:             2, Warmup: 0, Rounds: 1, RowsPerCommit: 1, RowBytes: 0,
	}
	out, err := Run(newRun(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out.Results {
		e := out.Engines[i/3]
		want := r.Asked.CheckpointFullFsync
		if want == CheckpointDefault {
			want = e.Defaults.CheckpointFullFsync
		}
		if r.Engine != e.Name || r.Effective.CheckpointFullFsync != want || !r.AsAsked() {
			t.Errorf("%s: checkpoint_fullfsync %s (notes %q), want %s", r.Name(), r.Effective.CheckpointFullFsync, r.Notes, want)
		}
	}
}

// TestApplyPragmasRefusedBySQLite runs the runner's own pragma setting and
// comparison on real engines against a database where SQLite silently
// keeps another journal mode: an in-memory one takes only memory or off.
// (A file database in the run directory takes every mode on Linux and
// macOS: SQLite refuses WAL there only for a VFS without shared memory, a
// nolock=1 URI or a build without WAL, none of which a run uses.)
func TestApplyPragmasRefusedBySQLite(t *testing.T) {
	for _, name := range realEngines(t) {
		e, err := lookupEngine(name, drivers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := e.open(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		asked := drivers.Settings{JournalMode: "wal", Synchronous: "extra", FullFsync: "1", CheckpointFullFsync: CheckpointDefault}
		set, err := applyPragmas(c, asked)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Settings()
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		if set != got {
			t.Errorf("%s: read back when set %+v, afterwards %+v", name, set, got)
		}
		m := mismatches(asked, got)
		if len(m) != 1 || m[0].String() != "asked journal_mode=wal, got memory" {
			t.Errorf("%s: mismatches %v, want exactly: asked journal_mode=wal, got memory", name, m)
		}
	}
}

// TestRunSurfacesSQLiteError: a database file that is not a database makes
// SQLite fail, and its code and message reach the caller with the case.
func TestRunSurfacesSQLiteError(t *testing.T) {
	for _, name := range realEngines(t) {
		run := newRun(t)
		cfg := smallConfig(name)
		cfg.JournalModes, cfg.Synchronous, cfg.Rounds = []string{"wal"}, []string{"full"}, 1
		c := cfg.cases()[0]
		if err := os.WriteFile(run.Path(c.Name()+"-r1.db"), []byte(strings.Repeat("not a database ", 100)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Run(run, cfg, nil)
		var se *drivers.Error
		if !errors.As(err, &se) || se.Code != 26 || se.Engine != name {
			t.Fatalf("%s: Run = %v, want SQLITE_NOTADB from the engine", name, err)
		}
		want := "sqlitebench: " + c.Name() + ", round 1: " + name + ": "
		if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "SQLITE_NOTADB (26): file is not a database") {
			t.Errorf("%s: error %q, want prefix %q and SQLite's code and message", name, err, want)
		}
	}
}

// TestRunRemovesDatabases: a run leaves no database behind unless it keeps
// its files.
func TestRunRemovesDatabases(t *testing.T) {
	run := newRun(t)
	cfg := smallConfig(realEngines(t)[0])
	cfg.Commits, cfg.Rounds = 2, 1
	if _, err := Run(run, cfg, nil); err != nil {
		t.Fatal(err)
	}
	if names := dirtest.Names(t, run.Dir); len(names) != 0 {
		t.Errorf("files left in the run directory: %q", names)
	}
}

// TestSystemEngineLoopAllocatesNothing: with the system engine, a timed
// commit through the harness allocates nothing at all.
func TestSystemEngineLoopAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool, and so purego, allocate")
	}
	if !slices.Contains(realEngines(t), "system") {
		t.Skip("system engine not available here")
	}
	e, err := lookupEngine("system", drivers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.open(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := applyPragmas(c, drivers.Settings{JournalMode: "memory", Synchronous: "off", FullFsync: "0", CheckpointFullFsync: CheckpointDefault}); err != nil {
		t.Fatal(err)
	}
	stmts, err := createSchema(c)
	if err != nil {
		t.Fatal(err)
	}
	samples := measure.NewSamples(101 * 10)
	payload := make([]byte, 100)
	next := int64(1)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := stmts.commits(&next, 10, 2, payload, samples); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("system engine + harness: %v allocations per 10 commits, want 0", allocs)
	}
	if n, err := c.QueryInt(countRows); err != nil || n != 101*10*2 {
		t.Errorf("count = %d, %v; want %d", n, err, 101*10*2)
	}
}
