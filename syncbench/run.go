package syncbench

import (
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
)

// Case is one cell of the results: a workload, write size, method and thread
// count, under the run's order and batch size.
type Case struct {
	Workload  Workload
	BlockSize int64
	Method    syscalls.Method
	Threads   int
	Order     Order
	SyncEvery int
}

// Name is a short label for progress lines and file names.
func (c Case) Name() string {
	s := fmt.Sprintf("%s-%s-%s", c.Workload, units.FormatSize(c.BlockSize), c.Method)
	if c.Threads > 1 {
		s += fmt.Sprintf("-t%d", c.Threads)
	}
	return s
}

// Round is one round of one case. Wall spans the measured samples of all its
// threads, so throughput includes the loop's own overhead.
type Round struct {
	Samples            int
	Bytes              int64
	Wall               int64 // ns
	Total, Write, Sync measure.Stats
}

// Result is one case over all its rounds. Pooled statistics are computed over
// the raw samples of every round and thread, never from per-round figures.
type Result struct {
	Case
	Rounds             []Round
	Total, Write, Sync measure.Stats // pooled
	Wall               int64         // sum of the rounds' walls
	Bytes              int64
	Staircase          measure.Staircase
	Histogram          measure.Histogram
	Latency            measure.Distribution // the pooled samples' shape, kept for plots
	Verified           int                  // writes whose stamps were read back, over all rounds
	FileSize           int64                // size of the last round's file(s) after the run
}

// OpsPerSec is samples per second of wall time, over all threads.
func (r Result) OpsPerSec() float64 { return measure.PerSec(float64(r.Total.N), r.Wall) }

// MiBPerSec is payload bytes per second of wall time.
func (r Result) MiBPerSec() float64 { return measure.PerSec(float64(r.Bytes)/(1<<20), r.Wall) }

// Progress receives a line before each case of each round.
type Progress func(line string)

// Run runs every case of cfg inside run's directory and returns one Result per
// case, in table order. Files are created before the clock starts, checked
// after it stops, and removed as each case ends.
func Run(run *fixtures.Run, cfg Config, progress Progress) ([]Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	progress = runner.Quiet(progress)
	cases := cfg.cases()
	acc := runner.Each(cases, func(c Case) *accumulator { return newAccumulator(c, cfg) })
	for r := range cfg.Rounds {
		if cfg.Order == Interleaved {
			// Cases come in groups of len(cfg.Methods) sharing a workload and size.
			for i := 0; i < len(cases); i += len(cfg.Methods) {
				if err := run.Err(); err != nil { // stopped: no new case
					return finished(acc, cfg), err
				}
				group := acc[i : i+len(cfg.Methods)]
				progress(fmt.Sprintf("round %d/%d: %s %s, %d methods interleaved", r+1, cfg.Rounds,
					cases[i].Workload, units.FormatSize(cases[i].BlockSize), len(group)))
				if err := runInterleavedRound(run, cfg, r, group); err != nil {
					return nil, err
				}
			}
			continue
		}
		for _, a := range acc {
			if err := run.Err(); err != nil { // stopped: no new case
				return finished(acc, cfg), err
			}
			progress(fmt.Sprintf("round %d/%d: %s", r+1, cfg.Rounds, a.c.Name()))
			if err := runThreadedRound(run, cfg, r, a); err != nil {
				return nil, err
			}
		}
	}
	return runner.Each(acc, func(a *accumulator) Result { return a.result(cfg) }), nil
}

// finished returns the results of the cases that ran at least one round
// whole, for a run stopped between cases: their figures stand, pooled over
// the rounds they ran.
func finished(acc []*accumulator, cfg Config) []Result {
	var out []Result
	for _, a := range acc {
		if len(a.rounds) > 0 {
			out = append(out, a.result(cfg))
		}
	}
	return out
}

// cases lists the cells in table order: workload, size, threads, method.
func (c Config) cases() []Case {
	var cs []Case
	for _, w := range c.Workloads {
		for _, bs := range c.BlockSizes {
			for _, t := range c.Threads {
				for _, m := range c.Methods {
					cs = append(cs, Case{Workload: w, BlockSize: bs, Method: m, Threads: t, Order: c.Order, SyncEvery: c.SyncEvery})
				}
			}
		}
	}
	return cs
}

// accumulator gathers one case's samples over all rounds: one preallocated
// buffer per thread, sized for every round, so no round allocates.
type accumulator struct {
	c        Case
	samples  measure.Set
	rounds   []Round
	verified int
	size     int64
}

func newAccumulator(c Case, cfg Config) *accumulator {
	per := cfg.Rounds * cfg.IterationsFor(c.BlockSize) / cfg.SyncEvery
	return &accumulator{c: c, samples: measure.NewSet(c.Threads, per)}
}

// addRound records the samples added since mark (one length per thread);
// wall is the time they took together.
func (a *accumulator) addRound(mark []int, wall int64, cfg Config) {
	sum := a.samples.SummarizeSince(mark)
	a.rounds = append(a.rounds, Round{Samples: sum.N, Bytes: int64(sum.N) * int64(cfg.SyncEvery) * a.c.BlockSize,
		Wall: wall, Total: sum.Total, Write: sum.Write, Sync: sum.Sync})
}

func (a *accumulator) result(cfg Config) Result {
	all, _, _ := a.samples.All()
	sum := a.samples.SummarizeSince(nil)
	r := Result{
		Case:      a.c,
		Rounds:    a.rounds,
		Total:     sum.Total,
		Write:     sum.Write,
		Sync:      sum.Sync,
		Verified:  a.verified,
		FileSize:  a.size,
		Histogram: measure.NewHistogram(all),
		Latency:   measure.Distribute(all),
	}
	if cfg.Staircase {
		r.Staircase = measure.StaircaseOf(all, measure.DefaultTolerance)
	}
	for _, rd := range a.rounds {
		r.Wall += rd.Wall
		r.Bytes += rd.Bytes
	}
	return r
}

// fileSpec is where and how large one case's file is.
type fileSpec struct {
	path     string
	state    fixtures.State
	size     int64 // the file's size when made (fixed states)
	capacity int64 // bytes the cursor may use before wrapping (overwrite) or EOF (fallocate)
	wrap     bool
}

func (cfg Config) fileSpec(run *fixtures.Run, c Case, round, thread int) fileSpec {
	name := fmt.Sprintf("%s-r%d", c.Name(), round+1)
	if c.Order == Interleaved {
		name = fmt.Sprintf("%s-%s-interleaved-r%d", c.Workload, units.FormatSize(c.BlockSize), round+1)
	}
	if c.Threads > 1 {
		name += fmt.Sprintf("-%d", thread)
	}
	spec := fileSpec{path: run.Path(name), state: c.Workload.State(), wrap: c.Workload == Overwrite}
	if spec.state.FixedSize() {
		spec.size = cfg.FileSize
		spec.capacity = cfg.FileSize / c.BlockSize * c.BlockSize
	}
	return spec
}

// openTarget creates the file in its state and opens it for the method.
func openTarget(spec fileSpec, m syscalls.Method, c Case, cur *cursor) (*target, error) {
	if cur == nil {
		cur = &cursor{bs: c.BlockSize, capacity: spec.capacity, wrap: spec.wrap}
		if err := fixtures.Create(spec.path, spec.state, spec.size); err != nil {
			return nil, err
		}
	}
	f, err := syscalls.OpenFile(spec.path, os.O_WRONLY|m.OpenFlag(), 0)
	if err != nil {
		return nil, fmt.Errorf("syncbench: open %s for %s: %w", spec.path, m, err)
	}
	buf := syscalls.AlignedBuffer(int(c.BlockSize), 4096)
	runner.Fill(buf)
	return &target{f: f, method: m, syncs: m.SyncsExplicitly(), buf: buf, cur: cur}, nil
}

func runThreadedRound(run *fixtures.Run, cfg Config, round int, a *accumulator) error {
	c := a.c
	specs := make([]fileSpec, c.Threads)
	targets := make([]*target, c.Threads)
	defer func() {
		for _, t := range targets {
			if t != nil {
				t.f.Close()
			}
		}
		if !run.Kept() {
			for _, s := range specs {
				os.Remove(s.path)
			}
		}
	}()
	for i := range targets {
		specs[i] = cfg.fileSpec(run, c, round, i)
		t, err := openTarget(specs[i], c.Method, c, nil)
		if err != nil {
			return err
		}
		targets[i] = t
	}
	mark := a.samples.Marks()
	every, warm, meas := cfg.SyncEvery, cfg.Warmup/cfg.SyncEvery, cfg.IterationsFor(c.BlockSize)/cfg.SyncEvery

	var sp measure.Span
	if c.Threads == 1 {
		release := measure.Hold()
		s, err := runSequential(targets[0], every, warm, meas, a.samples[0], cfg.Marks)
		release()
		if err != nil {
			return fmt.Errorf("syncbench: %s: %w", c.Name(), err)
		}
		sp = s
	} else {
		release := measure.Hold()
		spans := make([]measure.Span, c.Threads)
		errs := make([]error, c.Threads)
		var wg sync.WaitGroup
		gate := make(chan struct{})
		for i, t := range targets {
			wg.Go(func() {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				<-gate
				spans[i], errs[i] = runSequential(t, every, warm, meas, a.samples[i], nil)
			})
		}
		close(gate)
		wg.Wait()
		release()
		for _, err := range errs {
			if err != nil {
				return fmt.Errorf("syncbench: %s: %w", c.Name(), err)
			}
		}
		sp = spans[0]
		for _, s := range spans[1:] {
			sp = sp.Union(s)
		}
	}
	a.addRound(mark, sp.Wall(), cfg)
	for i, t := range targets {
		n, size, err := verify(t.f.Name(), t.cur, specs[i])
		if err != nil {
			return err
		}
		a.verified += n
		a.size = size
	}
	return nil
}

func runInterleavedRound(run *fixtures.Run, cfg Config, round int, group []*accumulator) error {
	spec := cfg.fileSpec(run, group[0].c, round, 0)
	targets := make([]*target, len(group))
	defer func() {
		for _, t := range targets {
			if t != nil {
				t.f.Close()
			}
		}
		if !run.Kept() {
			os.Remove(spec.path)
		}
	}()
	var cur *cursor
	for i, a := range group {
		t, err := openTarget(spec, a.c.Method, a.c, cur)
		if err != nil {
			return err
		}
		targets[i], cur = t, t.cur
	}
	samples := make([]*measure.Samples, len(group))
	marks := make([][]int, len(group))
	for i, a := range group {
		samples[i], marks[i] = a.samples[0], a.samples.Marks()
	}
	release := measure.Hold()
	err := runInterleaved(targets, cfg.SyncEvery, cfg.Warmup/cfg.SyncEvery, cfg.IterationsFor(group[0].c.BlockSize)/cfg.SyncEvery, samples, cfg.Marks)
	release()
	if err != nil {
		return fmt.Errorf("syncbench: interleaved %s %s: %w", group[0].c.Workload, units.FormatSize(group[0].c.BlockSize), err)
	}
	// The methods take turns, so the round's wall time is theirs together;
	// each method's throughput counts only the time of its own samples.
	for i, a := range group {
		var own int64
		for _, ns := range samples[i].Total[marks[i][0]:] {
			own += ns
		}
		a.addRound(marks[i], own, cfg)
	}
	n, size, err := verify(spec.path, cur, spec)
	if err != nil {
		return err
	}
	for _, a := range group {
		a.verified += n / len(group)
		a.size = size
	}
	return nil
}
