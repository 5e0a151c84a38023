package results

import "github.com/durabench/durabench/measure"

// Timed returns the record of one timed stretch of experiment, a round or
// PooledRound: n samples with statistics st over wall ns, during which mib
// MiB were written. Its rates are per second of wall; Metrics and Notes are
// the caller's to add.
func Timed(experiment string, params Params, round Round, n int, st Stats, wall int64, mib float64, env string) Record {
	return Record{Experiment: experiment, Params: params, Round: round, N: n, Stats: st,
		OpsPerSec: measure.PerSec(float64(n), wall), MiBPerSec: measure.PerSec(mib, wall), Env: env}
}
