package wal

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
)

var layouts = []fixtures.State{fixtures.Append, fixtures.Fallocate, fixtures.Initialized}

// testOptions are the options most tests start from: a new directory,
// fdatasync, and the given segment size, layout and I/O mode.
func testOptions(t *testing.T, size int64, layout fixtures.State, io IOMode) Options {
	t.Helper()
	return Options{Dir: t.TempDir(), SegmentSize: size, Layout: layout, Method: syscalls.Fdatasync, IOMode: io}
}

func mustOpen(t *testing.T, o Options) *Writer {
	t.Helper()
	w, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// testPayload is record i of writer id: both stamped in its first 16 bytes
// (as far as they fit), then a pattern that is never all zeros.
func testPayload(id, i, size int) []byte {
	p := make([]byte, size)
	fillTestPayload(p, id, i)
	return p
}

func fillTestPayload(p []byte, id, i int) {
	var stamp [16]byte
	binary.LittleEndian.PutUint64(stamp[:], uint64(id))
	binary.LittleEndian.PutUint64(stamp[8:], uint64(i))
	n := copy(p, stamp[:])
	for j := n; j < len(p); j++ {
		p[j] = byte(j*7 + id + i)
	}
}

// stampOf returns the writer id and index stamped by fillTestPayload.
func stampOf(p []byte) (id, i int) {
	return int(binary.LittleEndian.Uint64(p)), int(binary.LittleEndian.Uint64(p[8:]))
}

// replayAll replays dir and returns copies of every payload, failing the
// test on an error.
func replayAll(t *testing.T, dir string) ([][]byte, Summary) {
	t.Helper()
	var got [][]byte
	sum, err := Replay(dir, func(seq uint64, p []byte) error {
		if want := uint64(len(got)) + 1; seq != want {
			return fmt.Errorf("callback got seq %d, want %d", seq, want)
		}
		got = append(got, bytes.Clone(p))
		return nil
	})
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	return got, sum
}

// recordingFile wraps a segment file: it notes every write, checking it
// against the alignment, and fails syncs from a chosen call on.
type recordingFile struct {
	segmentFile
	align    int
	mu       sync.Mutex
	writes   []writeCall
	syncs    int
	failFrom int   // 1-based sync call that fails first; 0: none
	failWith error // the error those syncs return
}

type writeCall struct {
	aligned bool // address and length on the alignment
	off     int64
	n       int
}

// recorder returns an Options.wrap that keeps every file it wraps in files.
func recorder(align int, files *[]*recordingFile) func(segmentFile) segmentFile {
	return func(f segmentFile) segmentFile {
		r := &recordingFile{segmentFile: f, align: align}
		*files = append(*files, r)
		return r
	}
}

func (r *recordingFile) Pwrite(b []byte, off int64) error {
	r.mu.Lock()
	r.writes = append(r.writes, writeCall{syscalls.IsAligned(b, r.align), off, len(b)})
	r.mu.Unlock()
	return r.segmentFile.Pwrite(b, off)
}

func (r *recordingFile) Sync(m syscalls.Method) error {
	r.mu.Lock()
	r.syncs++
	fail := r.failFrom > 0 && r.syncs >= r.failFrom
	r.mu.Unlock()
	if fail {
		return r.failWith
	}
	return r.segmentFile.Sync(m)
}
