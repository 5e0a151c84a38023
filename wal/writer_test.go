package wal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/dirtest"
	"github.com/durabench/durabench/syscalls"
)

// Every layout and I/O mode reads back exactly what was appended, in order,
// and fixed-size segments keep their size.
func TestAppendReadsBack(t *testing.T) {
	const segment = 1 << 20
	for _, io := range []IOMode{Buffered, Direct} {
		for _, layout := range layouts {
			t.Run(io.String()+"/"+layout.String(), func(t *testing.T) {
				o := testOptions(t, segment, layout, io)
				w := mustOpen(t, o)
				var want [][]byte
				for i, size := range []int{0, 1, 7, 8, 9, 100, 4095, 4096, 4097, 20000, 3} {
					p := testPayload(0, i, size)
					seq, err := w.Append(p)
					if err != nil {
						t.Fatal(err)
					}
					if seq != uint64(i+1) {
						t.Fatalf("Append %d returned seq %d", i, seq)
					}
					want = append(want, p)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				got, sum := replayAll(t, o.Dir)
				if !slices.EqualFunc(got, want, bytes.Equal) {
					t.Fatalf("read back %d records that differ from the %d appended", len(got), len(want))
				}
				if sum.Records != uint64(len(want)) || sum.FirstSeq != 1 || sum.LastSeq != uint64(len(want)) || sum.Segments != 1 {
					t.Errorf("summary %v", sum)
				}
				st, err := os.Stat(filepath.Join(o.Dir, SegmentName(1)))
				if err != nil {
					t.Fatal(err)
				}
				if layout.FixedSize() && st.Size() != segment {
					t.Errorf("a %s segment is %d bytes after the run, want %d", layout, st.Size(), segment)
				}
			})
		}
	}
}

// Direct I/O: every write starts at an aligned address and offset and has an
// aligned length, whatever the record sizes; the partial last block is
// rewritten in place by the next write.
func TestDirectWritesAreAligned(t *testing.T) {
	for _, align := range []int{4096, 8192} {
		var files []*recordingFile
		o := testOptions(t, 1<<20, fixtures.Fallocate, Direct)
		o.Alignment = align
		o.wrap = recorder(align, &files)
		w := mustOpen(t, o)
		const appended = 4 * 25
		var wg sync.WaitGroup
		for id := range 4 {
			wg.Go(func() {
				for i := range 25 {
					if _, err := w.Append(testPayload(id, i, 100+i*37+id)); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		calls := files[0].writes
		if len(calls) == 0 {
			t.Fatal("no writes recorded")
		}
		for _, c := range calls {
			if !c.aligned || c.off%int64(align) != 0 {
				t.Errorf("alignment %d: write of %d bytes at %d: buffer aligned %v, offset aligned %v",
					align, c.n, c.off, c.aligned, c.off%int64(align) == 0)
			}
		}
		for i := 1; i < len(calls); i++ {
			prevEnd := calls[i-1].off + int64(calls[i-1].n)
			if calls[i].off > prevEnd || calls[i].off < prevEnd-int64(align) {
				t.Errorf("write %d at %d does not start in the block the previous one ended in (%d)", i, calls[i].off, prevEnd)
			}
		}
		if got, _ := replayAll(t, o.Dir); len(got) != appended {
			t.Errorf("alignment %d: read back %d records, want %d", align, len(got), appended)
		}
	}
}

// Write amplification is exact. 1000-byte payloads take 1024-byte frames;
// with direct I/O each lone commit writes the one 4 KiB block it ends in.
// A payload that makes its frame a whole 16 KiB is written as exactly that,
// block after block, with nothing rewritten: the bytes of a bare loop.
func TestWriteAmplificationCounts(t *testing.T) {
	for _, tc := range []struct {
		io      IOMode
		payload int
		written int64
	}{
		{Buffered, 1000, 10 * 1024},
		{Direct, 1000, 10 * 4096},
		{Direct, 16384 - HeaderSize, 10 * 16384},
	} {
		var files []*recordingFile
		o := testOptions(t, 1<<20, fixtures.Initialized, tc.io)
		o.wrap = recorder(DefaultAlignment, &files)
		w := mustOpen(t, o)
		for i := range 10 {
			if _, err := w.Append(testPayload(0, i, tc.payload)); err != nil {
				t.Fatal(err)
			}
		}
		m := w.Metrics()
		w.Close()
		if m.PayloadBytes != int64(10*tc.payload) || m.WrittenBytes != tc.written || m.Writes != 10 {
			t.Errorf("%s, %d-byte payloads: payload %d, written %d in %d writes; want %d, %d in 10",
				tc.io, tc.payload, m.PayloadBytes, m.WrittenBytes, m.Writes, 10*tc.payload, tc.written)
		}
		if want := float64(tc.written) / float64(10*tc.payload); m.WriteAmplification() != want {
			t.Errorf("%s, %d-byte payloads: write amplification %v, want %v", tc.io, tc.payload, m.WriteAmplification(), want)
		}
		if tc.payload == 16384-HeaderSize {
			for i, c := range files[0].writes {
				if c.off != int64(i)*16384 || c.n != 16384 {
					t.Errorf("write %d: %d bytes at %d, want 16384 at %d", i, c.n, c.off, i*16384)
				}
			}
		}
	}
}

func TestMisalignedConfigurationIsRefused(t *testing.T) {
	dir := t.TempDir()
	base := Options{Dir: dir, SegmentSize: 1 << 20, Method: syscalls.Fdatasync, IOMode: Direct}
	for _, tc := range []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.Alignment = 1000 }, "alignment 1000 is not a power of two of at least 512"},
		{func(o *Options) { o.Alignment = 256 }, "alignment 256 is not a power of two of at least 512"},
		{func(o *Options) { o.SegmentSize = 1<<20 + 512 }, "segment size 1049088 is not a multiple of the alignment 4096"},
		{func(o *Options) { o.Method = syscalls.None }, "sync method none makes no sync call of its own"},
		{func(o *Options) { o.SegmentSize = 16 }, "segment size 16 cannot hold a record"},
	} {
		o := base
		tc.change(&o)
		w, err := Open(o)
		if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%+v) = %v, want an ErrOptions saying %q", o, err, tc.want)
		}
		if w != nil {
			w.Close()
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused options left %d files behind", len(entries))
	}
	// What the file system asks for direct I/O (statx on Linux) bounds the
	// alignment from below.
	err := checkDirectAlignment("seg", 512, 512, 4096)
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "file offsets and lengths aligned to 4096 bytes") {
		t.Errorf("alignment 512 on a 4096-byte device: %v", err)
	}
	if err := checkDirectAlignment("seg", 4096, 512, 512); err != nil {
		t.Errorf("alignment 4096 on a 512-byte device refused: %v", err)
	}
}

// Rotation: each segment takes what fits, the next is named after its
// first record, and every rotation is counted.
func TestSegmentsRotate(t *testing.T) {
	for _, io := range []IOMode{Buffered, Direct} {
		for _, layout := range layouts {
			o := testOptions(t, 8192, layout, io)
			w := mustOpen(t, o)
			for i := range 19 { // 1000-byte payloads: 1024-byte frames, 8 per segment
				if _, err := w.Append(testPayload(0, i, 1000)); err != nil {
					t.Fatal(err)
				}
			}
			m := w.Metrics()
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if m.Rotations != 2 {
				t.Errorf("%s/%s: %d rotations, want 2", io, layout, m.Rotations)
			}
			names := dirtest.Names(t, o.Dir)
			want := []string{SegmentName(1), SegmentName(9), SegmentName(17)}
			if !slices.Equal(names, want) {
				t.Errorf("%s/%s: segments %v, want %v", io, layout, names, want)
			}
			if got, sum := replayAll(t, o.Dir); len(got) != 19 || sum.Segments != 3 {
				t.Errorf("%s/%s: read back %d records from %d segments, want 19 from 3", io, layout, len(got), sum.Segments)
			}
		}
	}
}

// Write then Sync: three writes share one sync, which counts them as one
// group.
func TestWriteThenSyncSharesOneSync(t *testing.T) {
	w := mustOpen(t, testOptions(t, 1<<20, fixtures.Append, Buffered))
	defer w.Close()
	for i := range 3 {
		if _, err := w.Write(testPayload(0, i, 500)); err != nil {
			t.Fatal(err)
		}
	}
	if m := w.Metrics(); m.Writes != 3 || m.Syncs != 0 {
		t.Fatalf("after 3 writes: %d writes, %d syncs", m.Writes, m.Syncs)
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := w.Sync(); err != nil { // nothing new: no second sync call
		t.Fatal(err)
	}
	m := w.Metrics()
	if m.Writes != 3 || m.Syncs != 1 || m.MaxRecordsPerSync != 3 || m.RecordsPerSync() != 3 {
		t.Errorf("metrics %+v, want 3 writes and one sync of 3 records", m)
	}
}

// 64 concurrent writers share syncs: fewer syncs than records, and every
// record read back once.
func TestGroupCommitSharesSyncs(t *testing.T) {
	const writers, each = 64, 20
	o := testOptions(t, 4<<20, fixtures.Initialized, Buffered)
	w := mustOpen(t, o)
	var wg sync.WaitGroup
	for id := range writers {
		wg.Go(func() {
			for i := range each {
				if _, err := w.Append(testPayload(id, i, 1000)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	m := w.Metrics()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if m.SyncedRecords != writers*each || m.Syncs >= writers*each || m.MaxRecordsPerSync < 2 || m.RecordsPerSync() <= 1 {
		t.Errorf("%d syncs for %d records (mean %.2f, max %d per sync): no sync was shared",
			m.Syncs, m.SyncedRecords, m.RecordsPerSync(), m.MaxRecordsPerSync)
	}
	t.Logf("64 writers: %d syncs, %.1f records per sync (max %d)", m.Syncs, m.RecordsPerSync(), m.MaxRecordsPerSync)
	got, _ := replayAll(t, o.Dir)
	seen := map[[2]int]bool{}
	for _, p := range got {
		id, i := stampOf(p)
		if seen[[2]int{id, i}] || !bytes.Equal(p, testPayload(id, i, 1000)) {
			t.Fatalf("record (%d, %d) read back twice or altered", id, i)
		}
		seen[[2]int{id, i}] = true
	}
	if len(seen) != writers*each {
		t.Errorf("read back %d distinct records, want %d", len(seen), writers*each)
	}
}

// A batch limit cuts groups: with room for two frames, no write carries
// more, and callers wait rather than fail.
func TestMaxBatchBytesBoundsWrites(t *testing.T) {
	var files []*recordingFile
	o := testOptions(t, 1<<20, fixtures.Append, Buffered)
	o.MaxBatchBytes = 2 * 1024
	o.wrap = recorder(1, &files)
	w := mustOpen(t, o)
	var wg sync.WaitGroup
	for id := range 16 {
		wg.Go(func() {
			for i := range 10 {
				if _, err := w.Append(testPayload(id, i, 1000)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	w.Close()
	for _, c := range files[0].writes {
		if c.n > 2*1024 {
			t.Errorf("a write of %d bytes passed MaxBatchBytes 2048", c.n)
		}
	}
	if got, _ := replayAll(t, o.Dir); len(got) != 160 {
		t.Errorf("read back %d records, want 160", len(got))
	}
}

// A failed sync fails every caller whose record it was to make durable, and
// every later call, without another write: the writer cannot know what the
// kernel kept.
func TestFailedSyncIsFinal(t *testing.T) {
	var files []*recordingFile
	o := testOptions(t, 1<<20, fixtures.Append, Buffered)
	o.wrap = recorder(1, &files)
	w := mustOpen(t, o)
	if _, err := w.Append(testPayload(0, 0, 10)); err != nil {
		t.Fatal(err)
	}
	f := files[0]
	f.failFrom, f.failWith = f.syncs+1, syscall.EIO
	if _, err := w.Append(testPayload(0, 1, 10)); !errors.Is(err, ErrFailed) || !errors.Is(err, syscall.EIO) {
		t.Fatalf("Append after a failed sync = %v, want ErrFailed wrapping EIO", err)
	}
	writes := len(f.writes)
	if _, err := w.Append(testPayload(0, 2, 10)); !errors.Is(err, ErrFailed) {
		t.Errorf("Append on a failed writer = %v, want ErrFailed", err)
	}
	if err := w.Sync(); !errors.Is(err, ErrFailed) {
		t.Errorf("Sync on a failed writer = %v, want ErrFailed", err)
	}
	if len(f.writes) != writes {
		t.Errorf("a failed writer wrote %d more times", len(f.writes)-writes)
	}
	if err := w.Close(); !errors.Is(err, ErrFailed) {
		t.Errorf("Close of a failed writer = %v, want ErrFailed", err)
	}
}

func TestClosedAndOversized(t *testing.T) {
	o := testOptions(t, 4096, fixtures.Append, Buffered)
	w := mustOpen(t, o)
	if _, err := w.Append(make([]byte, MaxPayload(4096)+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a record larger than a segment: %v, want ErrTooLarge", err)
	}
	if _, err := w.Append(make([]byte, MaxPayload(4096))); err != nil {
		t.Errorf("a record that exactly fills a segment: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Append after Close = %v, want ErrClosed", err)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close = %v, want ErrClosed", err)
	}
	if _, err := Open(o); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("Open on an existing log = %v, want ErrNotEmpty", err)
	}
}

// The lone writer's commit allocates nothing, buffered or direct.
func TestAppendAllocatesNothing(t *testing.T) {
	for _, io := range []IOMode{Buffered, Direct} {
		w := mustOpen(t, testOptions(t, 64<<20, fixtures.Initialized, io))
		p := testPayload(0, 0, 16384-HeaderSize)
		if _, err := w.Append(p); err != nil { // the first frame may size the buffers
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(200, func() {
			if _, err := w.Append(p); err != nil {
				t.Fatal(err)
			}
		})
		write := testing.AllocsPerRun(100, func() {
			if _, err := w.Write(p); err != nil {
				t.Fatal(err)
			}
			if err := w.Sync(); err != nil {
				t.Fatal(err)
			}
		})
		w.Close()
		if allocs != 0 || write != 0 {
			t.Errorf("%s: Append allocates %v times, Write+Sync %v times per record", io, allocs, write)
		}
	}
}
