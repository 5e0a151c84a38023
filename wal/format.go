package wal

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
)

// The on-disk format.
//
// A log is a directory of segment files, each named by the sequence number
// of its first record as 20 decimal digits and ".wal"
// (00000000000000000001.wal), so that names sort in log order. A segment is
// a run of records from offset 0, each starting at a multiple of 8:
//
//	offset  size    field
//	0       4       crc     CRC-32C (Castagnoli) of bytes 4..24, then of the payload
//	4       4       length  payload bytes
//	8       8       seq     1 for the log's first record, then +1 per record, across segments
//	16      8       synced  the highest seq known durable when this record was framed; 0 for none
//	24      length  payload
//	        0..7    zero padding to the next multiple of 8
//
// Integers are little-endian. After its last record a segment ends, or
// holds zeros: preallocated space, or the padding of a direct-I/O block.
//
// Invariants:
//   - A frame is HeaderSize+length rounded up to 8 bytes, so every header
//     starts 8-byte aligned and each 8-byte word of it (crc|length, seq,
//     synced) lies inside one 512-byte sector: a torn write can garble a
//     header but never splice a length from two writes without failing the
//     CRC.
//   - seq is never 0, so an all-zero header is never a record: it marks
//     space that was never written.
//   - synced < seq, and synced never decreases along the log. Replay relies
//     on it to tell a torn tail from damage to durable data (replay.go).

const (
	// HeaderSize is the bytes of a record's header: crc, length, seq, synced.
	HeaderSize = 24
	// FrameAlign is the alignment of every record on disk: frames are padded
	// to a multiple of it.
	FrameAlign = 8
)

// castagnoli is the CRC-32C table; hash/crc32 uses the CPU's instruction for
// it on amd64 and arm64.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// frameSize returns the bytes a record with a payload of n bytes takes on
// disk: header, payload and padding.
func frameSize(n int) int { return (HeaderSize + n + FrameAlign - 1) &^ (FrameAlign - 1) }

// MaxPayload returns the largest payload a record may carry in a log whose
// segments hold segmentSize bytes: one frame must fit in a segment.
func MaxPayload(segmentSize int64) int {
	n := segmentSize&^(FrameAlign-1) - HeaderSize
	return int(max(0, min(n, int64(^uint32(0)))))
}

// encode frames payload as record seq into dst, which must hold
// frameSize(len(payload)) bytes, and returns the frame's size.
func encode(dst, payload []byte, seq, synced uint64) int {
	n := frameSize(len(payload))
	le := binary.LittleEndian
	le.PutUint32(dst[4:], uint32(len(payload)))
	le.PutUint64(dst[8:], seq)
	le.PutUint64(dst[16:], synced)
	copy(dst[HeaderSize:], payload)
	clear(dst[HeaderSize+len(payload) : n])
	le.PutUint32(dst[0:], checksum(dst[4:HeaderSize], payload))
	return n
}

// checksum is the record CRC: of the header after the crc field, then of the
// payload.
func checksum(header, payload []byte) uint32 {
	return crc32.Update(crc32.Update(0, castagnoli, header), castagnoli, payload)
}

// header is a decoded record header.
type header struct {
	crc    uint32
	length uint32
	seq    uint64
	synced uint64
}

// decodeHeader reads the header at the start of b, which holds at least
// HeaderSize bytes.
func decodeHeader(b []byte) header {
	le := binary.LittleEndian
	return header{crc: le.Uint32(b), length: le.Uint32(b[4:]), seq: le.Uint64(b[8:]), synced: le.Uint64(b[16:])}
}

// zero reports whether the header is all zeros: space never written.
func (h header) zero() bool { return h == header{} }

// valid reports whether frame (the header and the rest of the frame) holds
// a record whose checksum matches.
func (h header) valid(frame []byte) bool {
	return checksum(frame[4:HeaderSize], frame[HeaderSize:HeaderSize+int(h.length)]) == h.crc
}

// segmentSuffix ends every segment's file name.
const segmentSuffix = ".wal"

// SegmentName returns the file name of the segment whose first record is
// first.
func SegmentName(first uint64) string { return fmt.Sprintf("%020d%s", first, segmentSuffix) }

// parseSegmentName returns the first sequence number a segment's file name
// gives, or false if name is not a segment's.
// IsSegmentName reports whether name is the file name of a segment.
func IsSegmentName(name string) bool {
	_, ok := parseSegmentName(name)
	return ok
}

func parseSegmentName(name string) (uint64, bool) {
	digits, ok := strings.CutSuffix(name, segmentSuffix)
	if !ok || len(digits) != 20 {
		return 0, false
	}
	first, err := strconv.ParseUint(digits, 10, 64)
	return first, err == nil && first > 0
}
