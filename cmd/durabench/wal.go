package main

import (
	"io"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
	"github.com/durabench/durabench/walbench"
	"github.com/spf13/pflag"
)

const walSynopsis = `wal --dir DIR [flags]

Times a write-ahead log: records framed with length, sequence number and
CRC-32C, written through an aligned buffer, buffered or with direct I/O
(O_DIRECT on Linux, F_NOCACHE on macOS), into segments in one of three
layouts (append to an empty file, write into fallocated space, overwrite an
initialized file), made durable with fsync or fdatasync.

Each record is one block on disk: --block-sizes 16K means 16 KiB writes, a
24-byte header and 16,360 bytes of payload. One sample is one commit, timed
with the monotonic clock: with one writer, the write and the sync (also
timed apart), or a batch of --sync-every records and one sync; with
--writers N, N goroutines append at once, each Append returning when its
record is durable, and concurrent Appends share syncs (group commit).

Every case of every round writes a new log, closes it and reads every
record back (Replay: checksum, sequence, content), and fallocate and
initialized segments must end at the size they were made with; a
configuration that would outgrow them is refused before anything is
written. With several writer counts the report adds the group-commit curve
and its knee: the fewest writers reaching 90 % of the best commits/s, named
only when the curve flattens within the counts tried (otherwise it says to
try more writers).`

const walExamples = `  # As the Linux Rust WAL benchmark runs it: three layouts, buffered vs direct, fsync vs fdatasync, 16K
  durabench wal --dir /data --layouts append,fallocate,initialized --block-sizes 16K \
      --io-modes buffered,direct --methods fsync,fdatasync --iterations 2000 --warmup 100 \
      --rounds 8 --file-size 64M

  # The group-commit curve: 1 to 64 concurrent writers on one log
  durabench wal --dir /data --layouts initialized --io-modes buffered --methods fdatasync \
      --block-sizes 4K --writers 1,2,4,8,16,32,64

  # One writer, one sync per 16 records
  durabench wal --dir /data --layouts initialized --sync-every 16

  # Record sizes 32K to 1M; each size's segment holds (iterations + warmup) records
  durabench wal --dir /data --size-sweep 32K,64K,128K,256K,512K,1M

  # What one commit makes reach the kernel and the disk: writes, syncs, directory
  # syncs, device flushes (after the timing passes, a separate traced pass; Linux)
  durabench wal --dir /data --layouts initialized,append --io-modes buffered,direct \
      --methods fdatasync --block-sizes 4K --count-syscalls

  # Keep every figure: CSV per round, JSON Lines and Go benchmark format
  durabench wal --dir /data --out results/wal1`

// walFlags are durabench wal's own flags, as given.
type walFlags struct {
	layouts                               []fixtures.State
	blockSizes, sizeSweep                 []int64
	ioModes                               []wal.IOMode
	methods                               []syscalls.Method
	writers                               []int
	fileSize                              string
	iterations, warmup, rounds, syncEvery int
	countSyscalls                         bool
}

// walRenamed are the walbench.Config fields whose flag is not the field's
// name kebab-cased.
var walRenamed = map[string]string{"IOModes": "io-modes"}

func runWAL(args []string) error {
	fs := newFlags("wal", walSynopsis, walExamples)
	var o outputFlags
	var f walFlags
	addOutputFlags(fs, &o)
	listVar(fs, &f.layouts, "layouts", "append,fallocate,initialized", "segment layouts: append, fallocate, initialized", walbench.ParseLayouts)
	listVar(fs, &f.blockSizes, "block-sizes", "16K", "record sizes on disk, header included (multiples of 8)", parseSizes)
	listVar(fs, &f.ioModes, "io-modes", "buffered,direct", "buffered, direct (O_DIRECT; F_NOCACHE on macOS)", walbench.ParseIOModes)
	listVar(fs, &f.methods, "methods", "fsync,fdatasync", "sync methods (fsync, fdatasync; on macOS also barrier, full)", parseMethods)
	fs.IntVar(&f.iterations, "iterations", 2000, "measured records per case and round, shared among the writers")
	fs.IntVar(&f.warmup, "warmup", 100, "unmeasured records before them, in the same log")
	fs.IntVar(&f.rounds, "rounds", 8, "rounds; every case runs once per round and percentiles pool all rounds")
	fs.StringVar(&f.fileSize, "file-size", "64M", "segment size; fallocate and initialized segments must hold every record of a round")
	fs.IntVar(&f.syncEvery, "sync-every", 1, "one writer: records per sync; a sample is the whole batch")
	listVar(fs, &f.writers, "writers", "1", "concurrent writer counts, e.g. 1,2,4,8,16,32,64; commits/s counts all writers", parseCounts)
	listVar(fs, &f.sizeSweep, "size-sweep", "", "record sizes to sweep instead of --block-sizes, each in a segment of (iterations + warmup) × size", parseSizes)
	fs.BoolVar(&f.countSyscalls, "count-syscalls", false, "after timing, run each layout, size, I/O mode and method again with one writer, traced (ptrace on Linux, the interposer on macOS), and count writes, syncs, directory syncs and device flushes per commit")
	if err := parseOptions(fs, args); err != nil {
		return err
	}
	if fs.Changed("size-sweep") {
		for _, name := range []string{"block-sizes", "file-size"} {
			if fs.Changed(name) {
				return usageErrorf("--size-sweep sets the record sizes and sizes each segment to fit them: drop --%s", name)
			}
		}
	}
	cfg, err := f.config(fs)
	if err != nil {
		return err
	}
	if err := checkCounting(f.countSyscalls); err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	if err := checkSpace(o.dir, cfg.DiskNeeded(o.keep), "this run's largest log"); err != nil {
		return err
	}

	p := plan{cfg.Steps(), cfg.Cases()}
	if f.countSyscalls {
		p = p.plus(plan{cfg.CountSteps(), cfg.CountSteps()})
	}
	return measureSteps(&o, "wal", p, func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		res, err := walbench.Run(run, cfg, progress)
		if err != nil && !stoppedRun(err) {
			return nil, nil, err
		}
		var counts []walbench.Count
		if f.countSyscalls && err == nil {
			if counts, err = walbench.CountAll(cfg, counter[walbench.Config](run, countWALRole), progress); err != nil && !stoppedRun(err) {
				return nil, nil, err
			}
		}
		return walbench.Records(res, counts, env.ID), func(w io.Writer) error { return walbench.Report(w, cfg, res, counts) }, err
	})
}

// config turns the flags into a validated walbench.Config; every error is
// refused input naming its flag.
func (f walFlags) config(fs *pflag.FlagSet) (walbench.Config, error) {
	cfg := walbench.Config{Layouts: f.layouts, IOModes: f.ioModes, Methods: f.methods, Writers: f.writers,
		Iterations: f.iterations, Warmup: f.warmup, Rounds: f.rounds, SyncEvery: f.syncEvery}
	if fs.Changed("size-sweep") {
		// FileSize 0: a segment per size, sized to fit.
		cfg.BlockSizes = f.sizeSweep
		return cfg, refuse(cfg.Validate(), fs, map[string]string{"IOModes": "io-modes", "BlockSizes": "size-sweep"})
	}
	cfg.BlockSizes = f.blockSizes
	var err error
	if cfg.FileSize, err = units.ParseSize(f.fileSize); err != nil {
		return cfg, usageErrorf("--file-size: %v", err)
	}
	return cfg, refuse(cfg.Validate(), fs, walRenamed)
}
