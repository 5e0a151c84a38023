package walbench

import (
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount/syscounttest"
	"github.com/durabench/durabench/wal"
)

// testCounter counts a case the way durabench wal --count-syscalls does,
// with this test binary as the traced child (see TestMain).
func testCounter(t *testing.T, dir string) Counter {
	return syscounttest.Counter[Config](t, dir)
}

// calls is what a counting pass saw, in whole calls and bytes.
type calls struct {
	ops                                  int
	writes, bytes, fsync, fdatasync, dir uint64
}

func callsOf(c Count) calls {
	return calls{
		ops:       c.Ops,
		writes:    c.Counts.ByFile[trace.ClassWAL]["pwrite64"],
		bytes:     c.Counts.WriteBytesByFile[trace.ClassWAL],
		fsync:     c.Counts.Total("fsync"),
		fdatasync: c.Counts.Total("fdatasync"),
		dir:       c.Counts.ByFile[trace.ClassDirectory]["fsync"],
	}
}

// TestCountsPerCommit traces one writer through the real counting path:
// every commit is one pwrite of the record and one call of the method, in
// every layout and I/O mode, and nothing else; a batch is its records'
// writes and one sync; a rotation adds the new segment's fsync and its
// directory's. The writer's own counts (Metrics) are the ones reported for
// several writers, so they must agree with the kernel's.
func TestCountsPerCommit(t *testing.T) {
	dir := t.TempDir()
	env, err := envinfo.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	const records, bs = 48, 4096
	cfg := Config{
		Layouts: layouts, BlockSizes: []int64{bs}, IOModes: []wal.IOMode{wal.Buffered, wal.Direct},
		Methods:    []syscalls.Method{syscalls.Fsync, syscalls.Fdatasync},
		Iterations: records, Warmup: 8, Rounds: 1, FileSize: 1 << 20, SyncEvery: 1, Writers: []int{1, 4},
	}
	counts, err := CountAll(cfg, testCounter(t, dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 3 * 2 * 2; len(counts) != want {
		t.Fatalf("%d counts, want %d (one writer per layout, I/O mode and method)", len(counts), want)
	}
	for _, c := range counts {
		want := calls{ops: records, writes: records, bytes: records * bs, fdatasync: records}
		if c.Method == syscalls.Fsync {
			want.fsync, want.fdatasync = records, 0
		}
		if got := callsOf(c); got != want {
			t.Errorf("%s: counted %+v, want %+v", c.Name(), got, want)
		}
		if f := c.FlushesPerOp(); env.WriteCache == "write back" && f >= 0 && f < 1 {
			t.Errorf("%s: %v device flushes per commit, want at least one per sync", c.Name(), f)
		}
	}

	// Batches of 4, and rotations: 64 KiB append segments hold 16 records,
	// so 48 records after 8 of warm-up start 3 new segments inside the
	// window (records 17, 33 and 49).
	cfg = Config{
		Layouts: []fixtures.State{fixtures.Append}, BlockSizes: []int64{bs}, IOModes: []wal.IOMode{wal.Buffered, wal.Direct},
		Methods:    []syscalls.Method{syscalls.Fdatasync},
		Iterations: records, Warmup: 8, Rounds: 1, FileSize: 64 << 10, SyncEvery: 4, Writers: []int{1},
	}
	counts, err = CountAll(cfg, testCounter(t, dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range counts {
		want := calls{ops: records / 4, writes: records, bytes: records * bs, fdatasync: records / 4, fsync: 2 * 3, dir: 3}
		if got := callsOf(c); got != want {
			t.Errorf("%s, batches of 4 and rotations: counted %+v, want %+v", c.Name(), got, want)
		}
	}
	// The same cases timed, untraced: the writer counts the writes and
	// syncs the kernel saw.
	res, err := Run(newRun(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		got := callsOf(counts[i])
		if m := r.Metrics; m.Writes != got.writes || m.Syncs != got.fdatasync || m.Rotations != int(got.dir) {
			t.Errorf("%s: the writer counted %d writes, %d syncs, %d rotations; the kernel saw %d, %d, %d",
				r.Name(), m.Writes, m.Syncs, m.Rotations, got.writes, got.fdatasync, got.dir)
		}
	}
}
