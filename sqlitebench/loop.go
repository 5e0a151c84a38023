package sqlitebench

import (
	"fmt"

	"github.com/durabench/durabench/measure"
)

// The timed loop. Invariants:
//   - One sample is one commit: BEGIN, RowsPerCommit inserts through the
//     reused prepared statement, COMMIT, timed as one interval with the
//     monotonic clock. Nothing untimed happens between the clock reads.
//   - The loop allocates nothing of its own (TestLoopAllocatesNothing):
//     samples go into a preallocated buffer, the payload is reused (SQLite
//     copies it), errors are built only on the failure path. What the
//     engine allocates is its own, and reported per commit.
//   - Row ids run on from one commit to the next, so every insert adds a
//     new row and the count afterwards says how many commits landed.

// commitStmts are the prepared statements of one commit.
type commitStmts struct{ begin, insert, end statement }

// commit runs one transaction inserting rows rows with ids first,
// first+1, ...
func (s commitStmts) commit(first int64, rows int, payload []byte) error {
	if err := s.begin.Exec(); err != nil {
		return err
	}
	for i := range rows {
		if err := s.insert.ExecRow(first+int64(i), payload); err != nil {
			return err
		}
	}
	return s.end.Exec()
}

// commits runs n commits of rows rows each, with ids from *next on, and
// advances *next. With samples non-nil each commit is timed whole and
// added; the returned span covers them all, loop overhead included.
func (s commitStmts) commits(next *int64, n, rows int, payload []byte, samples *measure.Samples) (measure.Span, error) {
	sp := measure.Span{Start: measure.Now()}
	sp.End = sp.Start
	for i := range n {
		t0 := measure.Now()
		if err := s.commit(*next, rows, payload); err != nil {
			return sp, fmt.Errorf("commit %d of %d: %w", i+1, n, err)
		}
		t1 := measure.Now()
		*next += int64(rows)
		if samples != nil {
			samples.Add(t1-t0, 0, 0)
		}
		sp.End = t1
	}
	return sp, nil
}
