package neighbor

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
)

// The stream run. Invariants (besides those of the package):
//   - A cell runs: create the probe file (synced) → start the neighbor at
//     its rate → "ready" → [PreSync: one untimed sync] → loop write + sync
//     for Duration → "stop" → the neighbor reports bytes and time → reap
//     it → verify and remove the probe file.
//   - The sample buffer is allocated once, before the first cell, and the
//     loop allocates nothing; each cell's samples are copied out after its
//     clock has stopped.

// StreamSample is one cell of a stream run.
type StreamSample struct {
	StreamCell
	// Total, Write and Sync are the probe's samples (whole write + sync and
	// its parts), in ns, in the order taken.
	Total, Write, Sync []int64
	// Wall is the span of the probe's loop, in ns.
	Wall int64
	// Full reports that the loop stopped at MaxSamples before Duration.
	Full bool
	// NeighborBytes and NeighborNs are what the neighbor wrote and over how
	// long, by its own clock.
	NeighborBytes, NeighborNs int64
	// PreSync is how long the flawed variant's untimed sync took (0 when
	// not run).
	PreSync int64
	// DeviceWritten is the bytes the device wrote (for anyone) during the
	// loop, or -1 where the OS does not say.
	DeviceWritten int64
}

// Achieved returns the neighbor's achieved rate in bytes per second.
func (s StreamSample) Achieved() float64 {
	if s.NeighborNs <= 0 {
		return 0
	}
	return float64(s.NeighborBytes) / (float64(s.NeighborNs) / 1e9)
}

// StreamResult is a whole stream run, samples in the order they ran.
type StreamResult struct {
	Config  StreamConfig
	Samples []StreamSample
}

// Cell returns the samples of one (rate, method) cell, one per pass, in
// pass order.
func (r *StreamResult) Cell(rate Rate, m syscalls.Method) []StreamSample {
	var out []StreamSample
	for _, s := range r.Samples {
		if s.Rate == rate && s.Method == m {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b StreamSample) int { return a.Pass - b.Pass })
	return out
}

// RunStream runs every cell of cfg inside run's directory, in the order of
// StreamSchedule. It checks free space before anything is written.
func RunStream(run *fixtures.Run, cfg StreamConfig, progress func(string)) (*StreamResult, error) {
	probeDir, progress, err := prepare(run, cfg, "stream-probe", progress)
	if err != nil {
		return nil, err
	}
	buf := measure.NewSamples(cfg.MaxSamples)
	res := &StreamResult{Config: cfg}
	for i, c := range StreamSchedule(cfg.Rates, cfg.Methods, cfg.Passes) {
		if err := run.Err(); err != nil { // stopped: no new cell; the passes so far stand
			return res, err
		}
		progress(fmt.Sprintf("stream pass %d/%d: %s next to %s/s for %v", c.Pass+1, cfg.Passes, c.Method, c.Rate, cfg.Duration))
		buf.Reset()
		s, err := runStreamCell(cfg, c, buf,
			filepath.Join(probeDir, fmt.Sprintf("probe-%03d", i)),
			run.Path(fmt.Sprintf("stream-neighbor-%03d", i)))
		if err != nil {
			return nil, fmt.Errorf("neighbor: stream %s/s, %s, pass %d: %w", c.Rate, c.Method, c.Pass+1, err)
		}
		res.Samples = append(res.Samples, s)
	}
	return res, nil
}

// runStreamCell runs one cell into buf: see the invariants at the top of
// the file.
func runStreamCell(cfg StreamConfig, c StreamCell, buf *measure.Samples, probePath, nbrDir string) (s StreamSample, err error) {
	s = StreamSample{StreamCell: c}
	p, n, _, err := startCell(cfg.Config, c.Method, probePath, childConfig{Mode: modeStream, Dir: nbrDir, Rate: c.Rate, FileSize: cfg.FileSize, Timeout: cfg.Timeout})
	if err != nil {
		return s, err
	}
	defer endCell(p, n, &err)
	if cfg.PreSync {
		if s.PreSync, err = p.presync(); err != nil {
			return s, err
		}
	}

	dir := filepath.Dir(probePath)
	before := look(dir)
	cfg.hooks.tell("clock")
	release := measure.Hold()
	s.Wall, err = p.loop(int64(cfg.Duration/time.Nanosecond), buf)
	release()
	if err != nil {
		return s, err
	}
	s.DeviceWritten = before.writtenSince(look(dir))
	s.Full = buf.Len() == cap(buf.Total) && s.Wall < int64(cfg.Duration)
	s.Total, s.Write, s.Sync = slices.Clone(buf.Total), slices.Clone(buf.Write), slices.Clone(buf.Sync)

	if err := n.send(cmdStop); err != nil {
		return s, err
	}
	stopped, err := n.expect(msgStopped)
	if err != nil {
		return s, err
	}
	s.NeighborBytes, s.NeighborNs = stopped[0], stopped[1]
	cfg.hooks.tell("neighbor stopped")
	if err := n.close(); err != nil {
		return s, err
	}
	return s, p.verify()
}
