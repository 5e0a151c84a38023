package advise

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/durabench/durabench/results"
)

// Measured is one measured SQLite configuration: a pooled `sqlite` record
// read back.
type Measured struct {
	Config
	// Checkpoint is checkpoint_fullfsync when the run set it, "" when it
	// was left as the engine has it.
	Checkpoint    string
	CommitsPerSec float64
	P99           int64
	Rounds        int // per-round records of the case
	Commits       int // timed commits over all rounds
	// AsAsked is false when SQLite did not take a pragma as asked; the
	// figures then stand under the settings it reported (Config).
	AsAsked bool
}

// Name is the configuration in the words of the tables: "WAL + FULL",
// with fullfsync and checkpoint_fullfsync where they matter.
func (m Measured) Name() string {
	s := upper(m.JournalMode) + " + " + upper(m.Synchronous)
	if m.OS == "darwin" || m.FullFsync == "1" {
		s += ", fullfsync=" + m.FullFsync
	}
	if m.Checkpoint != "" {
		s += ", checkpoint_fullfsync=" + m.Checkpoint
	}
	return s
}

// SQLiteCases reads the measured configurations of recs (pooled `sqlite`
// records) for a run on goos, in record order.
func SQLiteCases(recs []results.Record, goos string) []Measured {
	rounds := map[string]int{}
	for _, rec := range recs {
		if rec.Experiment == "sqlite" && rec.Round != results.PooledRound {
			rounds[caseKey(rec)]++
		}
	}
	var out []Measured
	for _, rec := range recs {
		if rec.Experiment != "sqlite" || rec.Round != results.PooledRound {
			continue
		}
		p := rec.Params
		m := Measured{
			Config: Config{Engine: p.Get("engine"), JournalMode: p.Get("journal_mode"), Synchronous: p.Get("synchronous"),
				FullFsync: p.Get("fullfsync"), OS: goos},
			CommitsPerSec: rec.OpsPerSec,
			P99:           rec.Stats.Total.P99,
			Rounds:        max(rounds[caseKey(rec)], 1),
			Commits:       rec.N,
			AsAsked:       true,
		}
		if p.Get("asked_checkpoint_fullfsync") == "" {
			m.Checkpoint = p.Get("checkpoint_fullfsync")
		}
		for _, kv := range p {
			if strings.HasPrefix(kv.Key, "asked_") && !(kv.Key == "asked_checkpoint_fullfsync" && kv.Value == "default") {
				m.AsAsked = false
			}
		}
		out = append(out, m)
	}
	return out
}

// caseKey identifies a record's case.
func caseKey(rec results.Record) string {
	var b strings.Builder
	b.WriteString(rec.Experiment)
	for _, p := range rec.Params {
		b.WriteString("\x00" + p.Key + "=" + p.Value)
	}
	return b.String()
}

// ErrNoFigures is wrapped by the errors of Pragmas and GroupCommit when
// the records hold none of the experiment they advise from.
var ErrNoFigures = errors.New("nothing to advise from")

// PragmaQuestion is what `durabench advise pragmas` asks.
type PragmaQuestion struct {
	Failure    Failure
	Engine     string  // "" for every engine measured
	MinCommits float64 // 0 for no floor
}

// PragmaInput is what the advice is computed from.
type PragmaInput struct {
	// Records hold the `sqlite` records, and any `crash` records.
	Records []results.Record
	// OS and FS are the measured machine's (env.json); OS "" is unknown.
	OS, FS string
	// EnvWarnings are the run's environment warnings (a VM, tmpfs, ...).
	EnvWarnings []string
	// From names where the records came from, for the sources.
	From string
}

// Option is a measured configuration with its assessment.
type Option struct {
	Measured
	Assessment
}

// PragmaAdvice is the answer: the fastest configuration that keeps the
// promise (if any), the others with what each risks, and how to set it.
type PragmaAdvice struct {
	Question PragmaQuestion
	OS       string
	From     string
	// Pick is the fastest option that keeps the promise and reaches
	// MinCommits; Best is the fastest that keeps it at all. Either may be
	// nil.
	Pick, Best *Option
	// PerEngine is, when several engines were measured, each engine's
	// fastest keeping option in engine order (nil where none keeps it).
	PerEngine []EngineBest
	// Faster are the options faster than the pick (or than the best), of
	// its engine, that do not keep the promise: what speed costs. Slower
	// are the other keeping options of that engine.
	Faster, Slower []Option
	// Close says why the pick is not the fastest keeping option, when a
	// faster one was within the noise; "" otherwise.
	Close string
	// Engines are the engines measured, in record order.
	Engines []string
	// Notes are remarks on the OS, the engines, the environment and the
	// figures, each a sentence.
	Notes []string
	// Sources are the distinct sources of the rows behind every option
	// shown, numbered from 1 in this order.
	Sources []string

	rows []Row
}

// EngineBest is an engine's fastest option that keeps the promise, or
// nil.
type EngineBest struct {
	Engine string
	Best   *Option
}

// Pragmas answers q from in.
func Pragmas(in PragmaInput, q PragmaQuestion) (PragmaAdvice, error) {
	goos := in.OS
	a := PragmaAdvice{Question: q, OS: goos, From: in.From}
	cases := SQLiteCases(in.Records, goos)
	if len(cases) == 0 {
		return a, errorf("%w: no sqlite results in %s", ErrNoFigures, in.From)
	}
	for _, c := range cases {
		if !slices.Contains(a.Engines, c.Engine) {
			a.Engines = append(a.Engines, c.Engine)
		}
	}
	if q.Engine != "" && !slices.Contains(a.Engines, q.Engine) {
		return a, errorf("engine %q has no sqlite results in %s; it has %s", q.Engine, in.From, strings.Join(a.Engines, ", "))
	}
	a.rows = append(slices.Clone(Promises), CrashRows(in.Records, goos, in.FS, in.From)...)
	var opts []Option
	for _, c := range cases {
		if q.Engine != "" && c.Engine != q.Engine {
			continue
		}
		if goos != "darwin" && c.FullFsync == "1" && hasTwin(cases, c) {
			continue // fullfsync changes no call here: its twin at 0 stands for both
		}
		opts = append(opts, Option{c, Assess(a.rows, c.Config, q.Failure)})
	}
	slices.SortStableFunc(opts, func(x, y Option) int { return cmp.Compare(y.CommitsPerSec, x.CommitsPerSec) })

	a.Best = simplest(opts, "", 0)
	a.Pick = simplest(opts, "", q.MinCommits)
	for _, p := range []*Option{a.Best, a.Pick} {
		if p != nil && p != fastestKeeping(opts, p.Engine, 0) {
			f := fastestKeeping(opts, p.Engine, 0)
			a.Close = fmt.Sprintf("%s measured %s/s, within %.0f %% of %s's %s/s: figures this close are within the noise, so the lower synchronous level is taken.",
				f.Name(), rate(f.CommitsPerSec), 100*(1-NoiseShare), p.Name(), rate(p.CommitsPerSec))
			break
		}
	}
	if q.Engine == "" && len(a.Engines) > 1 {
		for _, e := range a.Engines {
			a.PerEngine = append(a.PerEngine, EngineBest{Engine: e, Best: simplest(opts, e, 0)})
		}
	}
	ref := a.Pick
	if ref == nil {
		ref = a.Best
	}
	for _, o := range opts {
		switch {
		case ref == nil:
			if q.Engine == "" || o.Engine == q.Engine {
				a.Faster = append(a.Faster, o)
			}
		case o.Engine != ref.Engine || o.Measured == ref.Measured:
		case o.Keeps():
			a.Slower = append(a.Slower, o)
		case o.CommitsPerSec > ref.CommitsPerSec:
			a.Faster = append(a.Faster, o)
		}
	}
	if ref == nil && len(a.Faster) > 8 {
		a.Faster = a.Faster[:8]
	}
	a.Notes = pragmaNotes(a, in, cases)
	for _, o := range a.shown() {
		for _, r := range o.Rows {
			if !slices.Contains(a.Sources, r.Source) {
				a.Sources = append(a.Sources, r.Source)
			}
		}
	}
	return a, nil
}

// NoiseShare is how close two rates must be to count as the same: a
// keeping option at NoiseShare of the fastest or more is as fast.
const NoiseShare = 0.9

// syncLevel orders synchronous levels by the syncs they make.
var syncLevel = map[string]int{"off": 0, "normal": 1, "full": 2, "extra": 3}

// fastestKeeping is the fastest option of engine ("" for any) that keeps
// the promise and reaches floor, or nil; opts are fastest first.
func fastestKeeping(opts []Option, engine string, floor float64) *Option {
	for i, o := range opts {
		if o.Keeps() && o.CommitsPerSec >= floor && (engine == "" || o.Engine == engine) {
			return &opts[i]
		}
	}
	return nil
}

// simplest is the option to recommend (of engine, or of any engine for
// ""): among the options of the fastest keeping option's engine that keep the promise, reach floor and come
// within NoiseShare of it, the one with the lowest synchronous level (the
// fastest of those). Rates that close are the same on a noisy disk, and
// the lower level makes no more syncs.
func simplest(opts []Option, engine string, floor float64) *Option {
	best := fastestKeeping(opts, engine, floor)
	if best == nil {
		return nil
	}
	pick := best
	for i, o := range opts {
		if o.Engine == best.Engine && o.Keeps() && o.CommitsPerSec >= floor && o.CommitsPerSec >= NoiseShare*best.CommitsPerSec &&
			syncLevel[o.Synchronous] < syncLevel[pick.Synchronous] {
			pick = &opts[i]
		}
	}
	return pick
}

// hasTwin reports whether cases hold c with fullfsync=0.
func hasTwin(cases []Measured, c Measured) bool {
	for _, o := range cases {
		t := c.Config
		t.FullFsync = "0"
		if o.Config == t && o.Checkpoint == c.Checkpoint {
			return true
		}
	}
	return false
}

// shown lists every option the advice prints.
func (a PragmaAdvice) shown() []Option {
	var out []Option
	for _, p := range []*Option{a.Pick, a.Best} {
		if p != nil {
			out = append(out, *p)
		}
	}
	for _, eb := range a.PerEngine {
		if eb.Best != nil {
			out = append(out, *eb.Best)
		}
	}
	out = append(out, a.Faster...)
	return append(out, a.Slower...)
}

// pragmaNotes are the remarks that go with the advice.
func pragmaNotes(a PragmaAdvice, in PragmaInput, cases []Measured) []string {
	var notes []string
	f := a.Question.Failure
	switch a.OS {
	case "darwin":
		if f == PowerLoss {
			notes = append(notes, "On macOS, fsync(2) hands data to the drive without flushing its cache: only fullfsync=1 (fcntl F_FULLFSYNC) keeps commits through a power loss, and it costs a whole-millisecond flush per sync.")
			if slices.Contains(a.Engines, "system") {
				notes = append(notes, "Apple's system SQLite (engine system, /usr/lib/libsqlite3.dylib) turns fullfsync=1 into F_BARRIERFSYNC: writes stay in order, so the file stays sound, but the last commits may be lost. For durability against power loss use modernc or mattn (the public build) with fullfsync=1.")
			}
		}
	case "":
		notes = append(notes, "The results carry no env.json, so the OS is unknown: only SQLite's documented promises apply, which assume a sync reaches stable storage.")
	default:
		notes = append(notes, fmt.Sprintf("On %s, fullfsync changes no system call (SQLite uses F_FULLFSYNC only on macOS), so it is left out.", a.OS))
	}
	for _, w := range in.EnvWarnings {
		notes = append(notes, "Environment: "+w)
	}
	if slices.Contains(a.Engines, "mattn") && (a.Question.Engine == "" || a.Question.Engine == "mattn") {
		notes = append(notes, "mattn runs PRAGMA synchronous=NORMAL on every new connection unless the DSN has _sync (and _journal_mode=WAL alone also means NORMAL): a synchronous=FULL you set yourself holds only on the connection that ran it. Put _sync in the DSN.")
	}
	short := map[string]bool{}
	for _, c := range cases {
		if c.JournalMode == "wal" && c.Commits/c.Rounds < 1000 {
			short[c.Engine] = true
		}
	}
	if len(short) > 0 {
		notes = append(notes, "Some WAL figures come from rounds of fewer than 1,000 commits, which may hold no checkpoint (SQLite checkpoints every 1,000 WAL pages by default); WAL + NORMAL syncs only at checkpoints, so its figure there is too good. Measure with durabench sqlite (3,000 WAL commits per round by default).")
	}
	crash := 0
	for _, r := range in.Records {
		if r.Experiment == CrashExperiment {
			crash++
		}
	}
	if crash == 0 {
		notes = append(notes, "No durabench crash results were given: the verdicts are SQLite's documentation and the OS's, not simulated power cuts.")
	}
	return notes
}

// Render writes the advice for people.
func (a PragmaAdvice) Render(w io.Writer) error {
	q := a.Question
	goal := "keep every acknowledged commit through " + q.Failure.Phrase()
	where := "on " + cmp.Or(a.OS, "an unknown OS")
	fmt.Fprintf(w, "SQLite pragmas that %s, %s (from %s)\n\n", goal, where, a.From)
	src := func(o Option) string {
		var refs []string
		for _, r := range o.Rows {
			if ref := fmt.Sprintf("[%d]", slices.Index(a.Sources, r.Source)+1); !slices.Contains(refs, ref) {
				refs = append(refs, ref)
			}
		}
		return strings.Join(refs, "")
	}
	switch {
	case a.Pick != nil:
		p := a.Pick
		fmt.Fprintf(w, "Use: %s on %s: %s commits/s, p99 %s.\n", p.Name(), p.Engine, rate(p.CommitsPerSec), p99(p.P99))
		if q.MinCommits > 0 {
			fmt.Fprintf(w, "It is the fastest configuration that keeps that promise and reaches %s commits/s.\n", rate(q.MinCommits))
		}
		if a.Close != "" {
			fmt.Fprintln(w, a.Close)
		}
	case a.Best != nil:
		b := a.Best
		fmt.Fprintf(w, "No configuration both keeps that promise and reaches %s commits/s here.\n", rate(q.MinCommits))
		fmt.Fprintf(w, "Closest: %s on %s keeps it at %s commits/s (p99 %s), %s short.\n", b.Name(), b.Engine, rate(b.CommitsPerSec), p99(b.P99), ratio(q.MinCommits, b.CommitsPerSec))
		need := int(math.Ceil(q.MinCommits / b.CommitsPerSec))
		fmt.Fprintf(w, "A commit here waits for its syncs whatever it holds, so to reach the target put about %d rows in each transaction (%s ÷ %s ≈ %d; measure it: durabench sqlite --rows-per-commit %d), or share syncs among writers (durabench advise group-commit).\n",
			need, rate(q.MinCommits), rate(b.CommitsPerSec), need, need)
	default:
		scope := "measured configuration"
		if q.Engine != "" {
			scope = "measured configuration of " + q.Engine
		}
		fmt.Fprintf(w, "No %s keeps every acknowledged commit through %s %s.\n", scope, q.Failure.Phrase(), where)
	}
	fmt.Fprintln(w)

	if len(a.PerEngine) > 0 {
		t := results.NewTable("engine", "fastest that keeps it", "commits/s", "p99")
		t.Title = "Per engine"
		for _, eb := range a.PerEngine {
			if o := eb.Best; o != nil {
				t.AddRow(o.Engine, o.Name(), rate(o.CommitsPerSec), p99(o.P99))
			} else {
				t.AddRow(eb.Engine, "none of its measured configurations", "", "")
			}
		}
		if err := t.Render(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	ref := a.Pick
	if ref == nil {
		ref = a.Best
	}
	if len(a.Faster)+len(a.Slower) > 0 {
		t := results.NewTable("engine", "configuration", "commits/s", "p99", "speed", "through "+q.Failure.Phrase(), "source")
		switch {
		case ref != nil:
			t.Title = fmt.Sprintf("The alternatives on %s: faster ones and what each risks, then the others that keep the promise too", ref.Engine)
		default:
			t.Title = "What the measured configurations risk, fastest first"
		}
		addRow := func(o Option) {
			speed := ""
			if ref != nil {
				speed = ratio(o.CommitsPerSec, ref.CommitsPerSec)
			}
			risk := o.Risk()
			if !o.AsAsked {
				risk += " (did not run as asked)"
			}
			t.AddRow(o.Engine, o.Name(), rate(o.CommitsPerSec), p99(o.P99), speed, risk, src(o))
		}
		for _, o := range a.Faster {
			addRow(o)
		}
		if ref != nil {
			t.AddRow(ref.Engine, ref.Name()+"  ← the pick", rate(ref.CommitsPerSec), p99(ref.P99), "1×", ref.Risk(), src(*ref))
		}
		for _, o := range a.Slower {
			addRow(o)
		}
		if err := t.Render(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if ref != nil {
		fmt.Fprintln(w, "How to set it:")
		for _, l := range SetLines(ref.Config, ref.Checkpoint, nil) {
			fmt.Fprintln(w, "  "+l)
		}
		fmt.Fprintln(w)
	}
	for _, n := range a.Notes {
		fmt.Fprintln(w, "Note: "+n)
	}
	if len(a.Sources) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Sources:")
		for i, s := range a.Sources {
			fmt.Fprintf(w, "  [%d] %s\n", i+1, s)
		}
	}
	return nil
}
