package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/report"
	"github.com/durabench/durabench/results"
)

const reportSynopsis = `report RESULTS_DIR [--report DIR]

Writes report.md and report.html for a results directory that a measuring
command (sync, wal, sqlite, neighbor, suite) wrote with --out. The HTML page
stands alone (no network needed to view it): the environment and its
warnings at the top, then SVG plots: a latency histogram per sync method on
a whole-millisecond grid, the methods' CDFs, the group-commit curve
(commits/s and p99 against writers, its knee marked where the curve
flattens inside the range tried), the SQLite matrix (commits/s per
configuration, with syncs per commit and what each risks beside it) and the
neighbor interference. report.md has the same tables, its plots in
plots/*.svg. Nothing is ever overwritten.

Every measuring command takes --report DIR to do the same at the end of
the run.`

const reportExamples = `  durabench sync --dir /data --out results/sync1
  durabench report results/sync1                 # results/sync1/report.html
  durabench report results/sync1 --report /tmp/r1

  # Measure and report in one go
  durabench suite --dir /data --out results/quick --report results/quick`

func runReport(args []string) error {
	fs := newFlags("report", reportSynopsis, reportExamples)
	to := fs.String("report", "", "directory for report.md, report.html and plots/ (default: RESULTS_DIR itself); a new one, or one without a report")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErrorf("give one results directory (written by a measuring command's --out); got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	if *to == "" {
		*to = dir
	}
	for _, name := range []string{report.MarkdownFile, report.HTMLFile, report.PlotDir} {
		if _, err := os.Lstat(filepath.Join(*to, name)); err == nil {
			return usageErrorf("%s exists already: reports are never overwritten; give --report a new directory", filepath.Join(*to, name))
		}
	}
	in, err := report.Load(dir)
	if err != nil {
		return asUsage(err)
	}
	r, err := report.Write(*to, in)
	if err != nil {
		return err
	}
	fmt.Printf("%s: %s\n", filepath.Join(*to, report.HTMLFile), plots(r.Plots()))
	fmt.Printf("%s\n", filepath.Join(*to, report.MarkdownFile))
	return nil
}

// checkNewReport refuses a --report directory that exists already.
func checkNewReport(dir string) error {
	if _, err := os.Lstat(dir); err == nil {
		return usageErrorf("--report %s exists already: reports are never overwritten; name a new directory (or the --out directory)", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return usageErrorf("--report %s: %v", dir, err)
	}
	return nil
}

// writeReport writes the report of a run just made into dir, if asked.
func writeReport(dir string, env envinfo.Env, recs []results.Record, partial bool) error {
	if dir == "" {
		return nil
	}
	r, err := report.Write(dir, report.Input{Env: env, Records: recs, Partial: partial})
	if err != nil {
		return err
	}
	status("durabench: report written to %s (%s)", filepath.Join(dir, report.HTMLFile), plots(r.Plots()))
	return nil
}

// plots counts plots in words: "1 plot", "13 plots".
func plots(n int) string {
	if n == 1 {
		return "1 plot"
	}
	return fmt.Sprintf("%d plots", n)
}
