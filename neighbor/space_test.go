package neighbor

import (
	"errors"
	"strings"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/dirtest"
	"github.com/durabench/durabench/syscalls"
)

// fakeFree returns a free-space function that reports free bytes and counts
// its calls.
func fakeFree(free uint64, calls *int) fixtures.FreeSpaceFunc {
	return func(string) (uint64, error) { *calls++; return free, nil }
}

// TestOversizeBacklogRefusedBeforeWriting: with too little free space, the
// run refuses before it creates a file or starts a neighbor.
func TestOversizeBacklogRefusedBeforeWriting(t *testing.T) {
	run := newRun(t)
	var calls int
	cfg := BacklogConfig{Config: testConfig(syscalls.Fsync), Backlogs: []int64{0, 1 << 30}, Trials: 1}
	cfg.hooks.freeSpace = fakeFree(2<<30, &calls) // 1 GiB may be used; 1 GiB + the probe is too much
	cfg.hooks.event = func(name string) { t.Errorf("the run went as far as %q", name) }
	_, err := RunBacklog(run, cfg, nil)
	if !errors.Is(err, fixtures.ErrNoSpace) {
		t.Fatalf("RunBacklog = %v, want ErrNoSpace", err)
	}
	if calls != 1 {
		t.Errorf("free space asked %d times, want 1", calls)
	}
	if names := dirtest.Names(t, run.Dir); len(names) != 0 {
		t.Errorf("the refused run created %v", names)
	}

	scfg := StreamConfig{Config: testConfig(syscalls.Fsync), Rates: []Rate{RateMax}, Passes: 1, Duration: 1e9, FileSize: 1 << 30, MaxSamples: 1}
	scfg.hooks = cfg.hooks
	if _, err := RunStream(run, scfg, nil); !errors.Is(err, fixtures.ErrNoSpace) {
		t.Fatalf("RunStream = %v, want ErrNoSpace", err)
	}
	if names := dirtest.Names(t, run.Dir); len(names) != 0 {
		t.Errorf("the refused stream run created %v", names)
	}
}

// TestNeighborRefusesOversizeBacklog: the neighbor checks on its own too,
// and creates nothing when refused.
func TestNeighborRefusesOversizeBacklog(t *testing.T) {
	parent := t.TempDir()
	var calls int
	c := childConfig{Mode: modeBacklog, Dir: parent + "/n", Bytes: 2 << 30, Timeout: 1e9}
	err := serveChild(c, strings.NewReader(""), new(strings.Builder), fakeFree(2<<30, &calls))
	if !errors.Is(err, fixtures.ErrNoSpace) {
		t.Fatalf("serveChild = %v, want ErrNoSpace", err)
	}
	if names := dirtest.Names(t, parent); len(names) != 0 {
		t.Errorf("the refused neighbor created %v", names)
	}
}
