package sqlitebench

import (
	"maps"
	"runtime"
	"slices"
	"strconv"

	"github.com/durabench/durabench/results"
)

// Params returns the case as result parameters: the engine and its SQLite
// version, the pragmas as they were in effect, then asked_<pragma> for each
// one asked differently (including checkpoint_fullfsync=default, so that
// it stays apart from an explicit 0 or 1), then the workload.
func (r Result) Params(cfg Config) results.Params {
	ps := results.Params{{Key: "engine", Value: r.Engine}, {Key: "sqlite_version", Value: r.Version}}
	for _, p := range pragmaFields {
		ps = append(ps, results.Param{Key: p.name, Value: *p.field(&r.Effective)})
	}
	for _, p := range pragmaFields {
		if a := *p.field(&r.Asked); a != *p.field(&r.Effective) {
			ps = append(ps, results.Param{Key: "asked_" + p.name, Value: a})
		}
	}
	return append(ps,
		results.Param{Key: "rows_per_commit", Value: strconv.Itoa(cfg.RowsPerCommit)},
		results.Param{Key: "row_bytes", Value: strconv.Itoa(cfg.RowBytes)})
}

// Records turns an outcome into one record per round and one pooled record
// per case, all tied to the run's environment record envID. A case's
// pooled record also carries its counting pass, if the outcome has one.
func Records(cfg Config, out Outcome, envID string) []results.Record {
	var recs []results.Record
	for _, r := range out.Results {
		params := r.Params(cfg)
		notes := slices.Concat(r.Notes, caveats(r, runtime.GOOS))
		bytesPerCommit := float64(cfg.RowsPerCommit*cfg.RowBytes) / (1 << 20)
		for i, rd := range r.Rounds {
			rec := results.Timed("sqlite", params, results.Round(i+1), rd.Samples, results.Stats{Total: rd.Total}, rd.Wall, float64(rd.Samples)*bytesPerCommit, envID)
			rec.Metrics = map[string]float64{"allocs_per_commit": rd.AllocsPerCommit, "rows_checked": float64(rd.Rows)}
			rec.Notes = notes
			recs = append(recs, rec)
		}
		var rows int64
		for _, rd := range r.Rounds {
			rows += rd.Rows
		}
		pooled := results.Timed("sqlite", params, results.PooledRound, r.Total.N, results.Stats{Total: r.Total}, r.Wall, float64(r.Total.N)*bytesPerCommit, envID)
		pooled.Metrics = map[string]float64{"allocs_per_commit": r.AllocsPerCommit, "rows_checked": float64(rows)}
		pooled.Notes = notes
		pooled.Histogram = results.Histogram(r.Latency.Bins)
		for _, c := range out.Counts {
			if c.Case == r.Case {
				maps.Copy(pooled.Metrics, countMetrics(c))
			}
		}
		recs = append(recs, pooled)
	}
	return recs
}

// caveats are notes on what a case's settings do on this OS although
// SQLite took them: without F_FULLFSYNC (anywhere but darwin), fullfsync
// and checkpoint_fullfsync change no system call.
func caveats(r Result, goos string) []string {
	if goos == "darwin" {
		return nil
	}
	var out []string
	if r.Effective.FullFsync == "1" {
		out = append(out, "fullfsync=1 changes no system call on "+goos+": SQLite uses F_FULLFSYNC only where it exists (macOS)")
	}
	if r.Effective.CheckpointFullFsync == "1" {
		out = append(out, "checkpoint_fullfsync=1 changes no system call on "+goos+": SQLite uses F_FULLFSYNC only where it exists (macOS)")
	}
	return out
}
