package wal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRecordDecode frames a fuzzed payload and checks the decoder against
// the format: the header reads back the fields written, the frame is
// 8-aligned with zero padding, its checksum holds, and any single flipped bit
// of the header or payload is caught (CRC-32C detects every 1-bit error).
// Arbitrary bytes decode into a header that encodes back to the same bytes.
func FuzzRecordDecode(f *testing.F) {
	f.Add([]byte("hello"), uint64(1), uint64(0), uint(0), []byte{})
	f.Add([]byte{}, uint64(7), uint64(6), uint(40), bytes.Repeat([]byte{0xff}, 24))
	f.Add(bytes.Repeat([]byte{0}, 33), uint64(1<<63), uint64(1<<62), uint(1000), []byte("garbage garbage garbage!"))
	f.Fuzz(func(t *testing.T, payload []byte, seq, synced uint64, flip uint, raw []byte) {
		if len(raw) >= HeaderSize {
			h := decodeHeader(raw)
			var back [HeaderSize]byte
			le := binary.LittleEndian
			le.PutUint32(back[0:], h.crc)
			le.PutUint32(back[4:], h.length)
			le.PutUint64(back[8:], h.seq)
			le.PutUint64(back[16:], h.synced)
			if !bytes.Equal(back[:], raw[:HeaderSize]) {
				t.Fatalf("decodeHeader(%x) = %+v, which encodes back as %x", raw[:HeaderSize], h, back)
			}
			if h.zero() != allZero(raw[:HeaderSize]) {
				t.Fatalf("zero() = %v for header bytes %x", h.zero(), raw[:HeaderSize])
			}
		}

		n := frameSize(len(payload))
		if n%FrameAlign != 0 || n < HeaderSize+len(payload) || n >= HeaderSize+len(payload)+FrameAlign {
			t.Fatalf("frameSize(%d) = %d: not the header and payload rounded up to %d", len(payload), n, FrameAlign)
		}
		frame := bytes.Repeat([]byte{0xa5}, n) // encode must clear the padding itself
		if got := encode(frame, payload, seq, synced); got != n {
			t.Fatalf("encode returned %d, frameSize %d", got, n)
		}
		h := decodeHeader(frame)
		if h.length != uint32(len(payload)) || h.seq != seq || h.synced != synced {
			t.Fatalf("decoded %+v, want length %d seq %d synced %d", h, len(payload), seq, synced)
		}
		if want := crc32.Checksum(frame[4:HeaderSize+len(payload)], crc32.MakeTable(crc32.Castagnoli)); h.crc != want {
			t.Fatalf("crc %#x, want CRC-32C of bytes 4..%d = %#x", h.crc, HeaderSize+len(payload), want)
		}
		if !h.valid(frame) {
			t.Fatal("a frame just encoded is not valid")
		}
		if !bytes.Equal(frame[HeaderSize:HeaderSize+len(payload)], payload) || !allZero(frame[HeaderSize+len(payload):]) {
			t.Fatalf("frame %x does not hold the payload %x followed by zero padding", frame, payload)
		}

		bit := flip % uint(8*(HeaderSize+len(payload)))
		frame[bit/8] ^= 1 << (bit % 8)
		h2 := decodeHeader(frame)
		if frameSize(int(h2.length)) > len(frame) {
			return // the reader stops at the file's end before it checks the CRC
		}
		if h2.valid(frame) {
			t.Fatalf("flipping bit %d of the frame went unnoticed", bit)
		}
	})
}

// FuzzReplay writes fuzzed bytes as a log's only segment, after `good` valid
// records and followed, when proofAt > 0, by one valid record framed with
// proofSeq and proofSynced at an 8-aligned offset. Replay must not panic,
// must hand over exactly the records the format's reading rules (written out
// again below, from format.go and replay.go) find, each with a valid CRC,
// and must stop where and why those rules stop; it may return ErrCorrupt only
// when a valid record beyond the stop proves the stopping point durable, and
// no other error.
func FuzzReplay(f *testing.F) {
	f.Add(uint8(0), []byte{}, uint16(0), uint64(0), uint64(0))
	f.Add(uint8(3), []byte{}, uint16(0), uint64(0), uint64(0))
	f.Add(uint8(3), make([]byte, 64), uint16(0), uint64(0), uint64(0))
	f.Add(uint8(2), []byte("torn"), uint16(0), uint64(0), uint64(0))
	f.Add(uint8(2), make([]byte, 40), uint16(3), uint64(9), uint64(3))
	f.Add(uint8(2), make([]byte, 40), uint16(3), uint64(9), uint64(2))
	f.Add(uint8(1), []byte{}, uint16(1), uint64(5), uint64(1))
	f.Add(uint8(4), bytes.Repeat([]byte{0xff}, 30), uint16(2), uint64(3), uint64(1))
	// One directory for every input, in memory where there is a tmpfs: a
	// directory made and removed per input spends the fuzzer's time waiting
	// on the disk.
	dir := f.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "walfuzz"); err == nil {
			dir = d
			f.Cleanup(func() { os.RemoveAll(d) })
		}
	}
	f.Fuzz(func(t *testing.T, good uint8, junk []byte, proofAt uint16, proofSeq, proofSynced uint64) {
		var data []byte
		var synced uint64
		for i := 1; i <= int(good%32); i++ {
			p := bytes.Repeat([]byte{byte(i)}, (i*13)%50)
			fr := make([]byte, frameSize(len(p)))
			encode(fr, p, uint64(i), synced)
			data = append(data, fr...)
			synced = uint64(i) / 2 * 2 // durable every second record
		}
		data = append(data, junk...)
		if proofAt > 0 {
			pad := int(proofAt%64) * FrameAlign
			for len(data)%FrameAlign != 0 {
				data = append(data, 0)
			}
			data = append(data, make([]byte, pad)...)
			p := []byte("proof")
			fr := make([]byte, frameSize(len(p)))
			encode(fr, p, proofSeq, proofSynced)
			data = append(data, fr...)
		}

		if err := os.WriteFile(filepath.Join(dir, SegmentName(1)), data, 0o644); err != nil {
			t.Fatal(err)
		}
		type rec struct {
			seq     uint64
			payload []byte
		}
		var got []rec
		sum, err := Replay(dir, func(seq uint64, p []byte) error {
			got = append(got, rec{seq, bytes.Clone(p)})
			return nil
		})

		// The model: read records from offset 0 as the format says.
		var want []rec
		off, expect := 0, uint64(1)
		var reason StopReason
		for {
			if off >= len(data) {
				reason = StopEnd
				break
			}
			hb := data[off:min(off+HeaderSize, len(data))]
			if allZero(hb) {
				reason = StopZeroed
				break
			}
			if len(hb) < HeaderSize {
				reason = StopTorn
				break
			}
			ok, seq, syn, length := frameAt(data, off)
			if seq == 0 || syn >= seq {
				reason = StopGarbled
				break
			}
			if uint64(off)+uint64(frameSize(int(length))) > uint64(len(data)) {
				reason = StopTorn
				break
			}
			if !ok {
				reason = StopGarbled
				break
			}
			if seq != expect {
				reason = StopSequence
				break
			}
			want = append(want, rec{seq, data[off+HeaderSize : off+HeaderSize+int(length)]})
			expect++
			off += frameSize(int(length))
		}
		// Corrupt when a valid record at or past the stop (frames skipped
		// whole) says the stopping point's record was durable.
		corrupt := false
		for o := off; o+HeaderSize <= len(data); o += FrameAlign {
			ok, _, syn, length := frameAt(data, o)
			if !ok {
				continue
			}
			if syn >= expect {
				corrupt = true
				break
			}
			o += frameSize(int(length)) - FrameAlign
		}

		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Replay returned %v; on a readable segment only ErrCorrupt may be returned", err)
		}
		if (err != nil) != corrupt {
			t.Fatalf("Replay error = %v; the format says corrupt=%v (stop at %d, expecting seq %d)", err, corrupt, off, expect)
		}
		if len(got) != len(want) {
			t.Fatalf("Replay passed %d records, the format finds %d", len(got), len(want))
		}
		for i := range got {
			if got[i].seq != want[i].seq || !bytes.Equal(got[i].payload, want[i].payload) {
				t.Fatalf("record %d: got seq %d %x, want seq %d %x", i, got[i].seq, got[i].payload, want[i].seq, want[i].payload)
			}
		}
		if sum.Records != uint64(len(want)) || sum.Segments != 1 ||
			sum.Tail.Offset != int64(off) || sum.Tail.Reason != reason {
			t.Fatalf("Summary %+v; want %d records, 1 segment, stop at %d: %s", sum, len(want), off, reason)
		}
		if len(want) > 0 && (sum.FirstSeq != 1 || sum.LastSeq != want[len(want)-1].seq) {
			t.Fatalf("Summary %+v: first/last seq wrong", sum)
		}
	})
}

// frameAt decodes the header at off in data (which must hold HeaderSize
// bytes there) and reports whether a whole frame with a matching CRC-32C
// starts there, computed directly on the bytes.
func frameAt(data []byte, off int) (ok bool, seq, synced uint64, length uint32) {
	le := binary.LittleEndian
	crc, length := le.Uint32(data[off:]), le.Uint32(data[off+4:])
	seq, synced = le.Uint64(data[off+8:]), le.Uint64(data[off+16:])
	end := uint64(off) + HeaderSize + uint64(length)
	if seq == 0 || synced >= seq || uint64(off)+uint64(frameSize(int(length))) > uint64(len(data)) {
		return false, seq, synced, length
	}
	return crc32.Checksum(data[off+4:end], crc32.MakeTable(crc32.Castagnoli)) == crc, seq, synced, length
}
