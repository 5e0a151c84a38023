package syscount

import (
	"errors"
	"os"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls/trace"
)

func TestPerOpOnCountsOnlyThatClass(t *testing.T) {
	c := trace.NewCounts("ptrace", nil)
	c.AddFileCall("/d/x.db", trace.ClassDB, "fsync", 3)
	c.AddFileCall("/d/x.db-journal", trace.ClassJournal, "fdatasync", 4)
	c.AddFileCall("/d/x.db-journal", trace.ClassJournal, "fsync", 2)
	c.AddFileCall("/d", trace.ClassDirectory, "fsync", 1)
	c.AddFileBytes("/d/x.db-journal", trace.ClassJournal, 1000)
	r := Result{Ops: 2, Counts: c}
	for _, tt := range []struct {
		class trace.Class
		names []string
		want  float64
	}{
		{trace.ClassJournal, SyncCalls, 3},
		{trace.ClassJournal, []string{"fsync"}, 1},
		{trace.ClassDB, SyncCalls, 1.5},
		{trace.ClassDirectory, SyncCalls, 0.5},
		{trace.ClassWAL, SyncCalls, 0},
	} {
		if got := r.PerOpOn(tt.class, tt.names...); got != tt.want {
			t.Errorf("PerOpOn(%s, %q) = %v, want %v", tt.class, tt.names, got, tt.want)
		}
	}
	if got := r.BytesPerOpOn(trace.ClassJournal); got != 500 {
		t.Errorf("BytesPerOpOn(journal) = %v, want 500", got)
	}
}

func TestFormatPerOp(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 1: "1", 4: "4", 0.5: "0.5", 0.09375: "0.0938", 0.003: "0.003", 0.004166: "0.00417",
		1.002: "1.002", 1.0833333: "1.0833", 1.5: "1.5", 1.00001: "1.00001", 12.345: "12.345",
		16384: "16384", 16408.5: "16408.5", 100.04: "100.04",
	} {
		if got := FormatPerOp(v); got != want {
			t.Errorf("FormatPerOp(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestDarwinSyncCallNames(t *testing.T) {
	if FullFsyncCall != "fcntl(F_FULLFSYNC)" || BarrierFsyncCall != "fcntl(F_BARRIERFSYNC)" {
		t.Errorf("darwin sync calls named %q and %q", FullFsyncCall, BarrierFsyncCall)
	}
}

func TestColumnName(t *testing.T) {
	for call, want := range map[string]string{"fsync": "fsync", FullFsyncCall: "F_FULLFSYNC", "fcntl(1234)": "1234"} {
		if got := ColumnName(call); got != want {
			t.Errorf("ColumnName(%q) = %q, want %q", call, got, want)
		}
	}
}

func TestReportPieces(t *testing.T) {
	for _, tc := range []struct{ n, most, batch, want int }{
		{2000, 500, 1, 500}, {2000, 500, 3, 498}, {100, 500, 4, 100}, {2, 500, 4, 4},
	} {
		if got := CapOps(tc.n, tc.most, tc.batch); got != tc.want {
			t.Errorf("CapOps(%d, %d, %d) = %d, want %d", tc.n, tc.most, tc.batch, got, tc.want)
		}
	}
	r := Result{Ops: 4, DeviceFlushes: 2, Counts: &trace.Counts{Syscalls: map[string]uint64{"fdatasync": 4, "fsync": 0}}}
	if got := r.FlushesText(); got != FormatPerOp(0.5) {
		t.Errorf("FlushesText = %q, want %q", got, FormatPerOp(0.5))
	}
	m := r.Metrics([]string{"fsync", "fdatasync"})
	if len(m) != 3 || m["counted_ops"] != 4 || m["calls_per_op.fdatasync"] != 1 || m["device_flushes_per_op"] != 0.5 {
		t.Errorf("Metrics = %v, want counted_ops 4, calls_per_op.fdatasync 1, device_flushes_per_op 0.5", m)
	}
	r.DeviceFlushes = -1
	if got := r.FlushesText(); got != "unknown" {
		t.Errorf("FlushesText without a counter = %q, want unknown", got)
	}
	if _, ok := r.Metrics(nil)["device_flushes_per_op"]; ok {
		t.Error("Metrics has device flushes without a counter")
	}
}

// TestServeChildRefusesOutsideCount: in a process Count did not start,
// ServeChild measures nothing and creates nothing.
func TestServeChildRefusesOutsideCount(t *testing.T) {
	dir := t.TempDir()
	called := false
	err := ServeChild(dir, func(*fixtures.Run, *Window) error { called = true; return nil })
	if !errors.Is(err, ErrNotChild) || called {
		t.Errorf("ServeChild = %v, measured %v; want ErrNotChild and nothing measured", err, called)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("ServeChild left %d entries in dir", len(entries))
	}
}

func TestFlushMismatch(t *testing.T) {
	res := func(flushes int64) Result {
		return Result{Ops: 10, DeviceFlushes: flushes, Counts: trace.NewCounts("ptrace", nil)}
	}
	for _, tc := range []struct {
		flushes         int64
		flushing, quiet string
		want            string
	}{
		{0, "x promises stable storage", "", "x promises stable storage but sent 0 flushes per write to the device: " + NoFlushReason},
		{10, "x promises stable storage", "", ""},
		{8, "", "x promises no durability", "x promises no durability yet the device saw 0.8 flushes per write: " + OtherFlushReason},
		{2, "", "x promises no durability", ""},
		{-1, "x promises stable storage", "", ""},
		{0, "", "", ""},
	} {
		if got := res(tc.flushes).FlushMismatch(tc.flushing, tc.quiet, "write"); got != tc.want {
			t.Errorf("%d flushes, %q/%q: %q, want %q", tc.flushes, tc.flushing, tc.quiet, got, tc.want)
		}
	}
}
