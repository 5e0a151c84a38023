package wal

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
)

// benchCapacity is a segment that holds n+1 frames of the given size, the
// +1 for the untimed first commit.
func benchCapacity(n, frame int) int64 {
	return int64(roundUp((n+1)*frame, DefaultAlignment))
}

// bareLog is a commit as bare system calls: one frame holding a payload,
// written into an initialized segment and made durable with fdatasync.
type bareLog struct {
	f            *syscalls.File
	buf, payload []byte
}

// openBare creates an initialized segment of capacity bytes for io, closed
// when the benchmark ends, and encodes the frame of payload.
func openBare(b *testing.B, io IOMode, capacity int64, payload []byte) *bareLog {
	b.Helper()
	path := filepath.Join(b.TempDir(), SegmentName(1))
	if err := fixtures.Create(path, fixtures.Initialized, capacity); err != nil {
		b.Fatal(err)
	}
	f, err := openSegment(path, Options{IOMode: io, Alignment: DefaultAlignment})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	buf := syscalls.AlignedBuffer(frameSize(len(payload)), DefaultAlignment)
	encode(buf, payload, 1, 0)
	return &bareLog{f: f, buf: buf, payload: payload}
}

// commit copies the payload into the frame (a log's commit carries new
// bytes each time), writes the frame at off and fdatasyncs.
func (l *bareLog) commit(b *testing.B, off int64) {
	copy(l.buf[HeaderSize:], l.payload)
	if err := l.f.Pwrite(l.buf, off); err != nil {
		b.Fatal(err)
	}
	if err := l.f.Sync(syscalls.Fdatasync); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCommit compares the Writer's single-writer commit with the bare
// system calls it makes: pwrite of the same 16 KiB frame at the same offset
// of an initialized file, then fdatasync. The difference is the writer's
// own cost (header, CRC-32C, locking, buffer hand-off).
//
// The bare loop copies the payload into its frame before each write, as a
// log must: a commit's bytes are new each time. Writing one cold buffer over
// and over is not the same I/O: here an O_DIRECT write of 16 KiB the CPU
// has just written took about 5 µs longer than of a buffer untouched since
// its last write.
func BenchmarkCommit(b *testing.B) {
	const frame = 16 << 10
	payload := testPayload(0, 0, frame-HeaderSize)
	for _, io := range []IOMode{Buffered, Direct} {
		b.Run("io="+io.String()+"/impl=writer", func(b *testing.B) {
			w, err := Open(Options{Dir: b.TempDir(), SegmentSize: benchCapacity(b.N, frame),
				Layout: fixtures.Initialized, Method: syscalls.Fdatasync, IOMode: io})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			if _, err := w.Append(payload); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(frame)
			b.ResetTimer()
			for range b.N {
				if _, err := w.Append(payload); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("io="+io.String()+"/impl=bare", func(b *testing.B) {
			l := openBare(b, io, benchCapacity(b.N, frame), payload)
			for i := range b.N + 1 {
				if i == 1 {
					b.SetBytes(frame)
					b.ResetTimer()
				}
				l.commit(b, int64(i)*frame)
			}
		})
	}
}

// BenchmarkCommitPaired times the same two commits as BenchmarkCommit, but
// alternately within each iteration (the order swapping every time), on two
// files in the same state. On a disk whose speed drifts from one second to
// the next, only pairs taken at the same moment compare: it reports each
// side's median and the ratio of the medians.
func BenchmarkCommitPaired(b *testing.B) {
	const frame = 16 << 10
	payload := testPayload(0, 0, frame-HeaderSize)
	for _, io := range []IOMode{Buffered, Direct} {
		b.Run("io="+io.String(), func(b *testing.B) {
			capacity := benchCapacity(b.N, frame)
			w, err := Open(Options{Dir: b.TempDir(), SegmentSize: capacity,
				Layout: fixtures.Initialized, Method: syscalls.Fdatasync, IOMode: io})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			l := openBare(b, io, capacity, payload)
			writer := func() {
				if _, err := w.Append(payload); err != nil {
					b.Fatal(err)
				}
			}
			off := int64(0)
			bare := func() {
				l.commit(b, off)
				off += frame
			}
			writer()
			bare()
			wns, bns := make([]int64, b.N), make([]int64, b.N)
			b.SetBytes(2 * frame)
			b.ResetTimer()
			for i := range b.N {
				first, second, fns, sns := writer, bare, wns, bns
				if i%2 == 1 {
					first, second, fns, sns = bare, writer, bns, wns
				}
				t0 := measure.Now()
				first()
				t1 := measure.Now()
				second()
				fns[i], sns[i] = t1-t0, measure.Now()-t1
			}
			b.StopTimer()
			wp50, bp50 := measure.Summarize(wns).P50, measure.Summarize(bns).P50
			b.ReportMetric(float64(wp50), "writer-p50-ns")
			b.ReportMetric(float64(bp50), "bare-p50-ns")
			b.ReportMetric(float64(wp50)/float64(bp50), "writer/bare")
		})
	}
}

// BenchmarkGroupCommit measures commits per second, all writers together,
// when 1 or 64 goroutines append 4 KiB records to one log, each waiting for
// its record to be durable: group commit is what the second figure buys.
func BenchmarkGroupCommit(b *testing.B) {
	const frame = 4 << 10
	for _, writers := range []int{1, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			w, err := Open(Options{Dir: b.TempDir(), SegmentSize: benchCapacity(b.N, frame),
				Layout: fixtures.Initialized, Method: syscalls.Fdatasync})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			payload := testPayload(0, 0, frame-HeaderSize)
			if _, err := w.Append(payload); err != nil {
				b.Fatal(err)
			}
			before := w.Metrics()
			var wg sync.WaitGroup
			b.SetBytes(frame)
			b.ResetTimer()
			start := time.Now()
			for id := range writers {
				n := b.N/writers + boolInt(id < b.N%writers)
				wg.Go(func() {
					for range n {
						if _, err := w.Append(payload); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			m := w.Metrics().Since(before)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "commits/s")
			b.ReportMetric(m.RecordsPerSync(), "records/sync")
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
