package crash

import (
	"strings"
	"testing"
)

// The plan cuts before every sync and O_DSYNC write and after every
// acknowledgement, checks keep-all and lose-all at each cut, and spends the
// rest of the budget on random variants of cuts with something pending.
func TestPlanStates(t *testing.T) {
	dsync := write(1, "f", 0, "d")
	dsync.Durable = true
	log := &Log{Initial: map[string][]byte{"f": nil}, Events: []Event{
		write(1, "f", 0, "a"), // 0
		sync(1, "f", SyncFdatasync),
		{Op: OpAck, Ack: 1}, // 2
		write(1, "f", 1, "b"),
		dsync,               // 4
		{Op: OpAck, Ack: 2}, // 5
	}}
	r, err := resolve(log)
	if err != nil {
		t.Fatal(err)
	}
	f := analyse(r, LinuxExt4())
	plan := planStates(r, f, 3, 100)
	if len(plan) != 100 {
		t.Fatalf("%d states planned, want the budget of 100", len(plan))
	}
	cuts := map[int][]int{}
	for _, p := range plan {
		cuts[p.cut] = append(cuts[p.cut], p.variant)
	}
	for _, c := range []int{0, 1, 3, 4, 6} { // start, before the sync, after ack 1, before the O_DSYNC write, after ack 2 = end
		vs := cuts[c]
		if len(vs) < 2 || vs[0] != 0 || vs[1] != 1 {
			t.Errorf("cut %d: variants %v; want keep-all and lose-all first", c, vs)
		}
	}
	for c, vs := range cuts {
		if len(vs) > 2 && !pendingAt(f, r, c) {
			t.Errorf("cut %d has nothing pending but got random variants %v", c, vs[2:])
		}
	}
	if len(cuts[0]) != 2 {
		t.Errorf("cut 0 (nothing happened) got %d variants, want 2", len(cuts[0]))
	}
}

// The explorer keeps the smallest failing state and says where it cut.
func TestExploreSmallestFailure(t *testing.T) {
	log := &Log{Events: []Event{
		{Op: OpCreate, Path: "f", Inode: 1},
		write(1, "f", 0, strings.Repeat("x", 2048)),
		{Op: OpAck, Ack: 1}, // acknowledged without a sync: the bug
		sync(1, "f", SyncFsync),
	}}
	lost := CheckerFunc(func(dir string, acked uint64) Verdict {
		st, err := readFile(dir + "/f")
		if acked > 0 && (err != nil || st != strings.Repeat("x", 2048)) {
			return Verdict{LostAcked: 1, Detail: "f is not whole"}
		}
		return Verdict{}
	})
	res, err := Explore(log, Explorer{Model: LinuxExt4(), Seed: 1, States: 50, Scratch: t.TempDir(), Checker: lost})
	if err != nil {
		t.Fatal(err)
	}
	f := res.SmallestLost
	if f == nil || res.Lost == 0 || res.MaxLost != 1 {
		t.Fatalf("no losing state found: %+v", res)
	}
	if f.ID.Cut != 3 || len(f.Deviations) != 1 || f.Cut != "before event #3, sync (fsync) f" {
		t.Errorf("smallest: cut %d (%s), deviations %v; want the cut before the fsync with one change lost", f.ID.Cut, f.Cut, f.Deviations)
	}
	if res.States < 50 || res.Corrupt != 0 || res.Safe() {
		t.Errorf("result %+v", res)
	}
}
