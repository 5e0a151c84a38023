package wal

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durabench/durabench/fixtures"
)

// frame1000 is the frame size of the 1000-byte payloads these tests write.
const frame1000 = 1024

// writeLog appends n 1000-byte records to a new log in one segment and
// returns its directory and segment path.
func writeLog(t *testing.T, layout fixtures.State, n int) (dir, seg string) {
	t.Helper()
	o := testOptions(t, 1<<20, layout, Buffered)
	w := mustOpen(t, o)
	for i := range n {
		if _, err := w.Append(testPayload(0, i, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return o.Dir, filepath.Join(o.Dir, SegmentName(1))
}

// patch overwrites the segment's bytes at off.
func patch(t *testing.T, seg string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(seg, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// A torn or zeroed last record ends the log without an error, at the last
// good record, and Replay says where and why.
func TestReplayStopsAtTornTail(t *testing.T) {
	last := int64(9 * frame1000) // offset of the 10th record
	for _, tc := range []struct {
		name   string
		layout fixtures.State
		damage func(t *testing.T, seg string)
		good   uint64
		off    int64
		reason StopReason
	}{
		{"intact append", fixtures.Append, func(*testing.T, string) {}, 10, 10 * frame1000, StopEnd},
		{"intact fallocate", fixtures.Fallocate, func(*testing.T, string) {}, 10, 10 * frame1000, StopZeroed},
		{"truncated payload", fixtures.Append, func(t *testing.T, seg string) { os.Truncate(seg, last+500) }, 9, last, StopTorn},
		{"truncated header", fixtures.Append, func(t *testing.T, seg string) { os.Truncate(seg, last+10) }, 9, last, StopTorn},
		{"garbled payload", fixtures.Initialized, func(t *testing.T, seg string) { patch(t, seg, last+700, []byte{0xff}) }, 9, last, StopGarbled},
		{"garbled length", fixtures.Initialized, func(t *testing.T, seg string) { patch(t, seg, last+4, []byte{0x01, 0x01}) }, 9, last, StopGarbled},
		{"zeroed record", fixtures.Fallocate, func(t *testing.T, seg string) { patch(t, seg, last, make([]byte, frame1000)) }, 9, last, StopZeroed},
		{"zeroed header only", fixtures.Fallocate, func(t *testing.T, seg string) { patch(t, seg, last, make([]byte, HeaderSize)) }, 9, last, StopZeroed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, seg := writeLog(t, tc.layout, 10)
			tc.damage(t, seg)
			got, sum := replayAll(t, dir)
			if sum.Records != tc.good || sum.LastSeq != tc.good || uint64(len(got)) != tc.good {
				t.Errorf("read %d records up to seq %d, want %d", sum.Records, sum.LastSeq, tc.good)
			}
			want := Tail{Segment: seg, Offset: tc.off, Reason: tc.reason}
			if sum.Tail != want {
				t.Errorf("tail %+v, want %+v", sum.Tail, want)
			}
			for i, p := range got {
				if id, n := stampOf(p); id != 0 || n != i {
					t.Fatalf("record %d holds stamp (%d, %d)", i+1, id, n)
				}
			}
		})
	}
}

// Damage before the tail is an error when a later record proves the damaged
// one was durable: each Append syncs, so each record's synced field names
// the one before it.
func TestReplayRefusesDamageBeforeTail(t *testing.T) {
	dir, seg := writeLog(t, fixtures.Append, 10)
	patch(t, seg, 4*frame1000+100, []byte{0xff}) // record 5's payload
	_, err := Replay(dir, func(uint64, []byte) error { return nil })
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Replay of a log damaged at record 5 of 10 = %v, want ErrCorrupt", err)
	}
	for _, want := range []string{"after seq 4", "record 6", "offset 5120"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// A lost or damaged segment is caught by the next one, whose first record
// was framed after the rotation synced everything before it.
func TestReplayRefusesALostSegment(t *testing.T) {
	for _, damage := range []string{"remove", "garble"} {
		o := testOptions(t, 8192, fixtures.Fallocate, Buffered)
		w := mustOpen(t, o)
		for i := range 19 {
			if _, err := w.Append(testPayload(0, i, 1000)); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		middle := filepath.Join(o.Dir, SegmentName(9))
		if damage == "remove" {
			os.Remove(middle)
		} else {
			patch(t, middle, 3*frame1000+50, []byte{0xff})
		}
		if _, err := Replay(o.Dir, func(uint64, []byte) error { return nil }); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s the middle segment: Replay = %v, want ErrCorrupt", damage, err)
		}
	}
}

// Records written but never synced may persist past a torn one (a crash
// keeps any subset of unsynced sectors); their synced fields show they were
// not durable, so the log simply ends at the tear.
func TestReplayIgnoresUnsyncedRecordsPastATear(t *testing.T) {
	o := testOptions(t, 1<<20, fixtures.Append, Buffered)
	w := mustOpen(t, o)
	for i := range 8 {
		write := w.Append // records 1-5 each synced on its own
		if i >= 5 {
			write = w.Write // records 6-8 are framed while 5 is the last durable one
		}
		if _, err := write(testPayload(0, i, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	seg := filepath.Join(o.Dir, SegmentName(1))
	patch(t, seg, 5*frame1000+300, []byte{0xff}) // tear record 6
	_, sum := replayAll(t, o.Dir)
	if sum.LastSeq != 5 || sum.Tail.Reason != StopGarbled || sum.Tail.Offset != 5*frame1000 {
		t.Errorf("summary %v; want a clean stop after seq 5 at offset %d", sum, 5*frame1000)
	}
}

// The rule on hand-made frames: after a gap in the sequence, a record whose
// synced field does not reach the gap is a torn tail, one that does is
// corruption.
func TestReplaySequenceGap(t *testing.T) {
	for _, tc := range []struct {
		synced  uint64
		corrupt bool
	}{{2, false}, {3, true}} {
		dir := t.TempDir()
		var seg []byte
		for _, r := range []struct{ seq, synced uint64 }{{1, 0}, {2, 1}, {4, tc.synced}} {
			frame := make([]byte, frameSize(10))
			encode(frame, testPayload(0, int(r.seq), 10), r.seq, r.synced)
			seg = append(seg, frame...)
		}
		if err := os.WriteFile(filepath.Join(dir, SegmentName(1)), seg, 0o644); err != nil {
			t.Fatal(err)
		}
		sum, err := Replay(dir, func(uint64, []byte) error { return nil })
		if errors.Is(err, ErrCorrupt) != tc.corrupt {
			t.Errorf("seq 4 with synced %d: Replay = %v, corrupt should be %v", tc.synced, err, tc.corrupt)
		}
		if sum.LastSeq != 2 || sum.Tail.Reason != StopSequence {
			t.Errorf("seq 4 with synced %d: %v; want a stop after seq 2 on the sequence", tc.synced, sum)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	if _, err := Replay(t.TempDir(), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Replay of an empty directory = %v, want fs.ErrNotExist", err)
	}
	dir, _ := writeLog(t, fixtures.Append, 5)
	stop := errors.New("stop here")
	sum, err := Replay(dir, func(seq uint64, _ []byte) error {
		if seq == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || sum.Records != 2 {
		t.Errorf("callback error at seq 3: Replay = %v after %d records, want it wrapped after 2", err, sum.Records)
	}
}
