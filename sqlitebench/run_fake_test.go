package sqlitebench

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/measure"
)

func newRun(t testing.TB) *fixtures.Run {
	t.Helper()
	run, err := fixtures.NewRun(t.TempDir(), "sqlitebench-test", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	return run
}

// smallConfig is a quick matrix on one engine.
func smallConfig(engine string) Config {
	return Config{
		Engines:             []string{engine},
		JournalModes:        []string{"delete", "wal"},
		Synchronous:         []string{"normal", "full"},
		FullFsync:           []string{"0"},
		CheckpointFullFsync: []string{CheckpointDefault},
		Commits:             20, Warmup: 3, Rounds: 2, RowsPerCommit: 2, RowBytes: 16,
	}
}

func TestLoopAllocatesNothing(t *testing.T) {
	c := newFakeConn()
	stmts, err := createSchema(c)
	if err != nil {
		t.Fatal(err)
	}
	const n, rows = 50, 3
	samples := measure.NewSamples(101 * n)
	payload := make([]byte, 100)
	next := int64(1)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := stmts.commits(&next, n, rows, payload, samples); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("the timed loop allocates %v times per %d commits, want 0", allocs, n)
	}
	want := 101 * n
	if samples.Len() != want || c.commits != want || c.rows != int64(want*rows) {
		t.Errorf("%d samples, %d commits, %d rows; want %d, %d, %d", samples.Len(), c.commits, c.rows, want, want, want*rows)
	}
	if c.outOfOrder || next != int64(want*rows+1) {
		t.Errorf("ids did not run on one by one: out of order %v, next %d", c.outOfOrder, next)
	}
}

func TestRunAsAsked(t *testing.T) {
	f := &fakeEngine{}
	cfg := smallConfig("modernc")
	out, err := runWith(newRun(t), cfg, nil, f.lookup)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 4 || len(out.Engines) != 1 {
		t.Fatalf("%d results, %d engines; want 4 and 1", len(out.Results), len(out.Engines))
	}
	// One connection for the defaults, then one per case and round.
	if want := 1 + 4*cfg.Rounds; len(f.conns) != want {
		t.Errorf("%d connections opened, want %d (a fresh database per case and round)", len(f.conns), want)
	}
	for _, c := range f.conns {
		if !c.closed {
			t.Error("a connection was left open")
		}
	}
	for _, r := range out.Results {
		if !r.AsAsked() || len(r.Notes) != 0 {
			t.Errorf("%s: notes %q, want none", r.Name(), r.Notes)
		}
		want := r.Asked
		want.CheckpointFullFsync = "0" // the fake's own value, left alone
		if r.Effective != want {
			t.Errorf("%s: effective %+v, want %+v", r.Name(), r.Effective, want)
		}
		if r.Total.N != cfg.Rounds*cfg.Commits || len(r.Rounds) != cfg.Rounds {
			t.Errorf("%s: %d samples over %d rounds", r.Name(), r.Total.N, len(r.Rounds))
		}
		for _, rd := range r.Rounds {
			if rd.Rows != int64((cfg.Warmup+cfg.Commits)*cfg.RowsPerCommit) {
				t.Errorf("%s: round checked %d rows", r.Name(), rd.Rows)
			}
		}
		if r.Version != "3.99.0" {
			t.Errorf("version %q", r.Version)
		}
	}
	recs := Records(cfg, out, "env1")
	if len(recs) != 4*(cfg.Rounds+1) {
		t.Fatalf("%d records, want %d", len(recs), 4*(cfg.Rounds+1))
	}
	wantKeys := []string{"engine", "sqlite_version", "journal_mode", "synchronous", "fullfsync", "checkpoint_fullfsync", "asked_checkpoint_fullfsync", "rows_per_commit", "row_bytes"}
	for _, rec := range recs {
		var keys []string
		for _, p := range rec.Params {
			keys = append(keys, p.Key)
		}
		if !slices.Equal(keys, wantKeys) {
			t.Errorf("params %q, want keys %q", keys, wantKeys)
		}
		if rec.Params.Get("asked_checkpoint_fullfsync") != CheckpointDefault || rec.Params.Get("checkpoint_fullfsync") != "0" {
			t.Errorf("checkpoint_fullfsync left alone recorded as %s", rec.Params)
		}
	}
}

// TestRunMarksRefusedPragma: SQLite keeps journal_mode=memory when asked
// for wal (as it does for a database that cannot use WAL). The case must be
// reported as memory, marked, and explained, never as wal.
func TestRunMarksRefusedPragma(t *testing.T) {
	f := &fakeEngine{setup: func(c *fakeConn) { c.refuse = map[string]string{"journal_mode=wal": "memory"} }}
	cfg := smallConfig("mattn")
	cfg.JournalModes = []string{"wal"}
	cfg.Synchronous = []string{"full"}
	out, err := runWith(newRun(t), cfg, nil, f.lookup)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Results[0]
	if r.AsAsked() || r.Effective.JournalMode != "memory" || r.Asked.JournalMode != "wal" {
		t.Fatalf("result %+v: want asked wal, effective memory, marked", r)
	}
	if want := []string{"asked journal_mode=wal, got memory"}; !slices.Equal(r.Notes, want) {
		t.Errorf("notes %q, want %q", r.Notes, want)
	}
	if m := r.Mismatches(); len(m) != 1 || m[0] != (Mismatch{"journal_mode", "wal", "memory"}) {
		t.Errorf("mismatches %+v", m)
	}

	for _, rec := range Records(cfg, out, "env1") {
		if rec.Params.Get("journal_mode") != "memory" || rec.Params.Get("asked_journal_mode") != "wal" {
			t.Errorf("record params %s: want journal_mode=memory, asked_journal_mode=wal", rec.Params)
		}
		if !slices.Contains(rec.Notes, "asked journal_mode=wal, got memory") {
			t.Errorf("record notes %q lack the refusal", rec.Notes)
		}
	}

	var buf bytes.Buffer
	if err := Report(&buf, cfg, out); err != nil {
		t.Fatal(err)
	}
	report := buf.String()
	for _, want := range []string{
		"\nmemory   full         ", // the row stands under the effective mode
		" *1  ",                    // the cell is marked
		"*1 asked journal_mode=wal synchronous=full fullfsync=0 checkpoint_fullfsync=default: asked journal_mode=wal, got memory",
		"mattn   memory*  full ", // the per-case line marks the value
		"Warning: 1 case(s) did not run as asked",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "\nwal ") {
		t.Errorf("the report shows a wal row although no case ran in WAL:\n%s", report)
	}
}

func TestRunNotesChangesWhileRunning(t *testing.T) {
	cfg := smallConfig("system")
	cfg.JournalModes, cfg.Synchronous = []string{"wal"}, []string{"full"}
	// synchronous drops to normal after the warm-up plus 5 timed commits.
	f := &fakeEngine{setup: func(c *fakeConn) {
		c.onCommit = func(c *fakeConn, n int) {
			if n == cfg.Warmup+5 {
				c.settings.Synchronous = "normal"
			}
		}
	}}
	out, err := runWith(newRun(t), cfg, nil, f.lookup)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Results[0]
	want := []string{
		"round 1: synchronous changed from full to normal during the timed commits",
		"round 2: synchronous changed from full to normal during the timed commits",
	}
	if !slices.Equal(r.Notes, want) || r.AsAsked() {
		t.Errorf("notes %q, want %q", r.Notes, want)
	}
}

func TestRunRefusesLostRows(t *testing.T) {
	f := &fakeEngine{setup: func(c *fakeConn) { c.short = 1 }}
	cfg := smallConfig("modernc")
	_, err := runWith(newRun(t), cfg, nil, f.lookup)
	want := "sqlitebench: modernc-delete-normal-ff0-ckptdefault, round 1: 45 rows after 23 commits of 2 rows each, want 46: commits were lost"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestMismatchesIgnoreDefaultCheckpoint(t *testing.T) {
	asked := drivers.Settings{JournalMode: "wal", Synchronous: "full", FullFsync: "1", CheckpointFullFsync: CheckpointDefault}
	got := drivers.Settings{JournalMode: "wal", Synchronous: "normal", FullFsync: "1", CheckpointFullFsync: "1"}
	if m := mismatches(asked, got); len(m) != 1 || m[0].String() != "asked synchronous=full, got normal" {
		t.Errorf("mismatches = %v", m)
	}
	asked.CheckpointFullFsync = "0"
	if m := mismatches(asked, got); len(m) != 2 || m[1].String() != "asked checkpoint_fullfsync=0, got 1" {
		t.Errorf("mismatches = %v", m)
	}
}

// WAL cases time WALCommits per round, the others Commits, and each
// round's row check counts its own.
func TestRunWALCommits(t *testing.T) {
	f := &fakeEngine{}
	cfg := smallConfig("modernc")
	cfg.WALCommits = 35
	out, err := runWith(newRun(t), cfg, nil, f.lookup)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Results {
		want := cfg.Commits
		if r.Asked.JournalMode == "wal" {
			want = cfg.WALCommits
		}
		if r.Total.N != want*cfg.Rounds {
			t.Errorf("%s: %d samples, want %d", r.Name(), r.Total.N, want*cfg.Rounds)
		}
		for _, rd := range r.Rounds {
			if rd.Rows != int64((cfg.Warmup+want)*cfg.RowsPerCommit) {
				t.Errorf("%s: %d rows checked, want %d", r.Name(), rd.Rows, (cfg.Warmup+want)*cfg.RowsPerCommit)
			}
		}
	}
}
