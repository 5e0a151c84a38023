package wal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Recovery. Replay reads the records in log order and stops at the first
// position that does not hold the next record: the end of the last segment,
// an all-zero header, a record cut short by the end of its file, a garbled
// header or failed checksum, or a sequence number out of order. A segment
// that ends (EOF or zeros) hands over to the next segment when that one is
// named after the next sequence number.
//
// The rule that tells a torn tail from damage: the stopping point is the
// log's tail, and Replay returns no error, unless a record beyond it (a
// valid frame anywhere later in the log) carries a synced field at or past
// the stopping point's sequence number. Such a record proves that the
// record which belongs at the stopping point had been made durable, so its
// loss is damage to durable data, and Replay returns ErrCorrupt.
//
// Why the rule is sound under the writer's storage assumptions (see the
// package doc, and docs/design/wal-format.md): a crash can lose or tear only bytes not yet synced, in any order
// and any subset of sectors. The record at the stopping point was then not
// durable, so no later record can have been framed after it became durable,
// and valid records after it (unsynced writes that happened to persist) are
// part of the same torn tail and are ignored. A valid record after a hole
// is therefore an error only when it proves the hole was durable, which a
// simpler "no valid record may follow" rule could not tell apart from an
// ordinary power cut.

// StopReason says why Replay stopped where it did.
type StopReason uint8

// The reasons, from the normal end of a log to signs of a torn write.
const (
	StopEnd      StopReason = iota // the last segment ends right after a record
	StopZeroed                     // an all-zero header: space never written
	StopTorn                       // a record cut short by the end of its file
	StopGarbled                    // a header that cannot start a record, or a checksum mismatch
	StopSequence                   // a valid record with the wrong sequence number
)

var stopNames = []string{
	StopEnd:      "end of segment",
	StopZeroed:   "zeroed header",
	StopTorn:     "record cut short by end of file",
	StopGarbled:  "garbled header or checksum mismatch",
	StopSequence: "sequence number out of order",
}

// String describes the reason.
func (r StopReason) String() string {
	if int(r) < len(stopNames) {
		return stopNames[r]
	}
	return fmt.Sprintf("stop(%d)", uint8(r))
}

// Tail is where Replay found the end of a log.
type Tail struct {
	Segment string // path of the segment it stopped in
	Offset  int64  // offset there of the first byte that is not the next record
	Reason  StopReason
}

// Summary is what Replay read.
type Summary struct {
	Segments int    // segments opened
	Records  uint64 // records passed to the callback
	FirstSeq uint64 // first record's sequence number; 0 if none
	LastSeq  uint64 // last good record's sequence number; 0 if none
	Tail     Tail
}

// String says what was read and where it stopped.
func (s Summary) String() string {
	return fmt.Sprintf("%d records (seq %d..%d) in %d segments; stopped in %s at offset %d after seq %d: %s",
		s.Records, s.FirstSeq, s.LastSeq, s.Segments, filepath.Base(s.Tail.Segment), s.Tail.Offset, s.LastSeq, s.Tail.Reason)
}

// ErrCorrupt is wrapped when a log is damaged before its tail: a record
// known durable cannot be read.
var ErrCorrupt = errors.New("wal: log corrupt")

// Replay reads the log in dir, calling fn with each record in sequence
// order; payload is valid only during the call. It returns what it read and
// where the log ends. A torn or zeroed tail is the normal end of a log after
// a crash and is not an error; damage before the tail is ErrCorrupt (see the
// rule at the top of replay.go). An error from fn stops Replay and is
// returned wrapped.
func Replay(dir string, fn func(seq uint64, payload []byte) error) (Summary, error) {
	segs, err := listSegments(dir)
	if err != nil {
		return Summary{}, err
	}
	var sum Summary
	expect := segs[0].first
	for i, s := range segs {
		sum.Segments++
		off, reason, err := readSegment(s.path, &expect, fn, &sum)
		if err != nil {
			return sum, err
		}
		ended := reason == StopEnd || reason == StopZeroed
		if ended && i+1 < len(segs) && segs[i+1].first == expect {
			continue
		}
		sum.Tail = Tail{Segment: s.path, Offset: off, Reason: reason}
		return sum, checkBeyond(segs[i:], off, expect, sum)
	}
	panic("unreachable: the last segment always stops Replay")
}

// segmentRef is a segment file and the first sequence number its name gives.
type segmentRef struct {
	path  string
	first uint64
}

// listSegments returns dir's segments in log order.
func listSegments(dir string) ([]segmentRef, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("wal: replay: %w", err)
	}
	var segs []segmentRef
	for _, e := range entries {
		if first, ok := parseSegmentName(e.Name()); ok && e.Type().IsRegular() {
			segs = append(segs, segmentRef{filepath.Join(dir, e.Name()), first})
		}
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("wal: replay: no segment (*%s) in %s: %w", segmentSuffix, dir, fs.ErrNotExist)
	}
	slices.SortFunc(segs, func(a, b segmentRef) int { return compare(a.first, b.first) })
	return segs, nil
}

func compare(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// readSegment passes the segment's records to fn while each is the one
// expected, advancing *expect and sum, and returns where and why it stopped.
func readSegment(path string, expect *uint64, fn func(uint64, []byte) error, sum *Summary) (int64, StopReason, error) {
	r, err := openSegmentReader(path)
	if err != nil {
		return 0, 0, err
	}
	defer r.close()
	var off int64
	for {
		h, frame, reason, err := r.record(off)
		if err != nil {
			return off, 0, err
		}
		if reason != recordOK {
			return off, reason, nil
		}
		if h.seq != *expect {
			return off, StopSequence, nil
		}
		if err := fn(h.seq, frame[HeaderSize:HeaderSize+int(h.length)]); err != nil {
			return off, 0, fmt.Errorf("wal: replay %s, record %d: %w", path, h.seq, err)
		}
		if sum.Records == 0 {
			sum.FirstSeq = h.seq
		}
		sum.Records++
		sum.LastSeq = h.seq
		*expect = h.seq + 1
		off += int64(len(frame))
	}
}

// checkBeyond looks past the tail, at off in segs[0] and in every later
// segment, for a valid record whose synced field reaches stop, the sequence
// number the tail should have held; finding one means the log is corrupt.
func checkBeyond(segs []segmentRef, off int64, stop uint64, sum Summary) error {
	for i, s := range segs {
		if i > 0 {
			off = 0
		}
		proof, at, err := findSyncedFrom(s.path, off, stop)
		if err != nil {
			return err
		}
		if proof.seq != 0 {
			return fmt.Errorf("%w: the log stops in %s at offset %d after seq %d (%s), but record %d in %s at offset %d was framed after seq %d was durable; data synced before a crash was lost or damaged",
				ErrCorrupt, filepath.Base(sum.Tail.Segment), sum.Tail.Offset, sum.LastSeq, sum.Tail.Reason,
				proof.seq, filepath.Base(s.path), at, proof.synced)
		}
	}
	return nil
}

// findSyncedFrom scans a segment from off, at every 8-byte boundary that is
// not inside a valid frame, for a valid record whose synced field is at
// least stop. It returns that record's header and offset, or a zero header.
func findSyncedFrom(path string, off int64, stop uint64) (header, int64, error) {
	r, err := openSegmentReader(path)
	if err != nil {
		return header{}, 0, err
	}
	defer r.close()
	for ; off+HeaderSize <= r.size; off += FrameAlign {
		h, frame, reason, err := r.record(off)
		if err != nil {
			return header{}, 0, err
		}
		if reason != recordOK {
			continue
		}
		if h.synced >= stop {
			return h, off, nil
		}
		off += int64(len(frame)) - FrameAlign // skip the frame: its payload may hold anything
	}
	return header{}, 0, nil
}

// Segments returns the paths of dir's segment files in log order, or an
// error wrapping fs.ErrNotExist if dir holds none.
func Segments(dir string) ([]string, error) {
	segs, err := listSegments(dir)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(segs))
	for i, s := range segs {
		paths[i] = s.path
	}
	return paths, nil
}
