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
	mode, methods, backlogs, rates, streamSize string
	trials, passes, maxSamples                 int
	duration, timeout                          time.Duration
	preSync                                    bool
}

func runNeighbor(args []string) error {
	if len(args) > 0 && args[0] == neighbor.ChildRole {
		return neighbor.ServeChild(args[1:], os.Stdin, os.Stdout)
	}
	fs := newFlags("neighbor", neighborSynopsis, neighborExamples)
	var o outputFlags
	var f neighborFlags
	addOutputFlags(fs, &o)
	fs.StringVar(&f.mode, "mode", "backlog,stream", "backlog, stream, or both")
	fs.StringVar(&f.methods, "methods", methodList(neighbor.DefaultMethods()), "the probe's sync methods")
	fs.StringVar(&f.backlogs, "backlogs", "0,256M,1G", "backlog mode: the neighbor's unsynced bytes per cell (0 for none)")
	fs.IntVar(&f.trials, "trials", 9, "backlog mode: trials per (backlog, method); medians are over them")
	fs.StringVar(&f.rates, "rates", "0,100M,500M,max", "stream mode: the neighbor's target rates in bytes per second (0 for idle, max for flat out)")
	fs.DurationVar(&f.duration, "duration", 5*time.Second, "stream mode: how long the probe loops write + sync per cell")
	fs.IntVar(&f.passes, "passes", 2, "stream mode: passes over the rates; odd passes reverse the order")
	fs.StringVar(&f.streamSize, "stream-size", "1G", "stream mode: the neighbor's file size; it rewrites from the start past it")
	fs.IntVar(&f.maxSamples, "max-samples", 500_000, "stream mode: cap on the probe's samples per cell (its buffer is allocated before the clock)")
	fs.BoolVar(&f.preSync, "pre-sync", false, "run the flawed variant: one untimed sync of the probe's file before the clock")
	fs.DurationVar(&f.timeout, "neighbor-timeout", neighbor.DefaultTimeout, "the most a neighbor lives; it removes its files and exits after it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program to start the neighbor with: %w", err)
	}
	launch := neighbor.Launch{Path: exe, Args: []string{"neighbor", neighbor.ChildRole}}
	backlog, stream, err := f.configs(launch)
	if err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	if backlog != nil {
		if err := backlog.CheckSpace(o.dir); err != nil {
			return asUsage(err)
		}
	}
	if stream != nil {
		if err := stream.CheckSpace(o.dir); err != nil {
			return asUsage(err)
		}
	}

	return measure(&o, "neighbor", func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		var recs []results.Record
		var parts []func(io.Writer) error
		if backlog != nil {
			res, err := neighbor.RunBacklog(run, *backlog, progress)
			if err != nil {
				return nil, nil, err
			}
			recs = append(recs, neighbor.BacklogRecords(res, env.ID)...)
			parts = append(parts, func(w io.Writer) error { return neighbor.BacklogReport(w, res) })
		}
		if stream != nil {
			res, err := neighbor.RunStream(run, *stream, progress)
			if err != nil {
				return nil, nil, err
			}
			recs = append(recs, neighbor.StreamRecords(res, env.ID)...)
			parts = append(parts, func(w io.Writer) error { return neighbor.StreamReport(w, res) })
		}
		return recs, reports(parts...), nil
	})
}

// configs turns the flags into the validated configurations of the modes
// asked for (nil for a mode not asked for), started with launch; every
// error is refused input.
func (f neighborFlags) configs(launch neighbor.Launch) (*neighbor.BacklogConfig, *neighbor.StreamConfig, error) {
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
	methods, err := syscalls.ParseMethods(f.methods)
	if err != nil {
		return nil, nil, usageErrorf("--methods: %v", err)
	}
	common := neighbor.Config{Methods: methods, PreSync: f.preSync, Timeout: f.timeout, Launch: launch}
	var b *neighbor.BacklogConfig
	var s *neighbor.StreamConfig
	if doBacklog {
		backlogs, err := neighbor.ParseBacklogs(f.backlogs)
		if err != nil {
			return nil, nil, usageErrorf("--backlogs: %v", err)
		}
		if err := refuseRepeats("backlogs", backlogs, units.FormatSize); err != nil {
			return nil, nil, err
		}
		b = &neighbor.BacklogConfig{Config: common, Backlogs: backlogs, Trials: f.trials}
		if err := b.Validate(); err != nil {
			return nil, nil, asUsage(err)
		}
	}
	if doStream {
		rates, err := neighbor.ParseRates(f.rates)
		if err != nil {
			return nil, nil, usageErrorf("--rates: %v", err)
		}
		if err := refuseRepeats("rates", rates, neighbor.Rate.String); err != nil {
			return nil, nil, err
		}
		size, err := units.ParseSize(f.streamSize)
		if err != nil {
			return nil, nil, usageErrorf("--stream-size: %v", err)
		}
		s = &neighbor.StreamConfig{Config: common, Rates: rates, Passes: f.passes, Duration: f.duration, FileSize: size, MaxSamples: f.maxSamples}
		if err := s.Validate(); err != nil {
			return nil, nil, asUsage(err)
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
