package walbench

import (
	"fmt"
	"os"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/wal"
)

// Case is one cell of the results: a layout, block size, I/O mode, method
// and writer count, under the run's batch size and segment size.
type Case struct {
	Layout      fixtures.State
	BlockSize   int64
	IOMode      wal.IOMode
	Method      syscalls.Method
	Writers     int
	SyncEvery   int
	SegmentSize int64
}

// Name is a short label for progress lines and directory names.
func (c Case) Name() string {
	return fmt.Sprintf("%s-%s-%s-%s-w%d", c.Layout, units.FormatSize(c.BlockSize), c.IOMode, c.Method, c.Writers)
}

// Round is one round of one case.
type Round struct {
	Samples            int   // commits timed
	Records            int   // records they wrote
	Wall               int64 // ns from the first commit's start to the last one's end
	Total, Write, Sync measure.Stats
	Metrics            wal.Metrics // the writer's counts over the measured records
}

// Result is one case over all its rounds. Pooled statistics come from the
// raw samples of every round and writer, never from per-round figures.
type Result struct {
	Case
	Rounds             []Round
	Total, Write, Sync measure.Stats // pooled; Write and Sync only with one writer
	Wall               int64         // sum of the rounds' walls
	Records            int
	Metrics            wal.Metrics          // summed over the rounds
	Verified           uint64               // records Replay read back over all rounds, warm-up included
	EOFBefore          int64                // the last round's first segment, before its first record
	EOFAfter           int64                // and after the writer closed
	Latency            measure.Distribution // the pooled commits' shape, kept for plots
}

// Split reports whether write and sync were timed apart: with one writer.
func (c Case) Split() bool { return c.Writers == 1 }

// CommitsPerSec is commits per second of wall time, all writers together.
func (r Result) CommitsPerSec() float64 { return measure.PerSec(float64(r.Total.N), r.Wall) }

// MiBPerSec is the records' bytes on disk per second of wall time.
func (r Result) MiBPerSec() float64 {
	return measure.PerSec(float64(int64(r.Records)*r.BlockSize)/(1<<20), r.Wall)
}

// SyncsPerSec is sync calls per second of wall time.
func (r Result) SyncsPerSec() float64 { return measure.PerSec(float64(r.Metrics.Syncs), r.Wall) }

// Run runs every case of cfg in run's directory, round after round (each
// round runs every case once, so slow drift of the disk spreads over all
// cases), and returns one Result per case. Each case-round writes a new log
// from warm-up to the last measured record, then closes it, checks its
// segments' sizes and reads every record back with Replay; progress gets a
// line per case-round saying so.
func Run(run *fixtures.Run, cfg Config, progress func(string)) ([]Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	progress = runner.Quiet(progress)
	cases := cfg.cases()
	acc := runner.Each(cases, func(c Case) *accumulator { return newAccumulator(c, cfg) })
	for r := range cfg.Rounds {
		for _, a := range acc {
			if err := run.Err(); err != nil { // stopped: no new case
				return finished(acc), err
			}
			line, err := runRound(run, cfg, r, a)
			if err != nil {
				return nil, fmt.Errorf("walbench: %s round %d: %w", a.c.Name(), r+1, err)
			}
			progress(fmt.Sprintf("round %d/%d %s: %s", r+1, cfg.Rounds, a.c.Name(), line))
		}
	}
	return runner.Each(acc, (*accumulator).result), nil
}

// finished returns the results of the cases that ran at least one round
// whole, for a run stopped between cases.
func finished(acc []*accumulator) []Result {
	var out []Result
	for _, a := range acc {
		if len(a.rounds) > 0 {
			out = append(out, a.result())
		}
	}
	return out
}

// cases lists the cells in table order: layout, size, I/O mode, method,
// writers.
func (c Config) cases() []Case {
	var cs []Case
	for _, l := range c.Layouts {
		for _, bs := range c.BlockSizes {
			for _, io := range c.IOModes {
				for _, m := range c.Methods {
					for _, w := range c.Writers {
						cs = append(cs, Case{Layout: l, BlockSize: bs, IOMode: io, Method: m, Writers: w,
							SyncEvery: c.SyncEvery, SegmentSize: c.SegmentSize(bs)})
					}
				}
			}
		}
	}
	return cs
}

// shares splits n records among writers, the first ones taking one more
// when n does not divide evenly.
func shares(n, writers int) []int {
	s := make([]int, writers)
	for i := range s {
		s[i] = n / writers
		if i < n%writers {
			s[i]++
		}
	}
	return s
}

// accumulator gathers one case's samples over all rounds: one preallocated
// buffer per writer, sized for every round, so that no round allocates.
type accumulator struct {
	c        Case
	cfg      Config
	samples  measure.Set
	rounds   []Round
	verified uint64
	before   int64
	after    int64
}

func newAccumulator(c Case, cfg Config) *accumulator {
	a := &accumulator{c: c, cfg: cfg}
	if c.Writers == 1 {
		a.samples = measure.NewSet(1, cfg.Rounds*cfg.Iterations/cfg.SyncEvery)
		return a
	}
	for _, n := range shares(cfg.Iterations, c.Writers) {
		a.samples = append(a.samples, measure.NewSamples(cfg.Rounds*n))
	}
	return a
}

// runRound writes, times, closes and reads back one log, and returns the
// line that says what was verified.
func runRound(run *fixtures.Run, cfg Config, round int, a *accumulator) (string, error) {
	c := a.c
	dir, err := run.Mkdir(fmt.Sprintf("%s-r%d", c.Name(), round+1))
	if err != nil {
		return "", err
	}
	if !run.Kept() {
		defer os.RemoveAll(dir)
	}
	w, err := wal.Open(wal.Options{Dir: dir, SegmentSize: c.SegmentSize, Layout: c.Layout, Method: c.Method, IOMode: c.IOMode})
	if err != nil {
		return "", err
	}
	before, err := segmentSizes(dir)
	if err != nil {
		w.Close()
		return "", err
	}
	mark := a.samples.Marks()
	sp, m, counts, err := timeRound(w, cfg, c, a.samples)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	after, err := segmentSizes(dir)
	if err != nil {
		return "", err
	}
	if c.Layout.FixedSize() {
		for i, size := range after {
			if size != c.SegmentSize {
				return "", fmt.Errorf("segment %d of a %s log is %d bytes after the round, not the %d it was made with: EOF moved", i+1, c.Layout, size, c.SegmentSize)
			}
		}
	}
	verified, err := verifyLog(dir, int(c.BlockSize)-wal.HeaderSize, counts)
	if err != nil {
		return "", err
	}
	a.addRound(mark, sp, m)
	a.verified += verified
	a.before, a.after = before[0], after[0]
	segments := "1 segment"
	if len(after) > 1 {
		segments = fmt.Sprintf("%d segments, EOF of the first", len(after))
	}
	return fmt.Sprintf("verified %d records; EOF %d before, %d after (%s)", verified, before[0], after[0], segments), nil
}

// timeRound runs the warm-up and the timed records of one round, with the
// garbage collector held off, and returns the measured span, the writer's
// counts over it, and how many records each writer wrote in all.
func timeRound(w *wal.Writer, cfg Config, c Case, samples []*measure.Samples) (measure.Span, wal.Metrics, []int, error) {
	payload := int(c.BlockSize) - wal.HeaderSize
	release := measure.Hold()
	defer release()
	if c.Writers == 1 {
		p := runner.Payload(payload)
		every := c.SyncEvery
		if _, err := writeBatches(w, p, 0, cfg.Warmup/every, every, nil); err != nil {
			return measure.Span{}, wal.Metrics{}, nil, err
		}
		m0 := w.Metrics()
		markStart(cfg.Marks)
		sp, err := writeBatches(w, p, cfg.Warmup, cfg.Iterations/every, every, samples[0])
		markStop(cfg.Marks, cfg.Iterations/every)
		return sp, w.Metrics().Since(m0), []int{cfg.Warmup + cfg.Iterations}, err
	}
	// Writer goroutines are not locked to threads: with more writers than
	// CPUs, a locked goroutine could run only on its own thread, adding
	// hand-offs that are not the log's.
	warm, meas := shares(cfg.Warmup, c.Writers), shares(cfg.Iterations, c.Writers)
	payloads := make([][]byte, c.Writers)
	counts := make([]int, c.Writers)
	for i := range payloads {
		payloads[i] = runner.Payload(payload)
		counts[i] = warm[i] + meas[i]
	}
	if _, err := appendConcurrently(w, payloads, make([]int, c.Writers), warm, nil); err != nil {
		return measure.Span{}, wal.Metrics{}, nil, err
	}
	m0 := w.Metrics()
	markStart(cfg.Marks)
	sp, err := appendConcurrently(w, payloads, warm, meas, samples)
	markStop(cfg.Marks, cfg.Iterations)
	return sp, w.Metrics().Since(m0), counts, err
}

// markStart opens a counting pass's window, if marks is set.
func markStart(marks syscount.Marker) {
	if marks != nil {
		marks.Start()
	}
}

// markStop closes a counting pass's window of commits commits, if marks is
// set.
func markStop(marks syscount.Marker, commits int) {
	if marks != nil {
		marks.Stop(commits)
	}
}

// addRound records the samples added since mark as one round.
func (a *accumulator) addRound(mark []int, sp measure.Span, m wal.Metrics) {
	sum := a.samples.SummarizeSince(mark)
	a.rounds = append(a.rounds, Round{Samples: sum.N, Records: sum.N * a.c.SyncEvery, Wall: sp.Wall(),
		Total: sum.Total, Write: sum.Write, Sync: sum.Sync, Metrics: m})
}

func (a *accumulator) result() Result {
	sum := a.samples.SummarizeSince(nil)
	total, _, _ := a.samples.All()
	r := Result{Case: a.c, Rounds: a.rounds, Total: sum.Total, Latency: measure.Distribute(total), Verified: a.verified, EOFBefore: a.before, EOFAfter: a.after}
	if a.c.Split() {
		r.Write, r.Sync = sum.Write, sum.Sync
	}
	for _, rd := range a.rounds {
		r.Wall += rd.Wall
		r.Records += rd.Records
		r.Metrics = r.Metrics.Plus(rd.Metrics)
	}
	return r
}
