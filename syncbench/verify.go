package syncbench

import (
	"encoding/binary"
	"fmt"
	"os"
)

// verify reads back the stamp of every block the cursor wrote and the file's
// size, and checks them against what the writes must have left: block k of an
// append or fallocate file holds write k+1; an overwrite file's block holds
// the last write that wrapped onto it. It returns the number of writes whose
// effect it checked and the file's size.
func verify(path string, cur *cursor, spec fileSpec) (int, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("syncbench: verify: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("syncbench: verify: %w", err)
	}
	writes := int64(cur.writes)
	wantSize := writes * cur.bs
	if spec.state.FixedSize() {
		if st.Size() != spec.size {
			return 0, 0, fmt.Errorf("syncbench: verify %s: size %d, want the fixed %d it was made with", path, st.Size(), spec.size)
		}
	} else if st.Size() != wantSize {
		return 0, 0, fmt.Errorf("syncbench: verify %s: size %d after %d writes of %d bytes, want %d", path, st.Size(), writes, cur.bs, wantSize)
	}
	blocks := writes
	if spec.wrap {
		blocks = min(writes, spec.capacity/cur.bs)
	}
	var word [8]byte
	for k := range blocks {
		if _, err := f.ReadAt(word[:], k*cur.bs); err != nil {
			return 0, 0, fmt.Errorf("syncbench: verify %s block %d: %w", path, k, err)
		}
		want := uint64(k + 1)
		if spec.wrap {
			n := spec.capacity / cur.bs
			want = uint64(k + (writes-1-k)/n*n + 1) // the last write j ≡ k (mod n), 1-based
		}
		if got := binary.LittleEndian.Uint64(word[:]); got != want {
			return 0, 0, fmt.Errorf("syncbench: verify %s: block %d holds write %d, want write %d", path, k, got, want)
		}
	}
	return int(writes), st.Size(), nil
}
