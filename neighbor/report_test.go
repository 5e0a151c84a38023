package neighbor

import (
	"bytes"
	"testing"
	"time"

	"github.com/durabench/durabench/internal/golden"
	"github.com/durabench/durabench/syscalls"
)

// fixedBacklog is a backlog result with made-up figures: three trials of
// fsync and fdatasync behind 0 and 1 GiB, one trial's kernel figures
// unknown.
func fixedBacklog(preSync bool) *BacklogResult {
	cfg := BacklogConfig{Config: testConfig(syscalls.Fsync, syscalls.Fdatasync), Backlogs: []int64{0, 1 << 30}, Trials: 3}
	cfg.PreSync = preSync
	r := &BacklogResult{Config: cfg}
	for i, c := range BacklogSchedule(cfg.Backlogs, cfg.Methods, cfg.Trials) {
		k := int64(i%3 + 1)
		s := BacklogSample{BacklogCell: c, Write: 9_000 * k, Sync: 300_000 * k, NeighborSync: 50_000 * k,
			NeighborBytes: c.Backlog, NeighborFileSize: c.Backlog, Dirty: c.Backlog + 4<<20,
			DeviceDuringProbe: 64 << 10 * k, DeviceDuringNeighbor: 1 << 20}
		if c.Backlog > 0 {
			s.NeighborSync = 1_900_000_000 + 100_000_000*k
			s.DeviceDuringNeighbor = c.Backlog + 3<<20
		}
		if preSync {
			s.PreSync = 200_000 * k
		}
		if c.Trial == 2 {
			s.Dirty, s.DeviceDuringProbe, s.DeviceDuringNeighbor = unknown, unknown, unknown
		}
		s.Total = s.Write + s.Sync
		r.Samples = append(r.Samples, s)
	}
	return r
}

func TestBacklogReport(t *testing.T) {
	for _, pre := range []bool{false, true} {
		var buf bytes.Buffer
		if err := BacklogReport(&buf, fixedBacklog(pre)); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "backlog-"+fixedBacklog(pre).Config.Variant()+".golden", buf.Bytes())
	}
}

func TestStreamReport(t *testing.T) {
	cfg := StreamConfig{Config: testConfig(syscalls.Fdatasync), Rates: []Rate{RateIdle, 100 << 20, RateMax},
		Passes: 2, Duration: 5 * time.Second, FileSize: 1 << 30, MaxSamples: 4}
	r := &StreamResult{Config: cfg}
	for i, c := range StreamSchedule(cfg.Rates, cfg.Methods, cfg.Passes) {
		k := int64(i + 1)
		s := StreamSample{StreamCell: c, Wall: 5_000_000_000, DeviceWritten: 10 << 20 * k,
			Total: []int64{100_000 * k, 120_000 * k, 150_000 * k, 2_000_000 * k},
			Write: []int64{1, 2, 3, 4}, Sync: []int64{1, 2, 3, 4}}
		switch c.Rate {
		case RateIdle:
		case RateMax:
			s.NeighborBytes, s.NeighborNs = 10<<30, 5_000_000_000
		default:
			s.NeighborBytes, s.NeighborNs = 500<<20, 5_000_000_000
		}
		if c.Pass == 1 && c.Rate == RateMax {
			s.Full, s.Wall = true, 4_000_000_000
		}
		r.Samples = append(r.Samples, s)
	}
	var buf bytes.Buffer
	if err := StreamReport(&buf, r); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "stream.golden", buf.Bytes())
}
