package walbench

import (
	"maps"
	"strconv"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/wal"
)

// Params returns the case as result parameters, in table order.
func (c Case) Params() results.Params {
	return results.Params{
		{Key: "layout", Value: c.Layout.String()},
		{Key: "block_size", Value: units.FormatSize(c.BlockSize)},
		{Key: "io", Value: c.IOMode.String()},
		{Key: "method", Value: c.Method.String()},
		{Key: "writers", Value: strconv.Itoa(c.Writers)},
		{Key: "sync_every", Value: strconv.Itoa(c.SyncEvery)},
		{Key: "segment_size", Value: units.FormatSize(c.SegmentSize)},
	}
}

// Records turns results into one record per round and one pooled record per
// case, tied to the run's environment record envID. ops_per_sec is commits
// per second; mib_per_sec counts the records' bytes on disk. A one-writer
// case's pooled record also carries its counting pass, if counts has one.
func Records(res []Result, counts []Count, envID string) []results.Record {
	var out []results.Record
	for _, r := range res {
		params := r.Params()
		for i, rd := range r.Rounds {
			rec := results.Timed("wal", params, results.Round(i+1), rd.Samples,
				results.Stats{Total: rd.Total, Write: rd.Write, Sync: rd.Sync, HasSplit: r.Split()}, rd.Wall, float64(int64(rd.Records)*r.BlockSize)/(1<<20), envID)
			rec.Metrics = groupMetrics(rd.Metrics, rd.Wall)
			out = append(out, rec)
		}
		metrics := groupMetrics(r.Metrics, r.Wall)
		metrics["verified_records"] = float64(r.Verified)
		metrics["eof_before_bytes"] = float64(r.EOFBefore)
		metrics["eof_after_bytes"] = float64(r.EOFAfter)
		for _, c := range counts {
			if c.Case == r.Case {
				maps.Copy(metrics, countMetrics(c))
			}
		}
		pooled := results.Timed("wal", params, results.PooledRound, r.Total.N,
			results.Stats{Total: r.Total, Write: r.Write, Sync: r.Sync, HasSplit: r.Split()}, r.Wall, float64(int64(r.Records)*r.BlockSize)/(1<<20), envID)
		pooled.Metrics, pooled.Notes = metrics, []string{r.Method.Syscall() + ": " + r.Method.Promise().String()}
		pooled.Histogram = results.Histogram(r.Latency.Bins)
		out = append(out, pooled)
	}
	return out
}

// groupMetrics are the writer's figures for a stretch of wall ns.
func groupMetrics(m wal.Metrics, wall int64) map[string]float64 {
	return map[string]float64{
		"records_per_sync":    m.RecordsPerSync(),
		"bytes_per_sync":      m.BytesPerSync(),
		"syncs_per_sec":       measure.PerSec(float64(m.Syncs), wall),
		"write_amplification": m.WriteAmplification(),
		"rotations":           float64(m.Rotations),
	}
}
