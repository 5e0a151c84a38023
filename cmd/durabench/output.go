package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"

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

// sink is where a run's results go: the --out directory if given (written
// aside and committed at the end, see results.Out), and standard output in
// the chosen format.
type sink struct {
	flags *outputFlags
	env   envinfo.Env
	out   *results.Out
}

// openSink starts the --out directory (which validate checked is new) and
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
		return s, err
	}
	if err := out.WriteBenchConfig(env.BenchConfig()); err != nil {
		return s, err
	}
	return s, nil
}

// save writes recs and the human-readable report to the --out files, if
// any; report writes the report used for "table" and report.txt.
func (s *sink) save(recs []results.Record, report func(io.Writer) error) error {
	if s.out == nil {
		return nil
	}
	if err := s.out.Write(recs); err != nil {
		return err
	}
	return s.writeReport(report)
}

// print prints recs in the chosen format, or the report for "table".
func (s *sink) print(recs []results.Record, report func(io.Writer) error) error {
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
	f, err := s.out.Create("report.txt")
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

// commit puts the --out directory in place and says where it is.
func (s *sink) commit() error {
	if s == nil || s.out == nil {
		return nil
	}
	if err := s.out.Commit(); err != nil {
		return err
	}
	status("durabench: results written to %s", s.out.Path())
	return nil
}

// commitPartial puts an interrupted run's --out in place, marked partial
// with reason (results.PartialFile), and says so.
func (s *sink) commitPartial(reason string) error {
	if s == nil || s.out == nil {
		return nil
	}
	if err := s.out.CommitPartial(reason); err != nil {
		return err
	}
	say("partial results written to %s (see %s there)", s.out.Path(), results.PartialFile)
	return nil
}

// abort removes an unfinished --out directory and says so.
func (s *sink) abort() {
	if s == nil || s.out == nil {
		return
	}
	if err := s.out.Abort(); err != nil {
		say("%v", err)
		return
	}
	say("nothing written to %s: the run did not finish", s.out.Path())
}

// measurement is the part of a measuring command that differs between
// commands: it runs inside the run directory and returns the records and the
// human report.
type measurement func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error)

// outcome is what a measurement returned.
type outcome struct {
	recs   []results.Record
	report func(io.Writer) error
	err    error
}

// measure runs a measuring command once its input is validated: it records
// the environment, creates a new run directory under --dir (removed at the
// end unless --keep) and the --out directory aside, runs m there in a
// goroutine of its own, writes what m returns and commits --out. A stop
// signal stops m between cases, waits for it, then removes what the run
// made (see signals.go). Its progress meter does not know how many steps m
// takes: measureSteps does.
func measure(o *outputFlags, experiment string, m measurement) error {
	return measureSteps(o, experiment, plan{}, m)
}

// measureSteps is measure with a progress meter that knows m's steps: it
// shows step i of p.steps with an ETA.
func measureSteps(o *outputFlags, experiment string, p plan, m measurement) error {
	stops := watchStops()
	defer startMeter("durabench "+experiment, p).Done()
	env, err := envinfo.Collect(o.dir)
	if err != nil {
		return err
	}
	if sig := pendingStop(stops); sig != 0 {
		say("stopped by %s before anything was created", signalName(sig))
		return stoppedError{sig}
	}
	run, err := fixtures.NewRun(o.dir, experiment, o.keep)
	if err != nil {
		return usageErrorf("--dir: %v", err) // nothing was created
	}
	sink, err := openSink(o, env)
	if err != nil {
		sink.abort()
		return errors.Join(err, closeRun(run, 0))
	}

	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{err: fmt.Errorf("internal error: %v\n%s", p, debug.Stack())}
			}
		}()
		recs, report, err := m(run, env)
		done <- outcome{recs, report, err}
	}()
	var sig syscall.Signal
	var res outcome
	select {
	case res = <-done:
	case s := <-stops:
		sig = s.(syscall.Signal)
		say("%s: stopping; the case under way ends first, then the run's files are removed", signalName(sig))
		run.Stop(stoppedError{sig})
		res = waitForStop(done, stops)
	}
	saved := false // --out holds every result
	if sig == 0 && res.err == nil {
		meter.Done() // the results follow on a clean line
		meaning := advise.Meaning(res.recs, env.OS)
		report := withMeaning(res.report, meaning)
		if res.err = sink.save(res.recs, report); res.err == nil {
			saved = true
			err := sink.print(res.recs, report)
			if err == nil && o.format != "table" { // standard output holds data: the block goes beside it
				advise.RenderMeaning(os.Stderr, meaning)
			}
			switch {
			case isBrokenPipe(err):
				sig = syscall.SIGPIPE
			case err != nil:
				res.err = err
			}
		}
		if s := pendingStop(stops); sig == 0 && s != 0 {
			sig = s
		}
	}
	if sig != 0 && !saved && len(res.recs) > 0 && stoppedRun(res.err) {
		// Stopped between cases: the finished cases' figures stay.
		err := keepPartial(o, sink, env, res, sig)
		closeRun(run, sig)
		if err != nil {
			say("could not keep the finished cases: %v", err)
		}
		return stoppedError{sig}
	}
	if sig != 0 {
		switch {
		case saved: // stopped while printing: --out is whole and stays
			if sink.commit() != nil {
				sink.abort()
			}
		case len(res.recs) > 0 && res.report != nil:
			// The measurement returned what it had measured when it
			// stopped: --out keeps it, marked partial.
			reason := fmt.Sprintf("stopped by %s: these are the cases measured before it; the run did not finish", signalName(sig))
			if sink.save(res.recs, res.report) != nil || sink.commitPartial(reason) != nil {
				sink.abort()
			}
		default: // nothing whole to keep
			sink.abort()
		}
		closeRun(run, sig)
		return stoppedError{sig}
	}
	if res.err != nil {
		sink.abort()
		return errors.Join(res.err, closeRun(run, 0))
	}
	if err := sink.commit(); err != nil {
		return errors.Join(err, closeRun(run, 0))
	}
	return errors.Join(writeReport(o.report, env, res.recs, false), closeRun(run, 0))
}

// withMeaning ends a report with its "What this means" block.
func withMeaning(report func(io.Writer) error, lines []string) func(io.Writer) error {
	if len(lines) == 0 {
		return report
	}
	return reports(report, func(w io.Writer) error { advise.RenderMeaning(w, lines); return nil })
}

// waitForStop waits for a stopped measurement to return, saying so again
// on every further stop signal.
func waitForStop(done chan outcome, stops chan os.Signal) outcome {
	for {
		select {
		case res := <-done:
			return res
		case s := <-stops:
			say("%s: still stopping: waiting for the case under way to end before removing its files", signalName(s.(syscall.Signal)))
		}
	}
}

// closeRun removes the run's directory (unless --keep) and says truthfully
// what became of it; sig is the signal that stopped the run, or 0.
func closeRun(run *fixtures.Run, sig syscall.Signal) error {
	err := run.Close()
	stopped := ""
	if sig != 0 {
		stopped = "stopped by " + signalName(sig) + "; "
	}
	switch {
	case run.Kept():
		say("%skept the run's files in %s (--keep)", stopped, run.Dir)
	case err != nil:
		say("%scould not remove the run's files: %v; remove %s by hand", stopped, err, run.Dir)
		return err
	case sig != 0:
		say("%sremoved the run's files (%s)", stopped, run.Dir)
	}
	return nil
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

// printJSON prints v to standard output as indented JSON (the --json of
// env and trace).
func printJSON(v any) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
