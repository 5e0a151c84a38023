package crash

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBatchRefusesFailedWorkload: a recording with fewer acknowledgements
// than the workload promises means the program failed, and the batch says
// so instead of judging a partial log.
func TestBatchRefusesFailedWorkload(t *testing.T) {
	b := Batch{Dir: t.TempDir(), States: 10, Record: func(cmd *exec.Cmd, root string) (*Log, error) {
		return &Log{Events: []Event{{Op: OpCreate, Path: "f", Inode: 2}, {Op: OpAck, Ack: 1}}}, nil
	}}
	w := Workload{Name: "test/two", Acks: 2, Command: func(root string) *exec.Cmd { return exec.Command("true") },
		Checker: CheckerFunc(func(string, uint64) Verdict { return Verdict{} }), Models: []Model{LinuxExt4()}}
	_, err := b.Explore([]Workload{w})
	if err == nil || !strings.Contains(err.Error(), "crash: record test/two: the workload acknowledged 1 commits, want 2") {
		t.Errorf("err = %v, want the failed workload named", err)
	}
	// With the promised count, the log is explored.
	w.Acks = 1
	b.Dir = t.TempDir()
	res, err := b.Explore([]Workload{w})
	if err != nil || len(res) != 1 || res[0].Config != "test/two" || res[0].States == 0 || !res[0].Safe() {
		t.Errorf("res %+v, err %v; want one safe result", res, err)
	}
}
