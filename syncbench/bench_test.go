package syncbench

import (
	"fmt"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
	"golang.org/x/sys/unix"
)

// BenchmarkNoneSample compares the harness's cost per `none` sample (a timed
// 4 KiB overwrite with nothing synced, recorded into the sample buffer) with
// a bare pwrite loop over the same offsets of the same file state. The
// difference is what the harness adds to every sample.
//
//	go test -run '^$' -bench NoneSample -count 10 ./syncbench/ | benchstat -col /impl -
func BenchmarkNoneSample(b *testing.B) {
	for _, bs := range []int64{4096, 65536} {
		for _, impl := range []string{"bare", "harness"} {
			b.Run(fmt.Sprintf("bs=%d/impl=%s", bs, impl), func(b *testing.B) {
				run := newBenchRun(b)
				c := Case{Workload: Overwrite, BlockSize: bs, Method: syscalls.None, Threads: 1}
				cfg := small()
				cfg.FileSize = 1 << 20 // small enough to stay in the page cache: no writeback pressure
				spec := cfg.fileSpec(run, c, 0, 0)
				tg, err := openTarget(spec, c.Method, c, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer tg.f.Close()
				s := measure.NewSamples(b.N)
				b.SetBytes(bs)
				b.ResetTimer()
				if impl == "bare" {
					cur := tg.cur
					for range b.N {
						off, _ := cur.next()
						if _, err := unix.Pwrite(tg.f.Fd, tg.buf, off); err != nil {
							b.Fatal(err)
						}
					}
					return
				}
				for range b.N {
					total, write, sync, err := tg.batch(1)
					if err != nil {
						b.Fatal(err)
					}
					s.Add(total, write, sync)
				}
			})
		}
	}
}

func newBenchRun(b *testing.B) *fixtures.Run {
	b.Helper()
	run, err := fixtures.NewRun(b.TempDir(), "bench", false)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { run.Close() })
	return run
}
