package syncbench

import (
	"maps"
	"strconv"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/results"
)

// Params returns the case as result parameters, in table order.
func (c Case) Params() results.Params {
	return results.Params{
		{Key: "workload", Value: c.Workload.String()},
		{Key: "block_size", Value: units.FormatSize(c.BlockSize)},
		{Key: "method", Value: c.Method.String()},
		{Key: "sync_every", Value: strconv.Itoa(c.SyncEvery)},
		{Key: "order", Value: c.Order.String()},
		{Key: "threads", Value: strconv.Itoa(c.Threads)},
	}
}

// Records turns results into one record per round and one pooled record per
// case, all tied to the run's environment record envID. A case's pooled
// record also carries its counting pass, if counts has one.
func Records(res []Result, counts []Count, envID string) []results.Record {
	var out []results.Record
	for _, r := range res {
		params := r.Params()
		for i, rd := range r.Rounds {
			out = append(out, results.Timed("sync", params, results.Round(i+1), rd.Samples,
				results.Stats{Total: rd.Total, Write: rd.Write, Sync: rd.Sync, HasSplit: true}, rd.Wall, float64(rd.Bytes)/(1<<20), envID))
		}
		pooled := results.Timed("sync", params, results.PooledRound, r.Total.N,
			results.Stats{Total: r.Total, Write: r.Write, Sync: r.Sync, HasSplit: true}, r.Wall, float64(r.Bytes)/(1<<20), envID)
		pooled.Metrics = map[string]float64{"verified_writes": float64(r.Verified), "file_bytes": float64(r.FileSize)}
		pooled.Notes = []string{r.Method.Syscall() + ": " + r.Method.Promise().String()}
		pooled.Histogram = results.Histogram(r.Latency.Bins)
		for _, c := range counts {
			if c.Workload == r.Workload && c.BlockSize == r.BlockSize && c.Method == r.Method {
				maps.Copy(pooled.Metrics, countMetrics(c))
			}
		}
		if r.Staircase.N > 0 {
			pooled.Metrics["staircase_share"] = r.Staircase.Share
			pooled.Metrics["staircase_chance"] = r.Staircase.Chance
		}
		out = append(out, pooled)
	}
	return out
}
