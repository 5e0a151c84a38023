package results

import (
	"github.com/durabench/durabench/measure"
)

// fixtureRecords is a fixed set of records covering what the writers must
// handle: rounds plus a pooled record with the write/sync split, a case
// without the split, pooled-only cases with metrics and notes, and values
// with spaces, slashes and a "-N" ending.
func fixtureRecords() []Record {
	overwrite := Params{{"workload", "overwrite"}, {"bs", "4K"}, {"method", "fdatasync"}}
	r1t, r1w, r1s := []int64{30_000, 36_000, 41_000, 52_000}, []int64{4_000, 5_000, 5_000, 6_000}, []int64{26_000, 31_000, 36_000, 46_000}
	r2t, r2w, r2s := []int64{33_000, 35_000, 39_000, 90_000}, []int64{4_000, 4_000, 5_000, 9_000}, []int64{29_000, 31_000, 34_000, 81_000}
	none := Params{{"workload", "append"}, {"bs", "4K"}, {"method", "none"}}
	noneT := []int64{1_100, 1_200, 1_250, 1_900}
	return []Record{
		{Experiment: "sync", Params: overwrite, Round: 1, N: 4, Stats: NewStats(r1t, r1w, r1s),
			OpsPerSec: 25_477.7, MiBPerSec: 99.5, Env: "env-1"},
		{Experiment: "sync", Params: overwrite, Round: 2, N: 4, Stats: NewStats(r2t, r2w, r2s),
			OpsPerSec: 20_304.6, MiBPerSec: 79.3, Env: "env-1"},
		{Experiment: "sync", Params: overwrite, Round: PooledRound, N: 8,
			Stats:     NewStats(measure.Pool(r1t, r2t), measure.Pool(r1w, r2w), measure.Pool(r1s, r2s)),
			OpsPerSec: 22_662.3, MiBPerSec: 88.5, Env: "env-1"},
		{Experiment: "sync", Params: none, Round: 1, N: 4, Stats: NewStats(noneT, nil, nil),
			OpsPerSec: 735_294.1, MiBPerSec: 2872.2, Env: "env-1"},
		{Experiment: "sync", Params: none, Round: PooledRound, N: 4, Stats: NewStats(noneT, nil, nil),
			OpsPerSec: 735_294.1, MiBPerSec: 2872.2, Env: "env-1"},
		{Experiment: "wal", Params: Params{{"writers", "4"}, {"sync_every", "16"}, {"method", "fdatasync"}},
			Round: PooledRound, N: 3, Stats: NewStats([]int64{210_000, 250_000, 1_300_000}, nil, nil),
			OpsPerSec: 61_000, MiBPerSec: 14.9,
			Metrics: map[string]float64{"syncs_per_op": 0.0625, "records_per_sync": 16},
			Notes:   []string{"group commit: 4 writers share each sync"}, Env: "env-1"},
		{Experiment: "sqlite", Params: Params{{"engine", "system /usr/lib/libsqlite3.so.0"}, {"journal_mode", "wal"}, {"threads", "1-4"}},
			Round: PooledRound, N: 2, Stats: NewStats([]int64{2_000_000, 3_000_000}, nil, nil),
			OpsPerSec: 400,
			Metrics:   map[string]float64{"syncs_per_op": 1},
			Notes:     []string{"asked synchronous=full, got normal", "fullfsync=1 ignored"}, Env: "env-1"},
	}
}
