package syscount

import (
	"bytes"
	"testing"

	"github.com/durabench/durabench/internal/golden"
	"github.com/durabench/durabench/syscalls/trace"
)

// sampleCounts returns counts like those of a DELETE-mode SQLite commit.
func sampleCounts() *trace.Counts {
	c := trace.NewCounts("ptrace", []string{"sqlite3", "/tmp/x.db"})
	c.Syscalls = map[string]uint64{"fdatasync": 4, "fcntl(F_SETLK)": 9, "pwrite64": 9, "openat": 3}
	c.WriteBytes = 16384
	c.OpenFlags["O_DSYNC"] = 1
	c.AddFileCall("/tmp/x.db-journal", trace.ClassJournal, "fdatasync", 2)
	c.AddFileCall("/tmp/x.db-journal", trace.ClassJournal, "pwrite64", 8)
	c.AddFileBytes("/tmp/x.db-journal", trace.ClassJournal, 12288)
	c.AddFileCall("/tmp", trace.ClassDirectory, "fdatasync", 1)
	c.AddFileCall("/tmp/x.db", trace.ClassDB, "fdatasync", 1)
	c.AddFileCall("/tmp/x.db", trace.ClassDB, "fcntl(F_SETLK)", 9)
	c.AddFileCall("/tmp/x.db", trace.ClassDB, "pwrite64", 1)
	c.AddFileBytes("/tmp/x.db", trace.ClassDB, 4096)
	c.AddFileCall("/tmp/log", trace.ClassOther, "O_DSYNC", 1)
	c.Exit = trace.ExitStatus{Code: -1, Signal: "SIGSEGV", CoreDumped: true}
	c.Notes = []string{"io_uring in use"}
	return c
}

// TestWriteCountsGolden: the trace report, laid out by results.Table.
func TestWriteCountsGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCounts(&b, sampleCounts()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "counts.golden", b.Bytes())
}

func TestShellJoin(t *testing.T) {
	got := shellJoin([]string{"sqlite3", "/tmp/x.db", "insert into t values('a');", ""})
	want := `sqlite3 /tmp/x.db 'insert into t values('\''a'\'');' ''`
	if got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
}
