package neighbor

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/durabench/durabench/internal/dirtest"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syscalls"
)

func TestRunBacklog(t *testing.T) {
	run := newRun(t)
	methods := []syscalls.Method{syscalls.Fsync, syscalls.Fdatasync}
	cfg := BacklogConfig{Config: testConfig(methods...), Backlogs: []int64{0, 8 << 20}, Trials: 3}
	var lines []string
	res, err := RunBacklog(run, cfg, func(l string) { lines = append(lines, l) })
	if err != nil {
		t.Fatal(err)
	}
	schedule := BacklogSchedule(cfg.Backlogs, methods, cfg.Trials)
	if len(res.Samples) != len(schedule) || len(lines) != len(schedule) || cfg.Steps() != len(lines) {
		t.Fatalf("%d samples, %d progress lines and %d Steps(), want %d", len(res.Samples), len(lines), cfg.Steps(), len(schedule))
	}
	for i, s := range res.Samples {
		if s.BacklogCell != schedule[i] {
			t.Errorf("sample %d is %+v, want the schedule's %+v", i, s.BacklogCell, schedule[i])
		}
		if s.NeighborBytes != s.Backlog || s.NeighborFileSize != s.Backlog {
			t.Errorf("sample %d: backlog %d, neighbor wrote %d, its file held %d", i, s.Backlog, s.NeighborBytes, s.NeighborFileSize)
		}
		if s.Total <= 0 || s.Write <= 0 || s.Sync <= 0 || s.Total < s.Write+s.Sync || s.NeighborSync <= 0 {
			t.Errorf("sample %d has impossible times %+v", i, s)
		}
		if s.PreSync != 0 {
			t.Errorf("sample %d of the clean variant pre-synced for %d ns", i, s.PreSync)
		}
	}
	if got := res.Cell(8<<20, syscalls.Fdatasync); len(got) != 3 || got[2].Trial != 2 {
		t.Errorf("Cell(8M, fdatasync) = %+v", got)
	}
	noNeighborLeft(t, run)
	if names := dirtest.Names(t, run.Path("probe")); len(names) != 0 {
		t.Errorf("probe files left behind: %v", names)
	}

	recs := BacklogRecords(res, "env-1")
	if want := len(schedule) + len(cfg.Backlogs)*len(methods); len(recs) != want {
		t.Fatalf("%d records, want %d (one per trial and one pooled per cell)", len(recs), want)
	}
	pooled := recs[cfg.Trials] // 0 bytes, fsync: trials 1..3, then pooled
	if pooled.Round != results.PooledRound || pooled.N != 3 || pooled.Params.Get("backlog") != "0" || pooled.Params.Get("method") != "fsync" || pooled.Params.Get("variant") != "clean" {
		t.Errorf("pooled record %+v", pooled)
	}
	if _, ok := pooled.Metrics["neighbor_sync_ns_p50"]; !ok {
		t.Errorf("pooled record lacks the neighbor's sync: %v", pooled.Metrics)
	}
	if last := recs[len(recs)-2]; last.Params.Get("backlog") != "8M" || last.Metrics["neighbor_bytes"] != 8<<20 {
		t.Errorf("last trial record %+v", last)
	}
}

// syncLog replaces the probe's sync with one that records each call in the
// same log as the run's steps, so the test sees what synced when.
func syncLog(cfg *Config) *[]string {
	var log []string
	cfg.hooks.sync = func(f *syscalls.File, m syscalls.Method) error {
		log = append(log, "sync "+m.String())
		return f.Sync(m)
	}
	cfg.hooks.event = func(name string) { log = append(log, name) }
	return &log
}

// TestPreSyncRunsOneUntimedSyncBeforeTheClock: the clean probe syncs only
// inside the timed interval; the pre-sync variant adds exactly one sync,
// after the neighbor is ready and before the clock starts.
func TestPreSyncRunsOneUntimedSyncBeforeTheClock(t *testing.T) {
	for _, tt := range []struct {
		preSync bool
		method  syscalls.Method
		want    []string
	}{
		{false, syscalls.Fdatasync, []string{"ready", "clock", "sync fdatasync", "neighbor synced"}},
		{true, syscalls.Fdatasync, []string{"ready", "sync fdatasync", "clock", "sync fdatasync", "neighbor synced"}},
		// A method that syncs inside the write pre-syncs with fsync(2).
		{true, syscalls.Dsync, []string{"ready", "sync fsync", "clock", "sync dsync", "neighbor synced"}},
	} {
		run := newRun(t)
		cfg := BacklogConfig{Config: testConfig(tt.method), Backlogs: []int64{1 << 20}, Trials: 2}
		cfg.PreSync = tt.preSync
		log := syncLog(&cfg.Config)
		res, err := RunBacklog(run, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Concat(tt.want, tt.want) // two trials
		if !slices.Equal(*log, want) {
			t.Errorf("pre-sync=%v %s: steps\n%q\nwant\n%q", tt.preSync, tt.method, *log, want)
		}
		for _, s := range res.Samples {
			if (s.PreSync > 0) != tt.preSync {
				t.Errorf("pre-sync=%v: sample's pre-sync took %d ns", tt.preSync, s.PreSync)
			}
		}
		recs := BacklogRecords(res, "e")
		if got := recs[0].Params.Get("variant"); got != cfg.Variant() || (got == "pre-sync") != tt.preSync {
			t.Errorf("record variant %q for pre-sync=%v", got, tt.preSync)
		}
	}

	// Stream mode: the same single untimed sync before the loop.
	run := newRun(t)
	cfg := StreamConfig{Config: testConfig(syscalls.Fsync), Rates: []Rate{RateIdle}, Passes: 1,
		Duration: 20 * time.Millisecond, FileSize: chunk, MaxSamples: 100_000}
	cfg.PreSync = true
	log := syncLog(&cfg.Config)
	res, err := RunStream(run, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(res.Samples[0].Total)
	if clock := slices.Index(*log, "clock"); clock != 2 || (*log)[1] != "sync fsync" {
		t.Errorf("stream steps start %q, want ready, one sync, clock", (*log)[:min(len(*log), 4)])
	}
	if syncs := len(*log) - 4; syncs != n { // ready, pre-sync, clock, ..., neighbor stopped
		t.Errorf("%d timed syncs for %d samples", syncs, n)
	}
}

func TestRunStream(t *testing.T) {
	run := newRun(t)
	methods := []syscalls.Method{syscalls.Fdatasync, syscalls.None}
	cfg := StreamConfig{Config: testConfig(methods...), Rates: []Rate{RateIdle, 50 << 20, RateMax}, Passes: 2,
		Duration: 60 * time.Millisecond, FileSize: 4 << 20, MaxSamples: 200_000}
	lines := 0
	res, err := RunStream(run, cfg, func(string) { lines++ })
	if err != nil {
		t.Fatal(err)
	}
	if lines != cfg.Steps() {
		t.Errorf("RunStream gave %d progress lines, Steps() = %d", lines, cfg.Steps())
	}
	schedule := StreamSchedule(cfg.Rates, methods, cfg.Passes)
	if len(res.Samples) != len(schedule) {
		t.Fatalf("%d samples, want %d", len(res.Samples), len(schedule))
	}
	for i, s := range res.Samples {
		if s.StreamCell != schedule[i] {
			t.Errorf("cell %d is %+v, want %+v", i, s.StreamCell, schedule[i])
		}
		if len(s.Total) == 0 || len(s.Total) != len(s.Write) || len(s.Total) != len(s.Sync) {
			t.Errorf("cell %d: %d/%d/%d samples", i, len(s.Total), len(s.Write), len(s.Sync))
		}
		if !s.Full && s.Wall < int64(cfg.Duration) {
			t.Errorf("cell %d looped %d ns, less than --duration and not full", i, s.Wall)
		}
		switch {
		case s.Rate == RateIdle && s.NeighborBytes != 0:
			t.Errorf("cell %d: idle neighbor wrote %d bytes", i, s.NeighborBytes)
		case s.Rate != RateIdle && s.NeighborBytes == 0:
			t.Errorf("cell %d: neighbor at %s wrote nothing", i, s.Rate)
		case s.Rate > 0 && float64(s.NeighborBytes) > float64(streamBurst)+float64(s.Rate)*float64(s.NeighborNs)/1e9:
			t.Errorf("cell %d: neighbor at %s wrote %d bytes in %d ns, more than its bucket allows", i, s.Rate, s.NeighborBytes, s.NeighborNs)
		}
	}
	noNeighborLeft(t, run)
	recs := StreamRecords(res, "env-1")
	if want := len(schedule) + len(cfg.Rates)*len(methods); len(recs) != want {
		t.Fatalf("%d records, want %d", len(recs), want)
	}
	for _, r := range recs {
		if r.Round == results.PooledRound {
			cell := res.Cell(mustRate(t, r.Params.Get("rate")), mustMethod(t, r.Params.Get("method")))
			if r.N != len(cell[0].Total)+len(cell[1].Total) {
				t.Errorf("pooled %v has n %d, not the sum of its passes", r.Params, r.N)
			}
		}
	}
}

func mustRate(t *testing.T, s string) Rate {
	rs, err := ParseRates(s)
	if err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

func mustMethod(t *testing.T, s string) syscalls.Method {
	m, err := syscalls.ParseMethod(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestNeighborFailureIsReported: a neighbor that cannot start its task
// fails the run with what it said.
func TestNeighborFailureIsReported(t *testing.T) {
	run := newRun(t)
	cfg := BacklogConfig{Config: testConfig(syscalls.Fsync), Backlogs: []int64{0}, Trials: 1}
	cfg.Launch.Args = []string{"--bogus"}
	_, err := RunBacklog(run, cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "neighbor ended before saying \"ready\"") || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("RunBacklog with a broken neighbor = %v", err)

	}
}
