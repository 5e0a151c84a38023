package sqlitebench

import (
	"errors"
	"testing"

	"github.com/durabench/durabench/fixtures"
)

func TestStepsCountsProgressLines(t *testing.T) {
	f := &fakeEngine{}
	cfg := smallConfig("modernc")
	lines := 0
	if _, err := runWith(newRun(t), cfg, func(string) { lines++ }, f.lookup); err != nil {
		t.Fatal(err)
	}
	if lines != cfg.Steps() {
		t.Errorf("Run gave %d progress lines, Steps() = %d", lines, cfg.Steps())
	}
}

// A run stopped between cases returns the cases that finished, whole, and
// an error wrapping fixtures.ErrStopped.
func TestStoppedRunKeepsFinishedCases(t *testing.T) {
	f := &fakeEngine{}
	cfg := smallConfig("modernc")
	cfg.Rounds = 1
	run := newRun(t)
	steps := 0
	out, err := runWith(run, cfg, func(string) {
		if steps++; steps == 1+3 { // the engine's defaults, then the third case begins
			run.Stop(errors.New("test"))
		}
	}, f.lookup)
	if !errors.Is(err, fixtures.ErrStopped) {
		t.Fatalf("err = %v, want fixtures.ErrStopped", err)
	}
	if len(out.Results) != 3 || len(out.Engines) != 1 {
		t.Fatalf("%d results and %d engines after a stop in the third of 4 cases, want 3 and 1", len(out.Results), len(out.Engines))
	}
	for _, r := range out.Results {
		if r.Total.N != cfg.Commits || len(r.Rounds) != 1 {
			t.Errorf("%s: %d commits in %d rounds, want every commit of its round (%d)", r.Name(), r.Total.N, len(r.Rounds), cfg.Commits)
		}
	}
	if recs := Records(cfg, out, "env"); len(recs) != 3*2 {
		t.Errorf("%d records of the finished cases, want 3 × (1 round + pooled)", len(recs))
	}
}
