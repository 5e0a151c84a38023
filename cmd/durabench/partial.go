package main

import (
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/report"
)

// A stop signal ends a run between cases (fixtures.Run.Stop; the runners
// check it before each case and return the cases that finished, with an
// error wrapping fixtures.ErrStopped). keepPartial then keeps what was
// measured: every record is noted partial, the figures are printed, --out
// is committed with results.PartialFile saying why, and --report is
// written with an "interrupted" banner. The run's files are removed after,
// as on every stop.

// stoppedRun reports whether err is a runner's answer to a stop: its
// results are the finished cases, to be kept.
func stoppedRun(err error) bool { return errors.Is(err, fixtures.ErrStopped) }

// keepPartial prints and saves the records of the cases that finished
// before sig stopped the run. It returns an error if they could not be
// saved; --out is then removed, as for a run that kept nothing.
func keepPartial(o *outputFlags, s *sink, env envinfo.Env, res outcome, sig syscall.Signal) error {
	cases := map[string]bool{}
	for i, r := range res.recs {
		res.recs[i].Notes = append(r.Notes, report.PartialNote)
		cases[r.Experiment+" "+fmt.Sprint(r.Params)] = true
	}
	why := fmt.Sprintf("The run was stopped by %s: kept the figures of the %d case(s) that ran at least one whole round before the stop, pooled over the rounds they ran; nothing after the stop ran.", signalName(sig), len(cases))
	rep := func(w io.Writer) error {
		if _, err := fmt.Fprintf(w, "%s\n\n", why); err != nil {
			return err
		}
		return res.report(w)
	}
	if err := s.save(res.recs, rep); err != nil {
		s.abort()
		return err
	}
	if err := s.commitPartial(why); err != nil {
		s.abort()
		return err
	}
	if err := s.print(res.recs, rep); err != nil && !isBrokenPipe(err) {
		return err
	}
	return writeReport(o.report, env, res.recs, true)
}
