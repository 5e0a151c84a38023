package neighbor

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
)

// The backlog run. Invariants (besides those of the package):
//   - A cell runs: create the probe file (synced) → start the neighbor →
//     "ready" → [PreSync: one untimed sync] → one timed write + sync → the
//     neighbor's timed full sync → reap the neighbor → verify and remove
//     the probe file. Nothing else syncs between "ready" and the clock.
//   - The neighbor's file holds exactly the backlog asked when the clock
//     starts: it says how many bytes it wrote, and the parent stats the file.

// BacklogSample is one cell of a backlog run.
type BacklogSample struct {
	BacklogCell
	// Total, Write and Sync are the probe's one timed write + sync and its
	// parts, in ns.
	Total, Write, Sync int64
	// NeighborSync is how long the neighbor's own full sync took after the
	// probe's, in ns.
	NeighborSync int64
	// NeighborBytes is what the neighbor said it wrote; NeighborFileSize is
	// its file's size as the parent saw it before the clock started.
	NeighborBytes, NeighborFileSize int64
	// PreSync is how long the flawed variant's untimed sync took (0 when
	// not run).
	PreSync int64
	// Dirty is the machine's dirty page cache when the clock started, in
	// bytes; DeviceDuringProbe and DeviceDuringNeighbor are the bytes the
	// device wrote (for anyone) during the probe's write + sync and during
	// the neighbor's sync. Each is -1 where the OS does not say.
	Dirty, DeviceDuringProbe, DeviceDuringNeighbor int64
}

// BacklogResult is a whole backlog run, samples in the order they ran.
type BacklogResult struct {
	Config  BacklogConfig
	Samples []BacklogSample
}

// Cell returns the samples of one (backlog, method) cell, in trial order.
func (r *BacklogResult) Cell(backlog int64, m syscalls.Method) []BacklogSample {
	var out []BacklogSample
	for _, s := range r.Samples {
		if s.Backlog == backlog && s.Method == m {
			out = append(out, s)
		}
	}
	return out
}

// RunBacklog runs every cell of cfg inside run's directory, in the order of
// BacklogSchedule. It checks free space before anything is written.
func RunBacklog(run *fixtures.Run, cfg BacklogConfig, progress func(string)) (*BacklogResult, error) {
	probeDir, progress, err := prepare(run, cfg, "probe", progress)
	if err != nil {
		return nil, err
	}
	res := &BacklogResult{Config: cfg}
	for i, c := range BacklogSchedule(cfg.Backlogs, cfg.Methods, cfg.Trials) {
		if err := run.Err(); err != nil { // stopped: no new cell; the trials so far stand
			return res, err
		}
		progress(fmt.Sprintf("backlog trial %d/%d: %s behind %s", c.Trial+1, cfg.Trials, c.Method, units.FormatSize(c.Backlog)))
		s, err := runBacklogCell(cfg.Config, c,
			filepath.Join(probeDir, fmt.Sprintf("probe-%03d", i)),
			run.Path(fmt.Sprintf("neighbor-%03d", i)))
		if err != nil {
			return nil, fmt.Errorf("neighbor: backlog %s, %s, trial %d: %w", units.FormatSize(c.Backlog), c.Method, c.Trial+1, err)
		}
		res.Samples = append(res.Samples, s)
	}
	return res, nil
}

// runBacklogCell runs one cell: see the invariants at the top of the file.
func runBacklogCell(cfg Config, c BacklogCell, probePath, nbrDir string) (s BacklogSample, err error) {
	s = BacklogSample{BacklogCell: c}
	p, n, ready, err := startCell(cfg, c.Method, probePath, childConfig{Mode: modeBacklog, Dir: nbrDir, Bytes: c.Backlog, Timeout: cfg.Timeout})
	if err != nil {
		return s, err
	}
	defer endCell(p, n, &err)
	s.NeighborBytes = ready[0]
	st, err := os.Stat(n.file())
	if err != nil {
		return s, fmt.Errorf("the neighbor's file: %w", err)
	}
	s.NeighborFileSize = st.Size()
	if s.NeighborBytes != c.Backlog || s.NeighborFileSize != c.Backlog {
		return s, fmt.Errorf("asked for a %d-byte backlog, the neighbor says %d and its file holds %d",
			c.Backlog, s.NeighborBytes, s.NeighborFileSize)
	}
	if cfg.PreSync {
		if s.PreSync, err = p.presync(); err != nil {
			return s, err
		}
	}

	dir := filepath.Dir(probePath)
	before := look(dir)
	s.Dirty = before.dirty
	cfg.hooks.tell("clock")
	release := measure.Hold()
	s.Total, s.Write, s.Sync, _, err = p.once()
	release()
	if err != nil {
		return s, err
	}
	afterProbe := look(dir)
	s.DeviceDuringProbe = before.writtenSince(afterProbe)

	if err := n.send(cmdSync); err != nil {
		return s, err
	}
	synced, err := n.expect(msgSynced)
	if err != nil {
		return s, err
	}
	s.NeighborSync = synced[0]
	s.DeviceDuringNeighbor = afterProbe.writtenSince(look(dir))
	cfg.hooks.tell("neighbor synced")
	if err := n.close(); err != nil {
		return s, err
	}
	return s, p.verify()
}

// tell passes a step's name to the test hook, if any.
func (h hooks) tell(name string) {
	if h.event != nil {
		h.event(name)
	}
}
