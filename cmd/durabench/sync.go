package main

import (
	"io"
	"strings"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syncbench"
	"github.com/durabench/durabench/syscalls"
	"github.com/spf13/pflag"
)

const syncSynopsis = `sync --dir DIR [flags]

Times write + sync for every sync method this OS has, over file states
(append to an empty file, write into fallocated space, overwrite an
initialized file), write sizes, and thread counts. One sample is the whole
commit (the writes of a batch and its sync), timed with the monotonic clock;
write and sync are also timed apart to explain it. Files are prepared before
the clock starts and read back after it stops; the run works in a new child
directory of --dir and removes it at the end.

The default output is a table with rows workload × size, columns methods,
medians; then p99, per-case means and throughput, and what each method calls
and promises on this OS.`

const syncExamples = `  # The sync-method table of the macOS article: every method, overwrite and append, 4K to 1M
  durabench sync --dir /data --workloads overwrite,append --block-sizes 4K,64K,1M

  # As the Linux Rust fsync benchmark runs it: file states, fsync vs fdatasync, 16K
  durabench sync --dir /data --workloads append,fallocate,overwrite --block-sizes 16K \
      --methods fsync,fdatasync --file-size 64M

  # Methods round-robin on one file, as in the 2,000-round interleaved test
  durabench sync --dir /data --order interleaved --methods none,fsync,fdatasync

  # 1, 2 and 4 threads, each syncing its own file
  durabench sync --dir /data --threads 1,2,4 --methods fdatasync --block-sizes 4K

  # Does a sync finish on a 1 ms tick? (share within 100 µs of a whole ms)
  durabench sync --dir /data --staircase --workloads overwrite --block-sizes 4K --iterations 3000

  # What reaches the kernel and the disk per write (a separate traced pass)
  durabench sync --dir /data --count-syscalls --methods none,fdatasync,sync_file_range --block-sizes 4K

  # Keep every figure: CSV, JSON Lines and Go benchmark format for benchstat
  durabench sync --dir /data --out results/run1`

// syncFlags are durabench sync's own flags, as given.
type syncFlags struct {
	workloads                             []syncbench.Workload
	blockSizes                            []int64
	methods                               []syscalls.Method
	threads                               []int
	fileSize, order, maxCaseBytes         string
	iterations, warmup, rounds, syncEvery int
	staircase, histogram, countSyscalls   bool
}

func runSync(args []string) error {
	fs := newFlags("sync", syncSynopsis, syncExamples)
	var o outputFlags
	var f syncFlags
	addOutputFlags(fs, &o)
	listVar(fs, &f.workloads, "workloads", "overwrite,append", "comma-separated: append, fallocate, overwrite", syncbench.ParseWorkloads)
	listVar(fs, &f.blockSizes, "block-sizes", "4K,64K,1M", "write sizes (4096, 4K, 4KiB, 1M, ...)", parseSizes)
	listVar(fs, &f.methods, "methods", strings.Join(syscalls.MethodNames(), ","), "sync methods to time (default: all this OS has)", parseMethods)
	fs.IntVar(&f.iterations, "iterations", 2000, "measured writes per case and round")
	fs.IntVar(&f.warmup, "warmup", 100, "unmeasured writes before them, in the same file")
	fs.IntVar(&f.rounds, "rounds", 8, "rounds; every case runs once per round and percentiles pool all rounds")
	fs.StringVar(&f.fileSize, "file-size", "64M", "size of fallocate and overwrite files; overwrite wraps within it, fallocate must hold all writes")
	fs.StringVar(&f.maxCaseBytes, "max-case-bytes", "256M", "cap on the bytes one case measures per round (1M writes: 256 per round); 0 for no cap")
	fs.IntVar(&f.syncEvery, "sync-every", 1, "writes per sync (group commit); a sample is the whole batch")
	fs.StringVar(&f.order, "order", "sequential", "sequential (a file per method) or interleaved (methods round-robin on one file)")
	listVar(fs, &f.threads, "threads", "1", "thread counts, e.g. 1,2,4; each thread syncs its own file", parseCounts)
	fs.BoolVar(&f.staircase, "staircase", false, "report the share of samples within 100 µs of a whole millisecond")
	fs.BoolVar(&f.histogram, "histogram", false, "print each case's latency histogram (1-2-5 buckets per decade)")
	fs.BoolVar(&f.countSyscalls, "count-syscalls", false, "after timing, run each case again, traced (ptrace on Linux, the interposer on macOS), and count syncs, writes and device flushes per write")
	if err := parseOptions(fs, args); err != nil {
		return err
	}
	cfg, err := f.config(fs)
	if err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	if err := checkSpace(o.dir, cfg.DiskNeeded(o.keep), "this run's largest set of files"); err != nil {
		return err
	}
	if err := checkCounting(f.countSyscalls); err != nil {
		return err
	}

	p := plan{cfg.Steps(), cfg.Steps() / cfg.Rounds}
	if f.countSyscalls {
		p = p.plus(plan{cfg.CountSteps(), cfg.CountSteps()})
	}
	return measureSteps(&o, "sync", p, func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		res, err := syncbench.Run(run, cfg, progress)
		if err != nil && !stoppedRun(err) {
			return nil, nil, err
		}
		var counts []syncbench.Count
		if f.countSyscalls && err == nil {
			if counts, err = syncbench.CountAll(cfg, counter[syncbench.Config](run, countSyncRole), progress); err != nil && !stoppedRun(err) {
				return nil, nil, err
			}
		}
		return syncbench.Records(res, counts, env.ID), func(w io.Writer) error { return syncbench.Report(w, cfg, res, counts) }, err
	})
}

// config turns the flags into a validated syncbench.Config; every error is
// refused input naming its flag.
func (f syncFlags) config(fs *pflag.FlagSet) (syncbench.Config, error) {
	cfg := syncbench.Config{Workloads: f.workloads, BlockSizes: f.blockSizes, Methods: f.methods, Threads: f.threads,
		Iterations: f.iterations, Warmup: f.warmup, Rounds: f.rounds, SyncEvery: f.syncEvery,
		Staircase: f.staircase, Histogram: f.histogram}
	var err error
	if cfg.FileSize, err = units.ParseSize(f.fileSize); err != nil {
		return cfg, usageErrorf("--file-size: %v", err)
	}
	if f.maxCaseBytes != "0" {
		if cfg.MaxCaseBytes, err = units.ParseSize(f.maxCaseBytes); err != nil {
			return cfg, usageErrorf("--max-case-bytes: %v", err)
		}
	}
	if cfg.Order, err = syncbench.ParseOrder(f.order); err != nil {
		return cfg, usageErrorf("--order: %v", err)
	}
	return cfg, refuse(cfg.Validate(), fs, nil)
}

// checkDir refuses a --dir the run cannot work in.
func checkDir(dir string) error {
	if err := fixtures.CheckParent(dir); err != nil {
		return usageErrorf("--dir: %v", err)
	}
	return nil
}
