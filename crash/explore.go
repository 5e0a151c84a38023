package crash

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// The explorer. Cut points: just before every sync (and every write through
// O_DSYNC/O_SYNC), just after every acknowledgement, the start and the end
// of the log, and as many again as a quarter of those (at least 4) drawn at
// random. Every cut gets variant 0 (keep all) and variant 1 (lose all not
// durable); random variants (2, 3, ...) then go round the cuts that have
// something pending, in cut order, until the budget of states is spent.
// States with the same files and the same acknowledged count are checked
// once (the verdict is reused) but counted each time.

// Verdict is a checker's judgement of one state.
type Verdict struct {
	// LostAcked is how many acknowledged commits the state lacks.
	LostAcked uint64
	// Corrupt is true when the state cannot be read as the format or the
	// program promises (a damaged database, a log Replay refuses, a record
	// returned with the wrong bytes).
	Corrupt bool
	// Detail says what the checker found, in a line.
	Detail string
	// Err is set when the check itself could not be made (the checker
	// failed to run): the explorer stops with it. It is not a verdict.
	Err error
}

// Checker judges a built state: dir holds its files, acked is the highest
// commit number acknowledged before the cut (0 if none). A checker may
// change or delete what is in dir.
type Checker interface {
	Check(dir string, acked uint64) Verdict
}

// CheckerFunc adapts a function to Checker.
type CheckerFunc func(dir string, acked uint64) Verdict

// Check calls f.
func (f CheckerFunc) Check(dir string, acked uint64) Verdict { return f(dir, acked) }

// Explorer explores the states a power cut could leave of one recorded log
// under one model.
type Explorer struct {
	Model  Model
	Seed   uint64
	States int    // the budget: this many states, or more when keep-all and lose-all at every cut take more, or fewer when no cut has anything pending
	Config string // the command's name for what was recorded, put in state identifiers
	Torn   TornMode
	// Scratch is an existing directory; each state is built in a new child
	// of it, checked, and removed.
	Scratch string
	Checker Checker
	// Progress, if set, is called after each state with the states done
	// and planned.
	Progress func(done, total int)
}

// Failure is the smallest failing state of one kind: the fewest changes
// not kept whole, then the earliest cut, then the lowest variant.
type Failure struct {
	ID         StateID
	Cut        string // where the log was cut, in words
	Acked      uint64
	Verdict    Verdict
	Deviations []Deviation
}

// Result is what exploring one log under one model found.
type Result struct {
	Config   string
	Model    string
	Mapping  string // macos: which darwin call each recorded sync stands for
	Torn     string // what a torn sector holds: garbage or mix
	Events   int
	Acks     int // acknowledgements in the log
	Cuts     int
	States   int     // states checked
	Distinct int     // of them, states with different files or acknowledged counts
	Lost     int     // states lacking an acknowledged commit
	MaxLost  uint64  // the most acknowledged commits one state lacked
	Corrupt  int     // corrupt states
	Seconds  float64 // wall time building and checking
	// Notes are the recorder's notes on what it saw but could not record
	// (Log.Notes): a verdict is only as complete as the log.
	Notes []string
	// SmallestLost and SmallestCorrupt are the smallest failing states of
	// each kind; nil when there were none.
	SmallestLost, SmallestCorrupt *Failure
}

// Safe reports whether no state lost an acknowledged commit or was corrupt.
func (r Result) Safe() bool { return r.Lost == 0 && r.Corrupt == 0 }

// Verdict says in words what the result means.
func (r Result) Verdict() string {
	switch {
	case r.Lost > 0 && r.Corrupt > 0:
		return fmt.Sprintf("loses acknowledged commits (up to %d) and leaves corrupt states", r.MaxLost)
	case r.Lost > 0:
		return fmt.Sprintf("loses acknowledged commits (up to %d), never corrupt", r.MaxLost)
	case r.Corrupt > 0:
		return "keeps every acknowledged commit, but leaves corrupt states"
	}
	return "safe: every acknowledged commit kept, never corrupt"
}

// Explore builds and checks the states of log under x.Model.
func Explore(log *Log, x Explorer) (Result, error) {
	if x.Checker == nil || x.Scratch == "" {
		return Result{}, errors.New("crash: explorer needs a checker and a scratch directory")
	}
	r, err := resolve(log)
	if err != nil {
		return Result{}, err
	}
	f := analyse(r, x.Model)
	res := Result{Config: x.Config, Model: x.Model.Name, Events: len(log.Events), Torn: x.Torn.String(), Notes: log.Notes}
	if x.Model.Epochs {
		res.Mapping = x.Model.Map.String()
	}
	for _, e := range log.Events {
		if e.Op == OpAck {
			res.Acks++
		}
	}
	plan := planStates(r, f, x.Seed, x.States)
	res.Cuts = countCuts(plan)
	start := time.Now()
	seen := map[[32]byte]Verdict{}
	for i, p := range plan {
		id := StateID{Config: x.Config, Model: x.Model.Name, Seed: x.Seed, Cut: p.cut, Variant: p.variant, Log: r.hash, Torn: x.Torn}
		st, err := build(r, x.Model, f, id)
		if err != nil {
			return res, err
		}
		fp := st.fingerprint()
		v, ok := seen[fp]
		if !ok {
			if v, err = check(st, x); err != nil {
				return res, err
			}
			seen[fp] = v
		}
		res.States++
		res.note(r, st, v)
		if x.Progress != nil {
			x.Progress(i+1, len(plan))
		}
	}
	res.Distinct = len(seen)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// check writes st into a new child of the scratch directory, runs the
// checker on it, and removes it.
func check(st *State, x Explorer) (Verdict, error) {
	dir := filepath.Join(x.Scratch, "state")
	if err := os.RemoveAll(dir); err != nil {
		return Verdict{}, fmt.Errorf("crash: clear scratch state: %w", err)
	}
	if err := st.Write(dir); err != nil {
		return Verdict{}, err
	}
	v := x.Checker.Check(dir, st.Acked)
	if v.Err != nil {
		return v, fmt.Errorf("crash: check state %s: %w", st.ID, v.Err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return v, fmt.Errorf("crash: remove checked state: %w", err)
	}
	return v, nil
}

// note counts one checked state and keeps it if it is the smallest failure
// of its kind so far.
func (res *Result) note(r *resolved, st *State, v Verdict) {
	fail := func(cur **Failure) {
		cand := &Failure{ID: st.ID, Cut: r.describeCut(st.ID.Cut), Acked: st.Acked, Verdict: v, Deviations: st.Deviations}
		if *cur == nil || smaller(cand, *cur) {
			*cur = cand
		}
	}
	if v.LostAcked > 0 {
		res.Lost++
		res.MaxLost = max(res.MaxLost, v.LostAcked)
		fail(&res.SmallestLost)
	}
	if v.Corrupt {
		res.Corrupt++
		fail(&res.SmallestCorrupt)
	}
}

// smaller orders failures: fewer deviations, then earlier cut, then lower
// variant.
func smaller(a, b *Failure) bool {
	return cmp.Or(cmp.Compare(len(a.Deviations), len(b.Deviations)),
		cmp.Compare(a.ID.Cut, b.ID.Cut), cmp.Compare(a.ID.Variant, b.ID.Variant)) < 0
}

// describeCut says where a cut falls: before which event.
func (r *resolved) describeCut(cut int) string {
	if cut >= len(r.steps) {
		return fmt.Sprintf("at the end of the log (after all %d events)", len(r.steps))
	}
	e := r.steps[cut].ev
	what := e.Op.String()
	switch e.Op {
	case OpSync:
		what = "sync (" + e.Sync.String() + ")"
		if e.Dir {
			what = "directory " + what
		}
	case OpAck:
		what = fmt.Sprintf("ack %d", e.Ack)
	}
	if e.Op != OpAck {
		what += " " + r.label(cut)
	}
	return fmt.Sprintf("before event #%d, %s", cut, what)
}

// planned is one state to build.
type planned struct{ cut, variant int }

// planStates lists the states to explore, in order.
func planStates(r *resolved, f *fates, seed uint64, budget int) []planned {
	n := len(r.steps)
	cutSet := map[int]bool{0: true, n: true}
	for i, s := range r.steps {
		switch {
		case s.ev.Op == OpSync, s.ev.Op == OpWrite && s.ev.Durable:
			cutSet[i] = true
		case s.ev.Op == OpAck:
			cutSet[i+1] = true
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x637574)) // "cut"
	for range max(4, len(cutSet)/4) {
		cutSet[rng.IntN(n+1)] = true
	}
	cuts := make([]int, 0, len(cutSet))
	for c := range cutSet {
		cuts = append(cuts, c)
	}
	slices.Sort(cuts)
	var plan []planned
	var open []int // cuts with a change still pending
	for _, c := range cuts {
		plan = append(plan, planned{c, 0}, planned{c, 1})
		if pendingAt(f, r, c) {
			open = append(open, c)
		}
	}
	for v := 2; len(open) > 0 && len(plan) < budget; v++ {
		for _, c := range open {
			if len(plan) >= budget {
				break
			}
			plan = append(plan, planned{c, v})
		}
	}
	return plan
}

// pendingAt reports whether some change before cut is not yet durable.
func pendingAt(f *fates, r *resolved, cut int) bool {
	for i := range cut {
		if isChange(r.steps[i].ev.Op) && f.durableAt[i] >= cut {
			return true
		}
	}
	return false
}

// countCuts counts the cuts of a plan: each has one variant 0.
func countCuts(plan []planned) int {
	n := 0
	for _, p := range plan {
		if p.variant == 0 {
			n++
		}
	}
	return n
}

// Rebuild builds the state id names from the log it was found in. It
// refuses a log whose hash differs from the one in id: the recording
// changed, and the state would not be the one reported.
func Rebuild(log *Log, id StateID) (*State, error) {
	m, err := ParseModel(id.Model)
	if err != nil {
		return nil, err
	}
	r, err := resolve(log)
	if err != nil {
		return nil, err
	}
	if r.hash != id.Log {
		return nil, fmt.Errorf("crash: state %s was found in a recording with hash %s, and this recording's hash is %s: the program did something else this time, so the state cannot be rebuilt from it", id, id.Log, r.hash)
	}
	return build(r, m, analyse(r, m), id)
}

// ExploreModels explores log under each of models in turn, with x as the
// template (its Model is replaced, and each model's states are built in a
// new child of x.Scratch), and calls progress, if set, with a line per
// model.
func ExploreModels(log *Log, models []Model, x Explorer, progress func(line string)) ([]Result, error) {
	var out []Result
	scratch := x.Scratch
	for _, m := range models {
		dir, err := os.MkdirTemp(scratch, "states-")
		if err != nil {
			return out, fmt.Errorf("crash: %w", err)
		}
		x.Model, x.Scratch = m, dir
		res, err := Explore(log, x)
		if err != nil {
			return out, err
		}
		if err := os.Remove(dir); err != nil {
			return out, fmt.Errorf("crash: %w", err)
		}
		if progress != nil {
			progress(fmt.Sprintf("%s under %s: %d states, %s", x.Config, m.Name, res.States, res.Verdict()))
		}
		out = append(out, res)
	}
	return out, nil
}
