package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/neighbor"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syscalls"
	"github.com/spf13/pflag"
)

const neighborSynopsis = `neighbor --dir DIR [flags]

Times a small sync of this process's own file while another process (a
neighbor: durabench itself in a hidden role) has unsynced data of its own in
another directory of the same file system. Does your 4 KiB fsync wait for
someone else's gigabyte?

backlog mode: the neighbor writes --backlogs bytes without syncing and keeps
  the file open; the probe times one 4 KiB write + sync per method; then the
  neighbor times a full sync of its own file (fsync on Linux, F_FULLFSYNC on
  macOS), which shows how much of its data the probe's sync left unwritten.
  Every cell gets a fresh neighbor; method order alternates between trials.
stream mode: the neighbor writes 1 MiB blocks at each of --rates while the
  probe loops write + sync for --duration; two passes, rates reversed.

The probe's file is created and synced before the neighbor starts, and
nothing syncs untimed after that. --pre-sync runs the flawed variant on
purpose: one untimed sync right before the clock, which absorbs the cost the
run is meant to measure.

The neighbor is bounded by size, by free space less a margin (checked before
anything is written), and by --neighbor-timeout; it dies with this process
and removes its files on every exit path.`

const neighborExamples = `  # The backlog table of the macOS article "a full fsync of 4 KB waits for everyone else's writes"
  # (there: 0, 256 MiB and 1 GiB): fsync and fdatasync behind each
  durabench neighbor --dir /data --mode backlog --backlogs 0,256M,1G --trials 9

  # The stream table: 5 s of syncs next to a writer at 0, 100 MiB/s, 500 MiB/s and flat out
  durabench neighbor --dir /data --mode stream --rates 0,100M,500M,max --duration 5s

  # The trap: an untimed sync before the clock, to compare with the clean run
  durabench neighbor --dir /data --mode backlog --pre-sync

  # Keep every figure (CSV, JSON Lines, Go benchmark format)
  durabench neighbor --dir /data --out results/neighbor1`

// neighborFlags are durabench neighbor's own flags, as given.
type neighborFlags struct {
	mode, streamSize           string
	methods                    []syscalls.Method
	backlogs                   []int64
	rates                      []neighbor.Rate
	trials, passes, maxSamples int
	duration, timeout          time.Duration
	preSync                    bool
}

// neighborRenamed are the neighbor configurations' fields whose flag is not
// the field's name kebab-cased.
var neighborRenamed = map[string]string{"Timeout": "neighbor-timeout", "FileSize": "stream-size"}

// The neighbor process is the child role neighbor.ChildRole.
func init() {
	registerRole(neighbor.ChildRole, roleRun(neighbor.ChildRole, func(args []string) error {
		return neighbor.ServeChild(args, os.Stdin, os.Stdout)
	}))
}

func runNeighbor(args []string) error {
	fs := newFlags("neighbor", neighborSynopsis, neighborExamples)
	var o outputFlags
	var f neighborFlags
	addOutputFlags(fs, &o)
	fs.StringVar(&f.mode, "mode", "backlog,stream", "backlog, stream, or both")
	listVar(fs, &f.methods, "methods", methodList(neighbor.DefaultMethods()), "the probe's sync methods", parseMethods)
	listVar(fs, &f.backlogs, "backlogs", "0,256M,1G", "backlog mode: the neighbor's unsynced bytes per cell (0 for none)", neighbor.ParseBacklogs)
	fs.IntVar(&f.trials, "trials", 9, "backlog mode: trials per (backlog, method); medians are over them")
	listVar(fs, &f.rates, "rates", "0,100M,500M,max", "stream mode: the neighbor's target rates in bytes per second (0 for idle, max for flat out)", neighbor.ParseRates)
	fs.DurationVar(&f.duration, "duration", 5*time.Second, "stream mode: how long the probe loops write + sync per cell")
	fs.IntVar(&f.passes, "passes", 2, "stream mode: passes over the rates; odd passes reverse the order")
	fs.StringVar(&f.streamSize, "stream-size", "1G", "stream mode: the neighbor's file size; it rewrites from the start past it")
	fs.IntVar(&f.maxSamples, "max-samples", 500_000, "stream mode: cap on the probe's samples per cell (its buffer is allocated before the clock)")
	fs.BoolVar(&f.preSync, "pre-sync", false, "run the flawed variant: one untimed sync of the probe's file before the clock")
	fs.DurationVar(&f.timeout, "neighbor-timeout", neighbor.DefaultTimeout, "the most a neighbor lives; it removes its files and exits after it")
	if err := parseOptions(fs, args); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program to start the neighbor with: %w", err)
	}
	launch := neighbor.Launch{Path: exe, Args: []string{neighbor.ChildRole}}
	backlog, stream, err := f.configs(fs, launch)
	if err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	if backlog != nil {
		if err := backlog.CheckSpace(o.dir); err != nil {
			return usageErrorf("--backlogs: %v", err)
		}
	}
	if stream != nil {
		if err := stream.CheckSpace(o.dir); err != nil {
			return usageErrorf("--stream-size: %v", err)
		}
	}

	var p plan
	if backlog != nil {
		p = p.plus(plan{backlog.Steps(), backlog.Steps() / backlog.Trials})
	}
	if stream != nil {
		p = p.plus(plan{stream.Steps(), stream.Steps() / stream.Passes})
	}
	return measureSteps(&o, "neighbor", p, func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		var recs []results.Record
		var parts []func(io.Writer) error
		if backlog != nil {
			res, err := neighbor.RunBacklog(run, *backlog, progress)
			if err != nil && !stoppedRun(err) {
				return nil, nil, err
			}
			recs = append(recs, neighbor.BacklogRecords(res, env.ID)...)
			parts = append(parts, func(w io.Writer) error { return neighbor.BacklogReport(w, res) })
			if err != nil { // stopped: keep the trials so far
				return recs, reports(parts...), err
			}
		}
		if stream != nil {
			res, err := neighbor.RunStream(run, *stream, progress)
			if err != nil && !stoppedRun(err) {
				return nil, nil, err
			}
			recs = append(recs, neighbor.StreamRecords(res, env.ID)...)
			parts = append(parts, func(w io.Writer) error { return neighbor.StreamReport(w, res) })
			if err != nil { // stopped: keep the passes so far
				return recs, reports(parts...), err
			}
		}
		return recs, reports(parts...), nil
	})
}

// configs turns the flags into the validated configurations of the modes
// asked for (nil for a mode not asked for), started with launch; every
// error is refused input.
func (f neighborFlags) configs(fs *pflag.FlagSet, launch neighbor.Launch) (*neighbor.BacklogConfig, *neighbor.StreamConfig, error) {
	doBacklog, doStream := false, false
	for _, m := range strings.Split(f.mode, ",") {
		switch strings.ToLower(strings.TrimSpace(m)) {
		case "backlog":
			doBacklog = true
		case "stream":
			doStream = true
		case "both":
			doBacklog, doStream = true, true
		default:
			return nil, nil, usageErrorf("--mode %q: use backlog, stream, or both", f.mode)
		}
	}
	common := neighbor.Config{Methods: f.methods, PreSync: f.preSync, Timeout: f.timeout, Launch: launch}
	var b *neighbor.BacklogConfig
	var s *neighbor.StreamConfig
	if doBacklog {
		b = &neighbor.BacklogConfig{Config: common, Backlogs: f.backlogs, Trials: f.trials}
		if err := b.Validate(); err != nil {
			return nil, nil, refuse(err, fs, neighborRenamed)
		}
	}
	if doStream {
		size, err := units.ParseSize(f.streamSize)
		if err != nil {
			return nil, nil, usageErrorf("--stream-size: %v", err)
		}
		s = &neighbor.StreamConfig{Config: common, Rates: f.rates, Passes: f.passes, Duration: f.duration, FileSize: size, MaxSamples: f.maxSamples}
		if err := s.Validate(); err != nil {
			return nil, nil, refuse(err, fs, neighborRenamed)
		}
	}
	return b, s, nil
}

// methodList joins method names as --methods takes them.
func methodList(ms []syscalls.Method) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.String()
	}
	return strings.Join(names, ",")
}
