package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/advise"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
	"github.com/spf13/pflag"
)

// outputFlags are the flags every measuring subcommand shares: where to
// measure, what to keep, and where and how to write the results.
type outputFlags struct {
	dir    string
	out    string
	format string
	keep   bool
	report string
}

var formats = []string{"table", "csv", "jsonl", "bench"}

func addOutputFlags(fs *pflag.FlagSet, o *outputFlags) {
	fs.StringVar(&o.dir, "dir", "", "directory on the file system to measure; the run works in a new child of it (required)")
	fs.StringVar(&o.out, "out", "", "new directory for results.csv, results.jsonl, results.bench.txt, env.json and report.txt; must not exist")
	fs.StringVar(&o.format, "format", "table", "what to print: "+strings.Join(formats, ", "))
	fs.BoolVar(&o.keep, "keep", false, "keep the run's files instead of removing them at the end")
	fs.StringVar(&o.report, "report", "", "new directory (or the --out directory) for report.md and report.html with plots")
	fs.BoolVar(&quiet, "quiet", false, "print only the result: no progress or status lines (errors still go to standard error)")
}

// validate refuses bad --dir, --out and --format values before anything is
// touched.
func (o *outputFlags) validate() error {
	if err := checkDir(o.dir); err != nil {
		return err
	}
	ok := false
	for _, f := range formats {
		ok = ok || f == o.format
	}
	if !ok {
		return usageErrorf("--format %q: use one of %s", o.format, strings.Join(formats, ", "))
	}
	if err := checkNewOut(o.out); err != nil {
		return err
	}
	if o.report != "" && filepath.Clean(o.report) != filepath.Clean(o.out) {
		return checkNewReport(o.report)
	}
	return nil
}

// sink is where a run's results go: the --out directory if given, and
// standard output in the chosen format.
type sink struct {
	flags *outputFlags
	env   envinfo.Env
	out   *results.Out
}

// openSink creates the --out directory (which validate checked is new) and
// records the environment in it.
func openSink(o *outputFlags, env envinfo.Env) (*sink, error) {
	s := &sink{flags: o, env: env}
	if o.out == "" {
		return s, nil
	}
	out, err := results.CreateOut(o.out)
	if err != nil {
		return nil, err
	}
	s.out = out
	if err := out.WriteEnv(env); err != nil {
		return nil, err
	}
	if err := out.WriteBenchConfig(env.BenchConfig()); err != nil {
		return nil, err
	}
	return s, nil
}

// emit writes recs to the --out files and prints them in the chosen format;
// report writes the human-readable report used for "table" and report.txt.
func (s *sink) emit(recs []results.Record, report func(io.Writer) error) error {
	if s.out != nil {
		if err := s.out.Write(recs); err != nil {
			return err
		}
		if err := s.writeReport(report); err != nil {
			return err
		}
	}
	w := os.Stdout
	switch s.flags.format {
	case "csv":
		return results.WriteCSV(w, recs)
	case "jsonl":
		// The environment line first: the stream stands alone.
		if err := results.WriteJSONLEnv(w, s.env); err != nil {
			return err
		}
		return results.WriteJSONL(w, recs)
	case "bench":
		return results.WriteBench(w, s.env.BenchConfig(), recs)
	}
	s.env.Render(w)
	fmt.Fprintln(w)
	return report(w)
}

// writeReport saves the human-readable report next to the data files.
func (s *sink) writeReport(report func(io.Writer) error) error {
	path := s.out.Dir() + "/report.txt"
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	s.env.Render(f)
	fmt.Fprintln(f)
	if err := report(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// close finishes the --out directory and says where it is.
func (s *sink) close() error {
	if s.out == nil {
		return nil
	}
	if err := s.out.Close(); err != nil {
		return err
	}
	status("durabench: results written to %s", s.out.Dir())
	return nil
}

// measurement is the part of a measuring command that differs between
// commands: it runs inside the run directory and returns the records and the
// human report.
type measurement func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error)

// measure runs a measuring command once its input is validated: it records
// the environment, creates --out and a new run directory under --dir (removed
// at the end unless --keep), runs m there, and writes what m returns. Its
// progress meter does not know how many steps m takes: measureSteps does.
func measure(o *outputFlags, experiment string, m measurement) error {
	return measureSteps(o, experiment, plan{}, m)
}

// measureSteps is measure with a progress meter that knows m's steps: it
// shows step i of p.steps with an ETA.
func measureSteps(o *outputFlags, experiment string, p plan, m measurement) error {
	defer startMeter("durabench "+experiment, p).Done()
	env, err := envinfo.Collect(o.dir)
	if err != nil {
		return err
	}
	sink, err := openSink(o, env)
	if err != nil {
		return err
	}
	run, err := fixtures.NewRun(o.dir, experiment, o.keep)
	if err != nil {
		return err
	}
	defer run.Close()
	recs, report, err := m(run, env)
	if err != nil {
		return err
	}
	meter.Done() // the results follow on a clean line
	meaning := advise.Meaning(recs, env.OS)
	if err := sink.emit(recs, withMeaning(report, meaning)); err != nil {
		return err
	}
	if o.format != "table" { // standard output holds data: the block goes beside it
		advise.RenderMeaning(os.Stderr, meaning)
	}
	if err := sink.close(); err != nil {
		return err
	}
	return writeReport(o.report, env, recs, false)
}

// withMeaning ends a report with its "What this means" block.
func withMeaning(report func(io.Writer) error, lines []string) func(io.Writer) error {
	if len(lines) == 0 {
		return report
	}
	return reports(report, func(w io.Writer) error { advise.RenderMeaning(w, lines); return nil })
}

// reports joins several reports into one, a blank line between them.
func reports(parts ...func(io.Writer) error) func(io.Writer) error {
	return func(w io.Writer) error {
		for i, r := range parts {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := r(w); err != nil {
				return err
			}
		}
		return nil
	}
}
