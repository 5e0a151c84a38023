package sqlitebench

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/syscount/syscounttest"
)

// The counting child: a test that counts through testCounter re-runs this
// test binary, and TestMain runs the one case it is given with its counting
// window marked, as durabench's hidden __count-sqlite does.
func TestMain(m *testing.M) {
	syscounttest.Main(m, func(run *fixtures.Run, cfg Config, window *syscount.Window) error {
		cfg.Marks = window
		_, err := Run(run, cfg, nil)
		return err
	})
}

func TestCountConfigIsOneCase(t *testing.T) {
	cfg := smallConfig("modernc")
	cfg.Engines = []string{"modernc", "system"}
	cfg.Skipped = []drivers.Status{{Name: "mattn", Reason: "no cgo"}}
	cfg.CheckpointFullFsync = []string{CheckpointDefault, "1"}
	cfg.Commits, cfg.Rounds = 5000, 3
	c := Case{Engine: "system", Asked: drivers.Settings{JournalMode: "wal", Synchronous: "normal", FullFsync: "0", CheckpointFullFsync: "1"}}
	cc := CountConfig(cfg, c)
	if err := cc.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := cc.cases(); len(got) != 1 || got[0] != c {
		t.Errorf("counting config's cases = %+v, want only %+v", got, c)
	}
	if cc.Rounds != 1 || cc.Commits != maxCountCommits || cc.Warmup != cfg.Warmup || cc.Skipped != nil {
		t.Errorf("rounds %d, commits %d, warm-up %d, skipped %v; want 1, %d, %d, none", cc.Rounds, cc.Commits, cc.Warmup, cc.Skipped, maxCountCommits, cfg.Warmup)
	}
	cfg.Commits = 50
	if cc := CountConfig(cfg, c); cc.Commits != 50 {
		t.Errorf("a run of 50 commits is counted over %d", cc.Commits)
	}
}

func TestCountClassifier(t *testing.T) {
	c := Case{Engine: "modernc", Asked: drivers.Settings{JournalMode: "delete", Synchronous: "full", FullFsync: "0", CheckpointFullFsync: CheckpointDefault}}
	classify := CountClassifier(c)
	db := "/any/where/durabench-count-1/" + c.dbName(0)
	for _, tt := range []struct {
		path  string
		isDir bool
		want  trace.Class
	}{
		{db, false, trace.ClassDB},
		{db + "-journal", false, trace.ClassJournal},
		{db + "-wal", false, trace.ClassWAL},
		{db + "-shm", false, trace.ClassSHM},
		{"/any/where/durabench-count-1", true, trace.ClassDirectory},
		{"/any/where/durabench-count-1/defaults-modernc.db", false, trace.ClassOther},
		{"/any/where/durabench-count-1/other-r1.db-journal", false, trace.ClassOther},
	} {
		if got := classify(tt.path, tt.isDir); got != tt.want {
			t.Errorf("classify(%q, %v) = %s, want %s", tt.path, tt.isDir, got, tt.want)
		}
	}
}

// marker notes, at each Start and Stop, how many commits the newest fake
// connection has made.
type marker struct {
	f     *fakeEngine
	marks []string
}

func (m *marker) commits() int { return m.f.conns[len(m.f.conns)-1].commits }
func (m *marker) Start()       { m.marks = append(m.marks, fmt.Sprintf("start after %d", m.commits())) }
func (m *marker) Stop(ops int) {
	m.marks = append(m.marks, fmt.Sprintf("stop after %d, %d ops", m.commits(), ops))
}

// TestMarksBracketTheTimedCommits: the counting window opens after the
// warm-up and closes after the timed commits, in every round of every case.
func TestMarksBracketTheTimedCommits(t *testing.T) {
	f := &fakeEngine{}
	m := &marker{f: f}
	cfg := smallConfig("modernc")
	cfg.Marks = m
	if _, err := runWith(newRun(t), cfg, nil, f.lookup); err != nil {
		t.Fatal(err)
	}
	var want []string
	for range 4 * cfg.Rounds {
		want = append(want, "start after 3", "stop after 23, 20 ops")
	}
	if !slices.Equal(m.marks, want) {
		t.Errorf("marks %q, want %q", m.marks, want)
	}
}

// counted builds a Count whose pass made calls (name → count on class)
// over ops commits.
func counted(c Case, ops int, flushes int64, calls map[trace.Class]map[string]uint64) Count {
	counts := trace.NewCounts("ptrace", nil)
	for class, byName := range calls {
		for name, n := range byName {
			counts.AddFileCall("/d/"+string(class), class, name, n)
			counts.Syscalls[name] += n
		}
	}
	return Count{Case: c, Result: syscount.Result{Ops: ops, Counts: counts, DeviceFlushes: flushes}}
}

func caseOf(engine, journal, sync, ff, ckpt string) Case {
	return Case{Engine: engine, Asked: drivers.Settings{JournalMode: journal, Synchronous: sync, FullFsync: ff, CheckpointFullFsync: ckpt}}
}

func TestCountReport(t *testing.T) {
	del := caseOf("system", "delete", "full", "0", CheckpointDefault)
	wal := caseOf("modernc", "wal", "normal", "1", CheckpointDefault)
	out := Outcome{
		Results: []Result{{Case: del, Effective: drivers.Settings{JournalMode: "delete", Synchronous: "full", FullFsync: "0", CheckpointFullFsync: "0"}}},
		Counts: []Count{
			counted(del, 50, 200, map[trace.Class]map[string]uint64{
				trace.ClassJournal:   {"fdatasync": 100},
				trace.ClassDirectory: {"fdatasync": 50},
				trace.ClassDB:        {"fdatasync": 50},
			}),
			counted(wal, 50, -1, map[trace.Class]map[string]uint64{trace.ClassDB: {"fsync": 1}}),
		},
	}
	var b strings.Builder
	if err := countReport(&b, out, "linux"); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	lines := strings.Split(got, "\n")
	wantLines := []string{
		"engine   journal  synchronous  fullfsync  fsync  fdatasync  F_FULLFSYNC  F_BARRIERFSYNC  db syncs  journal syncs  wal syncs  directory syncs  device flushes",
		"system   delete   full                 0      0          4            0               0         1              2          0                1               4",
		"modernc  wal      normal               1   0.02          0            0               0      0.02              0          0                0  unknown",
	}
	if len(lines) < 5 || lines[1] != wantLines[0] || lines[3] != wantLines[1] || lines[4] != wantLines[2] {
		t.Errorf("count table:\n%s\nwant the rows\n%s", got, strings.Join(wantLines, "\n"))
	}
	for _, want := range []string{"a separate traced pass of 50 commits per case", "the timing passes above were never traced", "0 on linux, where fullfsync changes no call"} {
		if !strings.Contains(got, want) {
			t.Errorf("count report lacks %q:\n%s", want, got)
		}
	}
	b.Reset()
	countReport(&b, out, "darwin")
	if strings.Contains(b.String(), "exist only on macOS") {
		t.Errorf("the darwin report says F_FULLFSYNC is missing:\n%s", b.String())
	}

	// An explicit checkpoint_fullfsync gets its column.
	out.Counts[1].Asked.CheckpointFullFsync = "1"
	b.Reset()
	countReport(&b, out, "linux")
	if !strings.Contains(b.String(), "fullfsync  checkpoint_fullfsync  fsync") {
		t.Errorf("no checkpoint_fullfsync column:\n%s", b.String())
	}
}

func TestRecordsCarryCounts(t *testing.T) {
	del := caseOf("system", "delete", "full", "0", CheckpointDefault)
	out := Outcome{
		Results: []Result{{Case: del, Rounds: []Round{{Samples: 1}}}},
		Counts: []Count{counted(del, 50, 200, map[trace.Class]map[string]uint64{
			trace.ClassJournal: {"fdatasync": 100}, trace.ClassDirectory: {"fsync": 50}, trace.ClassDB: {"fdatasync": 50},
		})},
	}
	recs := Records(smallConfig("system"), out, "env")
	if len(recs) != 2 {
		t.Fatalf("%d records, want a round and the pooled one", len(recs))
	}
	if len(recs[0].Metrics) != 2 {
		t.Errorf("a round's record carries counts: %v", recs[0].Metrics)
	}
	want := map[string]float64{
		"counted_ops": 50, "calls_per_op.fdatasync": 3, "calls_per_op.fsync": 1,
		"syncs_per_op.db": 1, "syncs_per_op.journal": 2, "syncs_per_op.wal": 0, "syncs_per_op.directory": 1,
		"device_flushes_per_op": 4,
	}
	for k, v := range want {
		if got, ok := recs[1].Metrics[k]; !ok || got != v {
			t.Errorf("pooled metric %s = %v (present %v), want %v", k, got, ok, v)
		}
	}
}

func TestCountWarnings(t *testing.T) {
	synced := counted(caseOf("modernc", "wal", "full", "0", CheckpointDefault), 10, 0, map[trace.Class]map[string]uint64{trace.ClassWAL: {"fsync": 10}})
	idle := counted(caseOf("modernc", "wal", "normal", "0", CheckpointDefault), 10, 8, nil)
	fine := counted(caseOf("modernc", "wal", "full", "1", CheckpointDefault), 10, 10, map[trace.Class]map[string]uint64{trace.ClassWAL: {"fsync": 10}})
	unknown := counted(caseOf("mattn", "wal", "full", "0", CheckpointDefault), 10, -1, map[trace.Class]map[string]uint64{trace.ClassWAL: {"fsync": 10}})
	got := CountWarnings([]Count{synced, idle, fine, unknown})
	want := []string{
		"modernc-wal-full-ff0-ckptdefault made 1 sync calls per commit but sent 0 flushes per commit to the device: its cache may be write-through, or a layer below (a VM, a file system option) drops flushes",
		"modernc-wal-normal-ff0-ckptdefault made no sync call yet the device saw 0.8 flushes per commit: another process on the same disk may be syncing",
	}
	if !slices.Equal(got, want) {
		t.Errorf("CountWarnings =\n%q\nwant\n%q", got, want)
	}
}
