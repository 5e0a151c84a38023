package sqlitebench

// The runner. Invariants:
//   - Cases run round by round (every case of round 1, then round 2, ...),
//     so that slow drifts of the machine spread over all cases.
//   - Each case and round opens a fresh database file on a connection of
//     its own, and closes it (and removes the files unless the run keeps
//     them) before the next one starts.
//   - A round counts only if its rows are all there; otherwise the run
//     stops with an error.
//   - A result's Effective settings are the first round's, read back
//     before its timed commits; every difference from Asked, between
//     rounds, or during the commits becomes a note.

import (
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/runner"
)

// Case is one cell of the matrix as asked for: an engine and the values of
// the durability pragmas (CheckpointFullFsync may be CheckpointDefault).
type Case struct {
	Engine string
	Asked  drivers.Settings
}

// Name is a short label for progress lines and file names, such as
// modernc-wal-full-ff0-ckptdefault.
func (c Case) Name() string {
	a := c.Asked
	return fmt.Sprintf("%s-%s-%s-ff%s-ckpt%s", c.Engine, a.JournalMode, a.Synchronous, a.FullFsync, a.CheckpointFullFsync)
}

// dbName is the file name of the case's database in round (from 0).
func (c Case) dbName(round int) string { return fmt.Sprintf("%s-r%d.db", c.Name(), round+1) }

// Round is one round of one case, on a database of its own.
type Round struct {
	Samples int
	Wall    int64 // ns from the first timed commit's start to the last one's end
	Total   measure.Stats
	// Effective are the pragmas as the connection reported them just before
	// the timed commits.
	Effective drivers.Settings
	// AllocsPerCommit is every heap allocation in the process while the
	// timed commits ran, per commit: the engine's, and the runtime's own
	// (such as a new thread when a blocking sync hands off the processor);
	// the loop adds none.
	AllocsPerCommit float64
	// Rows is the row count read back after the round.
	Rows int64
}

// Result is one case over all its rounds. Pooled statistics come from the
// raw samples of every round.
type Result struct {
	Case
	// Effective are the settings the case ran under, as read back in its
	// first round; these, not Asked, name it in every output.
	Effective drivers.Settings
	// Notes say where the case did not run as asked, or changed while it
	// ran; empty when it ran as asked.
	Notes   []string
	Version string // the engine's SQLite version
	Rounds  []Round
	Total   measure.Stats        // pooled over the rounds
	Latency measure.Distribution // the pooled commits' shape, kept for plots
	Wall    int64                // sum of the rounds' walls
	// AllocsPerCommit is over all rounds' timed commits.
	AllocsPerCommit float64
}

// Mismatches lists the pragmas that did not take the value asked for.
func (r Result) Mismatches() []Mismatch { return mismatches(r.Asked, r.Effective) }

// AsAsked reports whether the case ran with every pragma as asked and
// nothing changed while it ran.
func (r Result) AsAsked() bool { return len(r.Notes) == 0 }

// CommitsPerSec is timed commits per second of wall time.
func (r Result) CommitsPerSec() float64 { return measure.PerSec(float64(r.Total.N), r.Wall) }

// Outcome is everything a run found: what each engine gives a user who sets
// nothing, and each case's figures in matrix order.
type Outcome struct {
	Engines []EngineInfo
	Results []Result
	// Counts are the counting passes (CountAll), one per case in matrix
	// order, or none.
	Counts []Count
}

// Progress receives a line before each case of each round.
type Progress func(line string)

// Run runs every case of cfg in run's directory: each engine's defaults
// first, then every round of the matrix, a fresh database per case and
// round. Databases are removed as each case ends unless run keeps its
// files.
func Run(run *fixtures.Run, cfg Config, progress Progress) (Outcome, error) {
	opts := drivers.Options{SystemLib: cfg.SystemLib}
	return runWith(run, cfg, progress, func(name string) (engine, error) { return lookupEngine(name, opts) })
}

// runWith is Run with the engines supplied by lookup.
func runWith(run *fixtures.Run, cfg Config, progress Progress, lookup func(name string) (engine, error)) (Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return Outcome{}, err
	}
	progress = runner.Quiet(progress)
	var out Outcome
	engines := map[string]engine{}
	for _, name := range cfg.Engines {
		e, err := lookup(name)
		if err != nil {
			return Outcome{}, err
		}
		engines[name] = e
		progress("defaults of " + name)
		info, err := describe(e, run.Path("defaults-"+name+".db"), cfg.SystemLib)
		if err != nil {
			return Outcome{}, fmt.Errorf("sqlitebench: %s: reading its defaults: %w", name, err)
		}
		out.Engines = append(out.Engines, info)
	}
	cases := cfg.cases()
	acc := runner.Each(cases, func(c Case) *accumulator { return newAccumulator(c, cfg) })
	for r := range cfg.Rounds {
		for _, a := range acc {
			if err := run.Err(); err != nil { // stopped: no new case
				return out.finished(acc), err
			}
			progress(fmt.Sprintf("round %d/%d: %s", r+1, cfg.Rounds, a.c.Name()))
			if err := a.runRound(run, engines[a.c.Engine], cfg, r); err != nil {
				return Outcome{}, fmt.Errorf("sqlitebench: %s, round %d: %w", a.c.Name(), r+1, err)
			}
		}
	}
	return out.finished(acc), nil
}

// finished returns out with the results of the cases that ran at least one
// round whole: every case after a full run; those that finished before a
// stop otherwise.
func (out Outcome) finished(acc []*accumulator) Outcome {
	for _, a := range acc {
		if len(a.rounds) == 0 {
			continue
		}
		res := a.result()
		for _, info := range out.Engines {
			if info.Name == res.Engine {
				res.Version = info.Version
			}
		}
		out.Results = append(out.Results, res)
	}
	return out
}

// cases lists the matrix in table order: engine, journal mode, synchronous,
// fullfsync, checkpoint_fullfsync.
func (c Config) cases() []Case {
	var cs []Case
	for _, e := range c.Engines {
		for _, j := range c.JournalModes {
			for _, s := range c.Synchronous {
				for _, f := range c.FullFsync {
					for _, cf := range c.CheckpointFullFsync {
						cs = append(cs, Case{Engine: e, Asked: drivers.Settings{JournalMode: j, Synchronous: s, FullFsync: f, CheckpointFullFsync: cf}})
					}
				}
			}
		}
	}
	return cs
}

// accumulator gathers one case's rounds. Its sample buffer holds every
// round, so no round allocates for samples.
type accumulator struct {
	c       Case
	payload []byte
	samples *measure.Samples
	rounds  []Round
	allocs  uint64
	notes   []string
}

func newAccumulator(c Case, cfg Config) *accumulator {
	a := &accumulator{c: c, payload: runner.Payload(cfg.RowBytes), samples: measure.NewSamples(cfg.Rounds * cfg.CommitsFor(c))}
	return a
}

// note adds a note once.
func (a *accumulator) note(format string, args ...any) {
	if n := fmt.Sprintf(format, args...); !slices.Contains(a.notes, n) {
		a.notes = append(a.notes, n)
	}
}

// runRound runs one round of the case on a fresh database: pragmas and
// schema, warm-up, the timed commits, then the checks.
func (a *accumulator) runRound(run *fixtures.Run, e engine, cfg Config, round int) (err error) {
	path := run.Path(a.c.dbName(round))
	if !run.Kept() {
		defer func() { err = errors.Join(err, removeDatabase(path)) }()
	}
	c, err := e.open(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, c.Close()) }()

	set, err := applyPragmas(c, a.c.Asked)
	if err != nil {
		return err
	}
	stmts, err := createSchema(c)
	if err != nil {
		return err
	}
	next := int64(1)
	if _, err := stmts.commits(&next, cfg.Warmup, cfg.RowsPerCommit, a.payload, nil); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	before, err := c.Settings()
	if err != nil {
		return err
	}

	commits := cfg.CommitsFor(a.c)
	mark := a.samples.Len()
	var m0, m1 runtime.MemStats
	release := measure.Hold()
	if cfg.Marks != nil {
		cfg.Marks.Start()
	}
	runtime.ReadMemStats(&m0)
	sp, err := stmts.commits(&next, commits, cfg.RowsPerCommit, a.payload, a.samples)
	runtime.ReadMemStats(&m1)
	if cfg.Marks != nil {
		cfg.Marks.Stop(commits)
	}
	release()
	if err != nil {
		return err
	}

	after, err := c.Settings()
	if err != nil {
		return err
	}
	rows, err := c.QueryInt(countRows)
	if err != nil {
		return err
	}
	if want := int64(cfg.Warmup+commits) * int64(cfg.RowsPerCommit); rows != want {
		return fmt.Errorf("%d rows after %d commits of %d rows each, want %d: commits were lost", rows, cfg.Warmup+commits, cfg.RowsPerCommit, want)
	}
	a.noteChanges(round, set, before, after)
	a.allocs += m1.Mallocs - m0.Mallocs
	a.rounds = append(a.rounds, Round{
		Samples:         a.samples.Len() - mark,
		Wall:            sp.Wall(),
		Total:           measure.Summarize(a.samples.Total[mark:]),
		Effective:       before,
		AllocsPerCommit: float64(m1.Mallocs-m0.Mallocs) / float64(commits),
		Rows:            rows,
	})
	return nil
}

// noteChanges notes where a round's settings moved: from the value read
// back when set to the one in effect before the timed commits, during the
// timed commits, or away from the first round's.
func (a *accumulator) noteChanges(round int, set, before, after drivers.Settings) {
	for _, p := range pragmaFields {
		s, b, f := *p.field(&set), *p.field(&before), *p.field(&after)
		if s != b {
			a.note("%s read back %s when set but was %s before the timed commits", p.name, s, b)
		}
		if b != f {
			a.note("round %d: %s changed from %s to %s during the timed commits", round+1, p.name, b, f)
		}
		if len(a.rounds) > 0 {
			if first := *p.field(&a.rounds[0].Effective); b != first {
				a.note("round %d ran with %s=%s, round 1 with %s", round+1, p.name, b, first)
			}
		}
	}
}

func (a *accumulator) result() Result {
	r := Result{Case: a.c, Rounds: a.rounds, Total: measure.Summarize(a.samples.Total), Latency: measure.Distribute(a.samples.Total)}
	if len(a.rounds) > 0 {
		r.Effective = a.rounds[0].Effective
	}
	for _, m := range r.Mismatches() {
		r.Notes = append(r.Notes, m.String())
	}
	r.Notes = append(r.Notes, a.notes...)
	for _, rd := range a.rounds {
		r.Wall += rd.Wall
	}
	if r.Total.N > 0 {
		r.AllocsPerCommit = float64(a.allocs) / float64(r.Total.N)
	}
	return r
}
