// Package results holds the one record type every experiment produces and
// writes records out: JSON Lines, CSV, Go benchmark format (for benchstat), an
// aligned text table, and a run's output directory that is never reused and
// whose files are never overwritten.
//
// # JSON Lines schema (stable; other tools read it)
//
// A stream opens with its environment line (WriteJSONLEnv), so that it
// stands alone:
//
//	{"schema_version":1,"environment":{...the env.json record...}}
//
// then each line is one Record, keys in this order:
//
//	schema_version  number   SchemaVersion (1): grows when a key changes meaning
//	                      or disappears; new optional keys keep it. Lines
//	                      without it predate it and read as version 1.
//	experiment   string   "sync", "wal", "sqlite", "neighbor", "crash", ...
//	params       object   the case, string values, in the order the experiment
//	                      gives them (workload, block_size, method, ...)
//	round        number   1, 2, ... for one round, or the string "pooled" for
//	                      all rounds' raw samples together
//	n            number   samples behind the statistics
//	stats        object   integer nanoseconds except the means and std_ns:
//	                      mean_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns,
//	                      min_ns, std_ns; and, only where write and sync were
//	                      timed apart: write_mean_ns, write_p50_ns,
//	                      write_p99_ns, sync_mean_ns, sync_p50_ns, sync_p99_ns
//	ops_per_sec  number
//	mib_per_sec  number   2^20 bytes per second
//	metrics      object   optional: extra named figures (records_per_sync, ...)
//	notes        array    optional: strings, e.g. "asked synchronous=full, got normal"
//	env          string   id of the run's environment record (env.json, and
//	                      the stream's environment line)
//	histogram    array    optional, on pooled records of sync, wal and sqlite:
//	                      the samples' shape as [lo_ns, hi_ns, count] bins,
//	                      sparse and ascending; each bin keeps three
//	                      significant digits of its samples (at most 1 %
//	                      wide), so histograms and CDFs can be drawn from it
//
// Percentiles are nearest-rank over raw samples (see package measure); a
// pooled record's percentiles come from all rounds' samples, never from
// averaging the rounds' percentiles.
package results
