package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/durabench/durabench/internal/saved"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/sqlitebench"
)

// ms formats nanoseconds as milliseconds with three decimals.
func ms(ns int64) string { return results.FormatDuration(ns) }

// rate formats a per-second figure.
func rate(x float64) string { return results.FormatRate(x) }

// sameCase reports whether a and b have the same value for every key but
// the ones in except.
func sameCase(a, b results.Params, except ...string) bool {
	for _, p := range a {
		if slices.Contains(except, p.Key) {
			continue
		}
		if b.Get(p.Key) != p.Value {
			return false
		}
	}
	return len(a) == len(b)
}

// syncSection draws, for the first case of the run (workload, size, one
// thread), a latency histogram per method and their CDFs together, and
// tabulates every case.
func syncSection(recs []results.Record) (*Section, error) {
	all := saved.Pooled(recs, "sync")
	if len(all) == 0 {
		return nil, nil
	}
	s := &Section{Title: "Sync methods (durabench sync)"}
	ref := all[0]
	for _, r := range all {
		if r.Params.Get("threads") == "1" && len(r.Histogram) > 0 {
			ref = r
			break
		}
	}
	var ref2 []results.Record
	for _, r := range all {
		if sameCase(r.Params, ref.Params, "method") && len(r.Histogram) > 0 {
			ref2 = append(ref2, r)
		}
	}
	caseName := fmt.Sprintf("%s %s", ref.Params.Get("workload"), ref.Params.Get("block_size"))
	if t := ref.Params.Get("threads"); t != "1" {
		caseName += ", " + t + " threads"
	}
	if se := ref.Params.Get("sync_every"); se != "1" {
		caseName += ", a sync every " + se + " writes"
	}
	s.Intro = fmt.Sprintf("Each sample is one write and its sync, timed together. The plots show %s, pooled over all rounds. "+
		"A sync that waits for a device flush often takes a whole number of milliseconds: look for peaks on the grid lines.", caseName)
	var cdf []series
	for _, r := range ref2 {
		m := r.Params.Get("method")
		p, caption, err := latencyHistogram(fmt.Sprintf("%s: %s", m, caseName), r.Histogram, r.N, r.Stats.Total.P99*6/5)
		if err != nil {
			return nil, err
		}
		caption = fmt.Sprintf("%d samples, p50 %s, p99 %s; %s", r.N, ms(r.Stats.Total.P50), ms(r.Stats.Total.P99), caption)
		if share, ok := r.Metrics["staircase_share"]; ok {
			caption += fmt.Sprintf("; %.0f %% of samples within 100 µs of a whole millisecond (%.0f %% by chance)", 100*share, 100*r.Metrics["staircase_chance"])
		}
		svg, err := svgOf(p, plotHeight)
		if err != nil {
			return nil, err
		}
		s.Plots = append(s.Plots, Plot{Name: "sync-hist-" + fileSafe(m), Title: "Latency histogram: " + m, Caption: caption, SVG: svg})
		cdf = append(cdf, series{name: m, xys: cdfPoints(r.Histogram, r.N)})
	}
	if len(cdf) > 0 {
		p, err := linesPlot("CDF: "+caseName, "latency of one write + sync (ms, log scale)", "share of samples ≤ x", cdf, true, false)
		if err != nil {
			return nil, err
		}
		p.Legend.Top, p.Legend.Left = false, false
		p.Y.Min, p.Y.Max = 0, 1
		p.X.Max *= 30 // an empty decade or so on the right for the legend
		svg, err := svgOf(p, plotHeight+2*vg.Centimeter)
		if err != nil {
			return nil, err
		}
		s.Plots = append(s.Plots, Plot{Name: "sync-cdf", Title: "CDF per method", Caption: "The further left a line rises, the faster the method; a long flat tail is rare slow syncs.", SVG: svg})
	}
	t := Table{Title: "Every case, pooled over its rounds", Header: []string{"workload", "size", "method", "threads", "p50", "p99", "p99.9", "ops/s", "what it promises"}}
	for _, r := range all {
		promise := ""
		if len(r.Notes) > 0 {
			promise = r.Notes[0]
		}
		t.Rows = append(t.Rows, []string{r.Params.Get("workload"), r.Params.Get("block_size"), r.Params.Get("method"), r.Params.Get("threads"),
			ms(r.Stats.Total.P50), ms(r.Stats.Total.P99), ms(r.Stats.Total.P999), rate(r.OpsPerSec), promise})
	}
	s.Tables = append(s.Tables, t)
	return s, nil
}

// fileSafe keeps letters, digits, '-' and '_' of s.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// curve is one group-commit curve: a case of the log writer at several
// writer counts, sorted by writers.
type curve struct {
	name    string
	writers []int
	recs    []results.Record
}

// walCurves groups the pooled wal records into curves over the writer
// count.
func walCurves(all []results.Record) []curve {
	var cs []curve
	for _, r := range all {
		w, err := strconv.Atoi(r.Params.Get("writers"))
		if err != nil {
			continue
		}
		i := slices.IndexFunc(cs, func(c curve) bool { return sameCase(c.recs[0].Params, r.Params, "writers") })
		if i < 0 {
			name := fmt.Sprintf("%s %s %s %s", r.Params.Get("layout"), r.Params.Get("block_size"), r.Params.Get("io"), r.Params.Get("method"))
			if se := r.Params.Get("sync_every"); se != "" && se != "1" {
				name += " every " + se
			}
			cs = append(cs, curve{name: name})
			i = len(cs) - 1
		}
		cs[i].writers = append(cs[i].writers, w)
		cs[i].recs = append(cs[i].recs, r)
	}
	out := cs[:0]
	for _, c := range cs {
		if len(c.writers) < 2 {
			continue
		}
		idx := make([]int, len(c.writers))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int { return c.writers[a] - c.writers[b] })
		sorted := curve{name: c.name}
		for _, i := range idx {
			sorted.writers = append(sorted.writers, c.writers[i])
			sorted.recs = append(sorted.recs, c.recs[i])
		}
		out = append(out, sorted)
	}
	return out
}

// kneeOf returns the index of a curve's knee (measure.FindKnee, the one
// knee rule) and whether the curve really bends inside the range tried.
func kneeOf(c curve) (int, bool) {
	ys := make([]float64, len(c.recs))
	for i, r := range c.recs {
		ys[i] = r.OpsPerSec
	}
	k := measure.FindKnee(c.writers, ys)
	return k.Index, k.Inside
}

// walSection draws the group-commit curves (commits/s and p99 against
// writers, knee marked) and tabulates every case.
func walSection(recs []results.Record) (*Section, error) {
	all := saved.Pooled(recs, "wal")
	if len(all) == 0 {
		return nil, nil
	}
	s := &Section{Title: "Write-ahead log and group commit (durabench wal)",
		Intro: "Concurrent writers append to one log and share its syncs: one sync makes every record queued before it durable. " +
			"The knee is the fewest writers reaching 90 % of the best commits/s, marked only where the curve flattens inside the range tried (its last step gains under 10 %)."}
	curves := walCurves(all)
	if len(curves) > 0 {
		var rateS, p99S []series
		var notes []string
		for _, c := range curves {
			var r, q plotter.XYs
			for i, rec := range c.recs {
				r = append(r, plotter.XY{X: float64(c.writers[i]), Y: rec.OpsPerSec})
				q = append(q, plotter.XY{X: float64(c.writers[i]), Y: float64(rec.Stats.Total.P99) / 1e6})
			}
			rateS, p99S = append(rateS, series{name: c.name, xys: r}), append(p99S, series{name: c.name, xys: q})
			k, ok := kneeOf(c)
			if ok {
				notes = append(notes, fmt.Sprintf("%s: knee at %d writers, %s commits (best %s)", c.name, c.writers[k], rate(c.recs[k].OpsPerSec), rate(bestRate(c))))
			} else {
				notes = append(notes, fmt.Sprintf("%s: no knee inside the range tried (%d to %d writers): commits/s still climb near the largest count; try more writers", c.name, c.writers[0], c.writers[len(c.writers)-1]))
			}
		}
		p, err := linesPlot("Group commit: commits/s against writers", "concurrent writers (log scale)", "commits/s", rateS, true, true)
		if err != nil {
			return nil, err
		}
		p.Y.Min = 0
		for i, c := range curves {
			if k, ok := kneeOf(c); ok {
				if err := markKnee(p, float64(c.writers[k]), c.recs[k].OpsPerSec, i); err != nil {
					return nil, err
				}
			}
		}
		svg, err := svgOf(p, plotHeight)
		if err != nil {
			return nil, err
		}
		s.Plots = append(s.Plots, Plot{Name: "wal-curve-commits", Title: "Group-commit curve: commits/s", Caption: strings.Join(notes, ". ") + ".", SVG: svg})
		p, err = linesPlot("Group commit: p99 commit latency against writers", "concurrent writers (log scale)", "p99 (ms)", p99S, true, true)
		if err != nil {
			return nil, err
		}
		p.Y.Min = 0
		svg, err = svgOf(p, plotHeight)
		if err != nil {
			return nil, err
		}
		s.Plots = append(s.Plots, Plot{Name: "wal-curve-p99", Title: "Group-commit curve: p99 latency", Caption: "Each writer waits for the sync that covers its record: more writers, more records per sync, and a longer wait.", SVG: svg})
	}
	t := Table{Title: "Every case, pooled over its rounds", Header: []string{"layout", "size", "io", "method", "writers", "commits/s", "p50", "p99", "records/sync"}}
	for _, r := range all {
		t.Rows = append(t.Rows, []string{r.Params.Get("layout"), r.Params.Get("block_size"), r.Params.Get("io"), r.Params.Get("method"), r.Params.Get("writers"),
			rate(r.OpsPerSec), ms(r.Stats.Total.P50), ms(r.Stats.Total.P99), strconv.FormatFloat(r.Metrics["records_per_sync"], 'f', 2, 64)})
	}
	s.Tables = append(s.Tables, t)
	return s, nil
}

// bestRate is a curve's highest commits/s.
func bestRate(c curve) float64 {
	best := 0.0
	for _, r := range c.recs {
		best = math.Max(best, r.OpsPerSec)
	}
	return best
}

// syncsPerCommit sums a sqlite record's counted syncs per commit by file;
// ok is false when the run did not count them.
func syncsPerCommit(r results.Record) (float64, bool) {
	total, ok := 0.0, false
	for k, v := range r.Metrics {
		if strings.HasPrefix(k, "syncs_per_op.") {
			total += v
			ok = true
		}
	}
	return total, ok
}

// sqliteSection draws, per engine, commits/s for every configuration, with
// the syncs per commit and what the configuration risks beside it.
func sqliteSection(recs []results.Record) (*Section, error) {
	all := saved.Pooled(recs, "sqlite")
	if len(all) == 0 {
		return nil, nil
	}
	s := &Section{Title: "SQLite commits (durabench sqlite)",
		Intro: "One single-row transaction per commit. Beside each engine's bars: the syncs each commit made (when the run counted them " +
			"with --count-syscalls) and what the configuration risks, from SQLite's documentation, assuming a sync reaches stable storage."}
	var engines []string
	for _, r := range all {
		if e := r.Params.Get("engine"); !slices.Contains(engines, e) {
			engines = append(engines, e)
		}
	}
	for _, e := range engines {
		var labels []string
		var values []float64
		beside := &Table{Title: e + ": what each configuration costs and risks",
			Header: []string{"configuration", "commits/s", "p99", "syncs/commit", "if the app crashes", "if the OS crashes or power fails"}}
		version := ""
		for _, r := range all {
			if r.Params.Get("engine") != e {
				continue
			}
			version = r.Params.Get("sqlite_version")
			j, sy := r.Params.Get("journal_mode"), r.Params.Get("synchronous")
			label := fmt.Sprintf("%s %s ff=%s", strings.ToUpper(j), strings.ToUpper(sy), r.Params.Get("fullfsync"))
			if c := r.Params.Get("checkpoint_fullfsync"); c != "" {
				label += " ckpt=" + c
			}
			labels = append(labels, label)
			values = append(values, r.OpsPerSec)
			syncs := "not counted"
			if n, ok := syncsPerCommit(r); ok {
				syncs = strconv.FormatFloat(n, 'f', 2, 64)
			}
			risk := sqlitebench.RiskOf(j, sy)
			beside.Rows = append(beside.Rows, []string{label, rate(r.OpsPerSec), ms(r.Stats.Total.P99), syncs, risk.AppCrash, risk.PowerLoss})
		}
		title := fmt.Sprintf("SQLite commits/s: %s (SQLite %s)", e, version)
		p, err := barsPlot(title, "commits/s", labels, values, rate)
		if err != nil {
			return nil, err
		}
		svg, err := svgOf(p, barsHeight(len(values)))
		if err != nil {
			return nil, err
		}
		s.Plots = append(s.Plots, Plot{Name: "sqlite-" + fileSafe(e), Title: "SQLite matrix: " + e, SVG: svg,
			Caption: "journal_mode, synchronous, fullfsync (ff) and checkpoint_fullfsync (ckpt) as SQLite reported them before the timed commits."})
		s.Beside = append(s.Beside, beside)
	}
	return s, nil
}

// neighborSection draws the probe's sync latency against the neighbor's
// backlog or rate, a line per method.
func neighborSection(recs []results.Record) (*Section, error) {
	all := saved.Pooled(recs, "neighbor")
	if len(all) == 0 {
		return nil, nil
	}
	s := &Section{Title: "Interference from a neighbor (durabench neighbor)",
		Intro: "The probe times a 4 KiB write + sync of its own file while another process holds unsynced data (backlog) or writes steadily (stream) " +
			"in another directory of the same file system. A sync that waits for the neighbor's data shows here as a line rising with the backlog or rate."}
	t := Table{Title: "Every cell, pooled", Header: []string{"mode", "variant", "backlog or rate", "method", "probe p50", "probe p99", "neighbor's own sync (p50)"}}
	for _, mode := range []struct{ mode, key, x string }{{"backlog", "backlog", "the neighbor's unsynced bytes"}, {"stream", "rate", "the neighbor's write rate (bytes/s)"}} {
		var xs, methods []string
		for _, r := range all {
			if r.Params.Get("mode") != mode.mode {
				continue
			}
			if x := r.Params.Get(mode.key); !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
			if m := r.Params.Get("method"); !slices.Contains(methods, m) {
				methods = append(methods, m)
			}
			nb := "-"
			if v, ok := r.Metrics["neighbor_sync_ns_p50"]; ok {
				nb = ms(int64(v))
			}
			t.Rows = append(t.Rows, []string{mode.mode, r.Params.Get("variant"), r.Params.Get(mode.key), r.Params.Get("method"),
				ms(r.Stats.Total.P50), ms(r.Stats.Total.P99), nb})
		}
		if len(xs) == 0 {
			continue
		}
		var ss []series
		for _, m := range methods {
			var p50, p99 plotter.XYs
			for _, r := range all {
				if r.Params.Get("mode") == mode.mode && r.Params.Get("method") == m {
					x := float64(slices.Index(xs, r.Params.Get(mode.key)))
					p50 = append(p50, plotter.XY{X: x, Y: float64(max(r.Stats.Total.P50, 1)) / 1e6})
					p99 = append(p99, plotter.XY{X: x, Y: float64(max(r.Stats.Total.P99, 1)) / 1e6})
				}
			}
			ss = append(ss, series{name: m + " p50", xys: p50}, series{name: m + " p99", xys: p99, dashed: true})
		}
		p, err := linesPlot("Probe write + sync against "+mode.x, mode.x, "write + sync (ms)", ss, false, true)
		if err != nil {
			return nil, err
		}
		p.NominalX(xs...)
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
		svg, err := svgOf(p, plotHeight)
		if err != nil {
			return nil, err
		}
		s.Plots = append(s.Plots, Plot{Name: "neighbor-" + mode.mode, Title: "Neighbor interference: " + mode.mode, SVG: svg,
			Caption: "The probe's median (solid) and p99 (dashed) write + sync per cell, on a log scale; a flat line means the neighbor's data did not slow it."})
	}
	s.Tables = append(s.Tables, t)
	return s, nil
}

// plotted are the experiments with sections of their own.
var plotted = []string{"sync", "wal", "sqlite", "neighbor"}

// otherSection tabulates the records of experiments the report has no
// plots for (the crash simulations, for one), so that nothing measured is
// left out.
func otherSection(recs []results.Record) (*Section, error) {
	t := Table{Header: []string{"experiment", "case", "round", "n", "p50", "p99", "ops/s", "notes"}}
	for _, r := range recs {
		if slices.Contains(plotted, r.Experiment) {
			continue
		}
		var kv []string
		for _, p := range r.Params {
			kv = append(kv, p.Key+"="+p.Value)
		}
		t.Rows = append(t.Rows, []string{r.Experiment, strings.Join(kv, " "), r.Round.String(), strconv.Itoa(r.N),
			ms(r.Stats.Total.P50), ms(r.Stats.Total.P99), rate(r.OpsPerSec), strings.Join(r.Notes, "; ")})
	}
	if len(t.Rows) == 0 {
		return nil, nil
	}
	return &Section{Title: "Other results", Intro: "Experiments the report draws no plots for, as recorded.", Tables: []Table{t}}, nil
}
