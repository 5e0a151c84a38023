package drivers

import (
	"path/filepath"
	"testing"
)

// BenchmarkCommit times single-row insert commits (BEGIN, INSERT of an
// int64 and a 100-byte blob, COMMIT, each a reused prepared statement) with
// journal_mode=MEMORY and synchronous=OFF: no sync and no journal file, so
// what is left is the engine's and its binding's CPU cost per commit, plus
// the write(2) of the database page and the lock calls.
func BenchmarkCommit(b *testing.B) {
	for _, e := range engineList(b) {
		b.Run("engine="+e.Name(), func(b *testing.B) {
			c := open(b, e, filepath.Join(b.TempDir(), "db"))
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
