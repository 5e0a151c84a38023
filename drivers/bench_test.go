package drivers

import (
	"path/filepath"
	"testing"
)

// BenchmarkCommit times single-row insert commits (BEGIN, INSERT of an
// int64 and a 100-byte blob, COMMIT, each a reused prepared statement) with
// journal_mode=MEMORY and synchronous=OFF on a database file: no sync and no
// journal file, so what is left is the engine's and its binding's CPU cost
// per commit plus the pwrite of the page and the lock calls.
func BenchmarkCommit(b *testing.B) {
	benchmarkCommits(b, func(b *testing.B) string { return filepath.Join(b.TempDir(), "db") })
}

// BenchmarkCommitInMemory is BenchmarkCommit on a ":memory:" database: no
// system calls at all, only the engine and its binding.
func BenchmarkCommitInMemory(b *testing.B) {
	benchmarkCommits(b, func(*testing.B) string { return ":memory:" })
}

func benchmarkCommits(b *testing.B, path func(*testing.B) string) {
	for _, e := range engineList(b) {
		b.Run("engine="+e.Name(), func(b *testing.B) {
			c := open(b, e, path(b))
			for _, p := range [][2]string{{"journal_mode", "memory"}, {"synchronous", "off"}} {
				got, err := c.SetPragma(p[0], p[1])
				if err != nil || got != p[1] {
					b.Fatalf("SetPragma(%s, %s) = %q, %v", p[0], p[1], got, err)
				}
			}
			s := prepareCommits(b, c)
			payload := make([]byte, 100)
			id := int64(0)
			b.ReportAllocs()
			for b.Loop() {
				id++
				if err := s.one(id, payload); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if got := mustInt(b, c, "SELECT count(*) FROM t"); got != id {
				b.Fatalf("count(*) = %d after %d commits", got, id)
			}
		})
	}
}
