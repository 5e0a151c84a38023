package walbench

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/wal"
)

// The read-back. Every benchmark payload is the same pattern with a stamp
// in its first stampSize bytes: the writer and the writer's own record
// number. After a round, Replay must return every record of every writer
// exactly once, each intact, and nothing else.

// stampSize is the bytes of identity at the start of each payload.
const stampSize = 16

// stamp writes writer id and its record number i into p.
func stamp(p []byte, id, i int) {
	binary.LittleEndian.PutUint64(p, uint64(id))
	binary.LittleEndian.PutUint64(p[8:], uint64(i))
}

// verifier checks records as Replay passes them.
type verifier struct {
	pattern []byte
	seen    [][]bool // per writer, per record number
	records uint64
}

// newVerifier expects records of payload bytes, counts[i] of them from
// writer i.
func newVerifier(payload int, counts []int) *verifier {
	v := &verifier{pattern: runner.Payload(payload)}
	for _, n := range counts {
		v.seen = append(v.seen, make([]bool, n))
	}
	return v
}

func (v *verifier) check(seq uint64, p []byte) error {
	if len(p) != len(v.pattern) || !bytes.Equal(p[stampSize:], v.pattern[stampSize:]) {
		return fmt.Errorf("record %d holds %d bytes that are not what was written", seq, len(p))
	}
	id, i := binary.LittleEndian.Uint64(p), binary.LittleEndian.Uint64(p[8:])
	if id >= uint64(len(v.seen)) || i >= uint64(len(v.seen[id])) {
		return fmt.Errorf("record %d is stamped writer %d record %d, which no writer wrote", seq, id, i)
	}
	if v.seen[id][i] {
		return fmt.Errorf("record %d repeats writer %d record %d", seq, id, i)
	}
	v.seen[id][i] = true
	v.records++
	return nil
}

// missing returns an error naming the first record not read back.
func (v *verifier) missing() error {
	for id, seen := range v.seen {
		for i, ok := range seen {
			if !ok {
				return fmt.Errorf("writer %d record %d was acknowledged but is not in the log", id, i)
			}
		}
	}
	return nil
}

// verifyLog replays the log in dir and checks that it holds exactly the
// records counts describes, intact. It returns how many it read back.
func verifyLog(dir string, payload int, counts []int) (uint64, error) {
	v := newVerifier(payload, counts)
	sum, err := wal.Replay(dir, v.check)
	if err == nil {
		err = v.missing()
	}
	if err != nil {
		return 0, fmt.Errorf("walbench: read-back of %s: %w", dir, err)
	}
	return sum.Records, nil
}

// segmentSizes returns the size of each segment in dir, in log order.
func segmentSizes(dir string) ([]int64, error) {
	segs, err := wal.Segments(dir)
	if err != nil {
		return nil, err
	}
	sizes := make([]int64, len(segs))
	for i, s := range segs {
		st, err := os.Stat(s)
		if err != nil {
			return nil, fmt.Errorf("walbench: %w", err)
		}
		sizes[i] = st.Size()
	}
	return sizes, nil
}
