package syscount

import (
	"testing"

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
