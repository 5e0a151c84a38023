package neighbor

import (
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
)

// What a backlog cell and a stream cell share: the run's checks before
// anything is written, and each cell's probe file and neighbor process.

// runConfig is a mode's configuration as its run checks it.
type runConfig interface {
	Validate() error
	CheckSpace(dir string) error
}

// prepare begins RunBacklog and RunStream: it refuses an invalid cfg or one
// whose run would not fit on run's file system, before anything is written,
// then makes the directory probeDir for the probe files and returns its
// path with a progress that is never nil.
func prepare(run *fixtures.Run, cfg runConfig, probeDir string, progress func(string)) (string, func(string), error) {
	if err := cfg.Validate(); err != nil {
		return "", nil, err
	}
	if err := cfg.CheckSpace(run.Dir); err != nil {
		return "", nil, err
	}
	dir, err := run.Mkdir(probeDir)
	if err != nil {
		return "", nil, err
	}
	return dir, runner.Quiet(progress), nil
}

// startCell begins a cell: it creates the probe file at probePath for
// method m, starts the neighbor with task c, waits for its "ready" and tells
// the test hook so. It returns what "ready" said; its caller ends the cell
// with endCell. On error it has closed what it opened.
func startCell(cfg Config, m syscalls.Method, probePath string, c childConfig) (p *probe, n *neighbor, ready []int64, err error) {
	p, err = openProbe(probePath, m, cfg.hooks.sync)
	if err != nil {
		return nil, nil, nil, err
	}
	n, err = startNeighbor(cfg.Launch, c)
	if err != nil {
		p.close()
		return nil, nil, nil, err
	}
	if ready, err = n.expect(msgReady); err != nil {
		endCell(p, n, &err)
		return nil, nil, nil, err
	}
	cfg.hooks.tell("ready")
	return p, n, ready, nil
}

// endCell reaps the neighbor n, then closes the probe p, and sets *err to
// the first error of the two unless it holds one already.
func endCell(p *probe, n *neighbor, err *error) {
	if cerr := n.close(); *err == nil {
		*err = cerr
	}
	if cerr := p.close(); *err == nil {
		*err = cerr
	}
}
