package walbench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/syscount/syscounttest"
	"github.com/durabench/durabench/wal"
)

// The counting child: a test that counts through testCounter re-runs this
// test binary, and TestMain runs the one case it is given with its counting
// window marked, as durabench's hidden __count-wal does.
func TestMain(m *testing.M) {
	syscounttest.Main(m, func(run *fixtures.Run, cfg Config, window *syscount.Window) error {
		cfg.Marks = window
		_, err := Run(run, cfg, nil)
		return err
	})
}

func TestCountConfigIsOneWriterOfOneCase(t *testing.T) {
	cfg := smallConfig()
	cfg.Iterations, cfg.Warmup, cfg.SyncEvery, cfg.Writers, cfg.FileSize = 2001, 99, 3, []int{1}, 64<<20
	c := Case{Layout: fixtures.Fallocate, BlockSize: 4096, IOMode: wal.Direct, Method: syscalls.Fdatasync, Writers: 1, SyncEvery: 3, SegmentSize: cfg.SegmentSize(4096)}
	cc := CountConfig(cfg, c)
	if err := cc.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := cc.cases(); len(got) != 1 || got[0] != c {
		t.Errorf("counting config's cases = %+v, want only %+v", got, c)
	}
	if cc.Rounds != 1 || cc.Iterations != 498 || cc.Warmup != 99 {
		t.Errorf("rounds %d, iterations %d, warm-up %d; want 1, 498 (whole batches of 3 up to %d), 99", cc.Rounds, cc.Iterations, cc.Warmup, maxCountRecords)
	}
	// The size sweep sizes segments by the records of a round: the
	// counting pass keeps the timed pass's segment.
	cfg.FileSize, cfg.SyncEvery, cfg.Iterations = 0, 1, 2000
	c.SyncEvery, c.SegmentSize = 1, cfg.SegmentSize(4096)
	if cc := CountConfig(cfg, c); cc.cases()[0] != c {
		t.Errorf("size sweep: counting case %+v, want %+v", cc.cases()[0], c)
	}
}

func TestSegmentClassifier(t *testing.T) {
	for _, tt := range []struct {
		path  string
		isDir bool
		want  trace.Class
	}{
		{"/log/" + wal.SegmentName(1), false, trace.ClassWAL},
		{"/log/" + wal.SegmentName(12345), false, trace.ClassWAL},
		{"/log", true, trace.ClassDirectory},
		{"/log/notes.wal", false, trace.ClassOther},
		{"/log/x.db-wal", false, trace.ClassOther},
	} {
		if got := SegmentClassifier(tt.path, tt.isDir); got != tt.want {
			t.Errorf("SegmentClassifier(%q, %v) = %s, want %s", tt.path, tt.isDir, got, tt.want)
		}
	}
}

// sizeMarker notes, at each Start and Stop, how many bytes the append
// segments under dir hold.
type sizeMarker struct {
	dir   string
	marks []string
}

func (m *sizeMarker) bytes() int64 {
	paths, _ := filepath.Glob(filepath.Join(m.dir, "*", "*.wal"))
	var n int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}
func (m *sizeMarker) Start() { m.marks = append(m.marks, fmt.Sprintf("start at %d", m.bytes())) }
func (m *sizeMarker) Stop(ops int) {
	m.marks = append(m.marks, fmt.Sprintf("stop at %d, %d ops", m.bytes(), ops))
}

// TestMarksBracketTheTimedCommits: the counting window opens after the
// warm-up and closes after the timed commits, for one writer (whose commit
// is a batch) and for several (whose commit is an Append).
func TestMarksBracketTheTimedCommits(t *testing.T) {
	run := newRun(t)
	m := &sizeMarker{dir: run.Dir}
	cfg := Config{Layouts: []fixtures.State{fixtures.Append}, BlockSizes: []int64{4096}, IOModes: []wal.IOMode{wal.Buffered},
		Methods: []syscalls.Method{syscalls.Fdatasync}, Iterations: 40, Warmup: 8, Rounds: 1, FileSize: 1 << 20, SyncEvery: 4, Writers: []int{1}, Marks: m}
	if _, err := Run(run, cfg, nil); err != nil {
		t.Fatal(err)
	}
	cfg.SyncEvery, cfg.Writers = 1, []int{4}
	if _, err := Run(run, cfg, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"start at 32768", "stop at 196608, 10 ops", "start at 32768", "stop at 196608, 40 ops"}
	if !slices.Equal(m.marks, want) {
		t.Errorf("marks %q, want %q", m.marks, want)
	}
}

// counted builds a one-writer Count of case c whose pass made calls
// (name → count on class) and wrote bytes to segments over ops commits.
func counted(c Case, ops int, bytes uint64, flushes int64, calls map[trace.Class]map[string]uint64) Count {
	counts := trace.NewCounts("ptrace", nil)
	for class, byName := range calls {
		for name, n := range byName {
			counts.AddFileCall("/log/"+string(class), class, name, n)
			counts.Syscalls[name] += n
		}
	}
	counts.AddFileBytes("/log/"+wal.SegmentName(1), trace.ClassWAL, bytes)
	return Count{Case: c, Result: syscount.Result{Ops: ops, Counts: counts, DeviceFlushes: flushes}}
}

func TestCountReportAndRecords(t *testing.T) {
	cfg := smallConfig()
	cfg.Writers = []int{1, 4}
	c := Case{Layout: fixtures.Append, BlockSize: 4096, IOMode: wal.Buffered, Method: syscalls.Fdatasync, Writers: 1, SyncEvery: 1, SegmentSize: 1 << 20}
	count := counted(c, 64, 64*4096, 70, map[trace.Class]map[string]uint64{
		trace.ClassWAL:       {"pwrite64": 64, "fdatasync": 64, "fsync": 3},
		trace.ClassDirectory: {"fsync": 3},
	})
	var b strings.Builder
	if err := countReport(&b, cfg, []Count{count}, "linux"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	wantLines := []string{
		"System calls per commit of one writer, from a separate traced pass of 64 records per case (counts only; the timing passes above were never traced)",
		"layout  size  io        method     writes  bytes written   fsync  fdatasync  directory syncs  device flushes",
		"append  4K    buffered  fdatasync       1           4096  0.0938          1           0.0469          1.0938",
	}
	if len(lines) < 4 || lines[0] != wantLines[0] || lines[1] != wantLines[1] || lines[3] != wantLines[2] {
		t.Errorf("count table:\n%s\nwant\n%s", b.String(), strings.Join(wantLines, "\n"))
	}
	if !strings.Contains(b.String(), "Counted with one writer") {
		t.Errorf("a run with several writers does not say the count has one:\n%s", b.String())
	}
	b.Reset()
	countReport(&b, cfg, []Count{count}, "darwin")
	if !strings.Contains(b.String(), "fdatasync  F_FULLFSYNC  F_BARRIERFSYNC  directory syncs") {
		t.Errorf("a darwin report lacks the fcntl sync columns:\n%s", b.String())
	}

	four := Result{Case: c}
	four.Writers = 4
	recs := Records([]Result{{Case: c}, four}, []Count{count}, "env")
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2 pooled", len(recs))
	}
	want := map[string]float64{"counted_ops": 64, "writes_per_op": 1, "write_bytes_per_op": 4096, "calls_per_op.fdatasync": 1,
		"calls_per_op.fsync": 6.0 / 64, "syncs_per_op.directory": 3.0 / 64, "device_flushes_per_op": 70.0 / 64}
	for k, v := range want {
		if got, ok := recs[0].Metrics[k]; !ok || got != v {
			t.Errorf("one writer's pooled metric %s = %v (present %v), want %v", k, got, ok, v)
		}
		if _, ok := recs[1].Metrics[k]; ok {
			t.Errorf("the 4-writer case carries the one-writer count %s", k)
		}
	}
}

func TestCountWarnings(t *testing.T) {
	c := Case{Layout: fixtures.Initialized, BlockSize: 16384, IOMode: wal.Direct, Method: syscalls.Fdatasync, Writers: 1, SyncEvery: 1}
	silent := counted(c, 10, 0, 0, nil)
	unknown := counted(c, 10, 0, -1, nil)
	fine := counted(c, 10, 0, 10, nil)
	got := CountWarnings([]Count{silent, unknown, fine})
	want := []string{"initialized 16K direct fdatasync promises stable storage but sent 0 flushes per commit to the device: its cache may be write-through, or a layer below (a VM, a file system option) drops flushes"}
	if !slices.Equal(got, want) {
		t.Errorf("CountWarnings = %q, want %q", got, want)
	}
}
