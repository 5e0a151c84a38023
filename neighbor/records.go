package neighbor

import (
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syscalls"
)

// Experiment is the experiment name of every record this package makes.
const Experiment = "neighbor"

// Variant names which probe ran: "clean", or "pre-sync" for the flawed
// variant with an untimed sync before the clock.
func (c Config) Variant() string {
	if c.PreSync {
		return "pre-sync"
	}
	return "clean"
}

// BacklogRecords returns one record per trial and one pooled record per
// (backlog, method) cell, tied to the environment record envID. The
// neighbor's figures are metrics: per trial as measured, pooled as medians.
func BacklogRecords(r *BacklogResult, envID string) []results.Record {
	var out []results.Record
	cfg := r.Config
	for _, b := range cfg.Backlogs {
		for _, m := range cfg.Methods {
			params := results.Params{
				{Key: "mode", Value: "backlog"},
				{Key: "variant", Value: cfg.Variant()},
				{Key: "backlog", Value: sizeLabel(b)},
				{Key: "method", Value: m.String()},
			}
			cell := r.Cell(b, m)
			if len(cell) == 0 { // a stopped run did not reach it
				continue
			}
			var total, write, sync []int64
			for _, s := range cell {
				total, write, sync = append(total, s.Total), append(write, s.Write), append(sync, s.Sync)
				out = append(out, results.Record{
					Experiment: Experiment,
					Params:     params,
					Round:      results.Round(s.Trial + 1),
					N:          1,
					Stats:      results.NewStats([]int64{s.Total}, []int64{s.Write}, []int64{s.Sync}),
					Metrics:    backlogMetrics(cfg, []BacklogSample{s}, ""),
					Env:        envID,
				})
			}
			out = append(out, results.Record{
				Experiment: Experiment,
				Params:     params,
				Round:      results.PooledRound,
				N:          len(cell),
				Stats:      results.NewStats(total, write, sync),
				Metrics:    backlogMetrics(cfg, cell, "_p50"),
				Notes:      notes(cfg.Config, m),
				Env:        envID,
			})
		}
	}
	return out
}

// backlogMetrics returns the neighbor's and the kernel's figures for
// samples: the value itself for one sample, the median (suffix "_p50") for
// several. Figures the OS does not give are left out.
func backlogMetrics(cfg BacklogConfig, ss []BacklogSample, suffix string) map[string]float64 {
	pick := func(f func(BacklogSample) int64) (float64, bool) {
		var xs []int64
		for _, s := range ss {
			if v := f(s); v != unknown {
				xs = append(xs, v)
			}
		}
		if len(xs) == 0 {
			return 0, false
		}
		return float64(measure.Summarize(xs).P50), true
	}
	m := map[string]float64{}
	add := func(key string, f func(BacklogSample) int64) {
		if v, ok := pick(f); ok {
			m[key+suffix] = v
		}
	}
	add("neighbor_sync_ns", func(s BacklogSample) int64 { return s.NeighborSync })
	add("neighbor_bytes", func(s BacklogSample) int64 { return s.NeighborBytes })
	add("dirty_bytes_at_clock", func(s BacklogSample) int64 { return s.Dirty })
	add("device_bytes_during_probe", func(s BacklogSample) int64 { return s.DeviceDuringProbe })
	add("device_bytes_during_neighbor_sync", func(s BacklogSample) int64 { return s.DeviceDuringNeighbor })
	if cfg.PreSync {
		add("presync_ns", func(s BacklogSample) int64 { return s.PreSync })
	}
	return m
}

// StreamRecords returns one record per pass and one pooled record (all
// passes' raw samples) per (rate, method) cell, tied to envID.
func StreamRecords(r *StreamResult, envID string) []results.Record {
	var out []results.Record
	cfg := r.Config
	for _, rate := range cfg.Rates {
		for _, m := range cfg.Methods {
			params := results.Params{
				{Key: "mode", Value: "stream"},
				{Key: "variant", Value: cfg.Variant()},
				{Key: "rate", Value: rate.String()},
				{Key: "method", Value: m.String()},
			}
			cell := r.Cell(rate, m)
			if len(cell) == 0 { // a stopped run did not reach it
				continue
			}
			var total, write, sync [][]int64
			var pooled StreamSample
			for _, s := range cell {
				total, write, sync = append(total, s.Total), append(write, s.Write), append(sync, s.Sync)
				pooled.Wall += s.Wall
				pooled.NeighborBytes += s.NeighborBytes
				pooled.NeighborNs += s.NeighborNs
				pooled.Full = pooled.Full || s.Full
				out = append(out, streamRecord(cfg, params, results.Round(s.Pass+1), s, s.Total, s.Write, s.Sync, envID))
			}
			rec := streamRecord(cfg, params, results.PooledRound, pooled,
				measure.Pool(total...), measure.Pool(write...), measure.Pool(sync...), envID)
			rec.Notes = notes(cfg.Config, m)
			out = append(out, rec)
		}
	}
	return out
}

// streamRecord makes the record of s with the given raw samples.
func streamRecord(cfg StreamConfig, params results.Params, round results.Round, s StreamSample, total, write, sync []int64, envID string) results.Record {
	n := len(total)
	rec := results.Record{
		Experiment: Experiment,
		Params:     params,
		Round:      round,
		N:          n,
		Stats:      results.NewStats(total, write, sync),
		OpsPerSec:  measure.PerSec(float64(n), s.Wall),
		MiBPerSec:  measure.PerSec(float64(n)*ProbeWrite/(1<<20), s.Wall),
		Metrics: map[string]float64{
			"neighbor_mib_per_sec": s.Achieved() / (1 << 20),
			"neighbor_bytes":       float64(s.NeighborBytes),
		},
		Env: envID,
	}
	if round != results.PooledRound {
		if s.DeviceWritten != unknown {
			rec.Metrics["device_bytes_during_loop"] = float64(s.DeviceWritten)
		}
		if cfg.PreSync {
			rec.Metrics["presync_ns"] = float64(s.PreSync)
		}
	}
	if s.Full {
		rec.Notes = append(rec.Notes, "stopped at --max-samples before --duration")
	}
	return rec
}

// notes says what the method calls and promises, what the neighbor's sync
// was, and which variant ran.
func notes(cfg Config, m syscalls.Method) []string {
	n := []string{
		"probe: " + m.Syscall() + ": " + m.Promise().String(),
		"neighbor's own sync: " + FullSync().Syscall(),
	}
	if cfg.PreSync {
		n = append(n, "pre-sync variant: one untimed sync of the probe file after the neighbor was ready, before the clock (flawed on purpose)")
	}
	return n
}

// sizeLabel prints a byte count as the flags take it, "0" included.
func sizeLabel(n int64) string {
	if n == 0 {
		return "0"
	}
	return units.FormatSize(n)
}
