package wal

import (
	"fmt"
	"os"
)

// segmentReader reads one segment through a window, so that replaying a
// large segment holds only the window and the largest record in memory.
//
// Invariant: win holds the file's bytes [off, off+len(win)).
type segmentReader struct {
	f    *os.File
	size int64
	win  []byte
	off  int64
}

// windowSize is how much a segmentReader reads at a time.
const windowSize = 1 << 20

// recordOK is the StopReason-typed answer of record for a good frame; it is
// never a reason to stop, and never leaves this package.
const recordOK StopReason = 255

func openSegmentReader(path string) (*segmentReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("wal: replay: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("wal: replay: %w", err)
	}
	return &segmentReader{f: f, size: st.Size()}, nil
}

func (r *segmentReader) close() { r.f.Close() }

// at returns the file's bytes [off, off+n), or fewer if the file ends
// first. The slice is valid until the next call.
func (r *segmentReader) at(off int64, n int) ([]byte, error) {
	end := min(off+int64(n), r.size)
	if off >= end {
		return nil, nil
	}
	if off < r.off || end > r.off+int64(len(r.win)) {
		size := min(max(windowSize, end-off), r.size-off)
		if int64(cap(r.win)) < size {
			r.win = make([]byte, size)
		}
		r.win = r.win[:size]
		if _, err := r.f.ReadAt(r.win, off); err != nil {
			return nil, fmt.Errorf("wal: replay %s at %d: %w", r.f.Name(), off, err)
		}
		r.off = off
	}
	return r.win[off-r.off : end-r.off], nil
}

// record reads the frame at off. It returns recordOK with the header and
// the whole frame when a valid record starts there, and otherwise why not.
func (r *segmentReader) record(off int64) (header, []byte, StopReason, error) {
	hb, err := r.at(off, HeaderSize)
	switch {
	case err != nil:
		return header{}, nil, 0, err
	case len(hb) == 0:
		return header{}, nil, StopEnd, nil
	case allZero(hb):
		return header{}, nil, StopZeroed, nil
	case len(hb) < HeaderSize:
		return header{}, nil, StopTorn, nil
	}
	h := decodeHeader(hb)
	if h.seq == 0 || h.synced >= h.seq {
		return h, nil, StopGarbled, nil
	}
	size := frameSize(int(h.length))
	if int64(size) > r.size-off {
		return h, nil, StopTorn, nil
	}
	frame, err := r.at(off, size)
	if err != nil {
		return h, nil, 0, err
	}
	if !h.valid(frame) {
		return h, nil, StopGarbled, nil
	}
	return h, frame, recordOK, nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
