// Package compare puts saved runs side by side: per case, each run's
// figure (the median of its rounds), the ratio to the first run, and
// whether the difference is significant by the Mann-Whitney U test of
// golang.org/x/perf/benchmath, the one benchstat uses.
//
// Invariants:
//   - A case is keyed by its experiment and params, with the values it was
//     asked for (asked_<key> where SQLite reported something else) and
//     without environment params (sqlite_version): two machines' runs of
//     the same case line up even where their engines differ.
//   - The environment (env.json) is shown once per run and never enters a
//     key.
//   - A difference is marked significant only when the test could have
//     found one: with too few rounds the mark is "?" and a footnote says
//     how many each run needs.
package compare

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/durabench/durabench/internal/saved"
	"github.com/durabench/durabench/results"
)

// EnvParams are params that describe where a case ran, not what it was:
// they are shown per run and left out of the key.
var EnvParams = []string{"sqlite_version"}

// Alpha is the significance level.
const Alpha = 0.05

// Metric is a figure compared per case.
type Metric struct {
	Name         string // "commits/s", "p99"
	HigherBetter bool
	value        func(results.Record) float64
	format       func(float64) string
}

// metrics are the figures compared: the rate where the records have one,
// and the p99 latency.
var (
	rateMetric = Metric{Name: "per s", HigherBetter: true,
		value:  func(r results.Record) float64 { return r.OpsPerSec },
		format: func(v float64) string { return strings.TrimSuffix(results.FormatRate(v), " /s") }}
	meanMetric = Metric{Name: "mean",
		value:  func(r results.Record) float64 { return r.Stats.Total.Mean },
		format: func(v float64) string { return results.FormatDuration(int64(v)) }}
	p99Metric = Metric{Name: "p99",
		value:  func(r results.Record) float64 { return float64(r.Stats.Total.P99) },
		format: func(v float64) string { return results.FormatDuration(int64(v)) }}
)

// Cell is one run's figure for one case and metric.
type Cell struct {
	Present bool
	Values  []float64 // one per round, or the pooled value when the run has no rounds
	Center  float64   // median
	Spread  string    // the confidence interval as ± percent, "" when not known
	// Ratio, Mark and Why compare the cell with the first run's: Mark is
	// "*" (significant), "~" (not), "?" (cannot tell: Why says why), or ""
	// for the first run itself.
	Ratio float64
	Mark  string
	Why   string
	P     float64
}

// Row is one case across the runs.
type Row struct {
	Key   string // the case's params, key=value joined by "/"
	Label string // the same without params every case shares
	Cells map[string][]Cell
}

// Table is one experiment's comparison.
type Table struct {
	Experiment string
	Shared     string // params every case shares, key=value
	Metrics    []Metric
	Rows       []Row
}

// Comparison is the whole answer.
type Comparison struct {
	Runs   []saved.Run
	Labels []string // A, B, C, ...
	Tables []Table
	// EnvValues are, per run, the environment params found in its
	// records: "modernc sqlite_version=3.54.1".
	EnvValues [][]string
	// Notes are the footnotes: why a mark is "?".
	Notes []string

	unbounded bool // some figure has too few rounds for a bounded interval
}

// Compare compares runs, the first as the base.
func Compare(runs []saved.Run) (Comparison, error) {
	c := Comparison{Runs: runs}
	if len(runs) < 2 {
		return c, fmt.Errorf("compare: %d run given: give two or more", len(runs))
	}
	for i := range runs {
		c.Labels = append(c.Labels, string(rune('A'+i)))
	}
	var exps []string
	for _, r := range runs {
		for _, rec := range r.Records {
			if !slices.Contains(exps, rec.Experiment) {
				exps = append(exps, rec.Experiment)
			}
		}
		c.EnvValues = append(c.EnvValues, envValues(r.Records))
	}
	for _, e := range exps {
		t := c.table(e)
		if len(t.Rows) > 0 {
			c.Tables = append(c.Tables, t)
		}
	}
	if len(c.Tables) == 0 {
		return c, fmt.Errorf("compare: the runs have no records")
	}
	return c, nil
}

// key turns params into the case's key: asked values where they differ,
// environment params left out.
func key(ps results.Params) results.Params {
	var out results.Params
	for _, p := range ps {
		if slices.Contains(EnvParams, p.Key) || strings.HasPrefix(p.Key, "asked_") {
			continue
		}
		if a := ps.Get("asked_" + p.Key); a != "" {
			p.Value = a
		}
		out = append(out, p)
	}
	return out
}

func joinParams(ps results.Params) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Key + "=" + p.Value
	}
	return strings.Join(parts, "/")
}

// envValues lists the environment params of recs, once each, with the
// first param of their case (the engine) for context.
func envValues(recs []results.Record) []string {
	var out []string
	for _, r := range recs {
		for _, e := range EnvParams {
			if v := r.Params.Get(e); v != "" {
				s := fmt.Sprintf("%s %s=%s", r.Params[0].Value, e, v)
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// table builds experiment e's comparison.
func (c *Comparison) table(e string) Table {
	t := Table{Experiment: e}
	type perRun struct{ rounds, pooled []results.Record }
	byKey := map[string][]perRun{}
	params := map[string]results.Params{}
	var order []string
	hasRate := true
	for i, r := range c.Runs {
		for _, rec := range r.Records {
			if rec.Experiment != e {
				continue
			}
			k := key(rec.Params)
			ks := joinParams(k)
			if _, ok := byKey[ks]; !ok {
				byKey[ks] = make([]perRun, len(c.Runs))
				params[ks] = k
				order = append(order, ks)
			}
			pr := &byKey[ks][i]
			if rec.Round == results.PooledRound {
				pr.pooled = append(pr.pooled, rec)
				hasRate = hasRate && rec.OpsPerSec > 0
			} else {
				pr.rounds = append(pr.rounds, rec)
			}
		}
	}
	t.Metrics = []Metric{meanMetric, p99Metric}
	if hasRate {
		t.Metrics = []Metric{rateMetric, p99Metric}
	}
	shared := sharedParams(order, params)
	t.Shared = joinParams(shared)
	for _, ks := range order {
		row := Row{Key: ks, Label: joinParams(without(params[ks], shared)), Cells: map[string][]Cell{}}
		for _, m := range t.Metrics {
			cells := make([]Cell, len(c.Runs))
			samples := make([]*benchmath.Sample, len(c.Runs))
			for i, pr := range byKey[ks] {
				recs := pr.rounds
				if len(recs) == 0 {
					recs = pr.pooled
				}
				if len(recs) == 0 {
					continue
				}
				vals := make([]float64, len(recs))
				for j, rec := range recs {
					vals[j] = m.value(rec)
				}
				s := benchmath.NewSample(vals, &benchmath.Thresholds{CompareAlpha: Alpha})
				sum := benchmath.AssumeNothing.Summary(s, 0.95)
				cells[i] = Cell{Present: true, Values: s.Values, Center: sum.Center}
				if len(vals) > 1 && !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0) {
					cells[i].Spread = sum.PctRangeString()
				} else if len(vals) > 1 {
					c.unbounded = true
				}
				samples[i] = s
			}
			for i := 1; i < len(cells); i++ {
				if !cells[i].Present || !cells[0].Present {
					continue
				}
				cells[i].Ratio = cells[i].Center / cells[0].Center
				cells[i].Mark, cells[i].Why, cells[i].P = judge(samples[0], samples[i])
				if cells[i].Why != "" && !slices.Contains(c.Notes, cells[i].Why) {
					c.Notes = append(c.Notes, cells[i].Why)
				}
			}
			row.Cells[m.Name] = cells
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// judge compares two samples: "*" when the U test finds a difference at
// Alpha, "~" when it could have but did not, "?" with the reason when the
// samples are too small for it to find any.
func judge(a, b *benchmath.Sample) (mark, why string, p float64) {
	na, nb := len(a.Values), len(b.Values)
	if na < 2 || nb < 2 {
		return "?", fmt.Sprintf("? one value per run (n=%d+%d): runs without rounds cannot be judged; measure with --rounds 4 or more", na, nb), math.NaN()
	}
	cmpRes := benchmath.AssumeNothing.Compare(a, b)
	if cmpRes.P < Alpha {
		return "*", "", cmpRes.P
	}
	for _, w := range cmpRes.Warnings {
		return "?", fmt.Sprintf("? n=%d+%d: %v; use --rounds 4 or more (benchstat would print \"~\" here)", na, nb, w), cmpRes.P
	}
	return "~", "", cmpRes.P
}

// sharedParams are the params (key=value) every case of order has.
func sharedParams(order []string, params map[string]results.Params) results.Params {
	if len(order) < 2 {
		return nil
	}
	var out results.Params
	for _, p := range params[order[0]] {
		all := true
		for _, ks := range order[1:] {
			all = all && params[ks].Get(p.Key) == p.Value
		}
		if all {
			out = append(out, p)
		}
	}
	return out
}

// without returns ps less the params of drop.
func without(ps, drop results.Params) results.Params {
	var out results.Params
	for _, p := range ps {
		if !slices.Contains(drop, p) {
			out = append(out, p)
		}
	}
	return out
}

// Render writes the comparison for people.
func (c Comparison) Render(w io.Writer) error {
	fmt.Fprintln(w, "Runs (the environment of each; it is not part of any case's key):")
	for i, r := range c.Runs {
		fmt.Fprintf(w, "  %s  %s\n", c.Labels[i], r.Path)
		fmt.Fprintf(w, "     %s\n", envLine(r))
		if len(c.EnvValues[i]) > 0 {
			fmt.Fprintf(w, "     %s\n", strings.Join(c.EnvValues[i], ", "))
		}
	}
	fmt.Fprintln(w)
	for _, t := range c.Tables {
		if err := c.renderTable(w, t); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Figures are medians of the rounds with their 95 %% confidence interval (±); ratios are against %s. Marks: * the difference is significant (Mann-Whitney U test, p < %.2f, golang.org/x/perf/benchmath); ~ no significant difference; ? cannot tell", c.Labels[0], Alpha)
	if len(c.Notes) > 0 {
		fmt.Fprintln(w, ":")
	} else {
		fmt.Fprintln(w, ".")
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	if c.unbounded {
		fmt.Fprintln(w, "A figure without ± has too few rounds for its median's 95 % interval to be bounded (benchstat prints \"± ∞\"): 6 rounds or more give one.")
	}
	return nil
}

// renderTable writes one experiment's table: per metric, each run's
// figure, then each later run's ratio and mark.
func (c Comparison) renderTable(w io.Writer, t Table) error {
	headers := []string{"case"}
	for _, m := range t.Metrics {
		for i, l := range c.Labels {
			headers = append(headers, l+" "+m.Name)
			if i > 0 {
				headers = append(headers, l+"/"+c.Labels[0])
			}
		}
	}
	tab := results.NewTable(headers...)
	tab.Title = t.Experiment
	if t.Shared != "" {
		tab.Title += " (every case: " + t.Shared + ")"
	}
	for _, r := range t.Rows {
		row := []string{cmp.Or(r.Label, r.Key, "(one case)")}
		for _, m := range t.Metrics {
			for i, cell := range r.Cells[m.Name] {
				switch {
				case !cell.Present:
					row = append(row, "—")
				case cell.Spread != "":
					row = append(row, m.format(cell.Center)+" ±"+cell.Spread)
				default:
					row = append(row, m.format(cell.Center))
				}
				if i == 0 {
					continue
				}
				if !cell.Present || !r.Cells[m.Name][0].Present {
					row = append(row, "—")
					continue
				}
				row = append(row, fmt.Sprintf("%s %s", ratioString(cell.Ratio), cell.Mark))
			}
		}
		tab.AddRow(row...)
	}
	return tab.Render(w)
}

// ratioString formats a ratio: "0.83×", "14×", and below 0.1 as the
// inverse, "÷89" (89 times smaller).
func ratioString(r float64) string {
	switch {
	case math.IsInf(r, 0) || math.IsNaN(r) || r <= 0:
		return "?×"
	case r < 0.1:
		return "÷" + strings.TrimSuffix(ratioString(1/r), "×")
	case r >= 100:
		return fmt.Sprintf("%.0f×", r)
	case r >= 10:
		return fmt.Sprintf("%.1f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}

// envLine sums up a run's environment in one line.
func envLine(r saved.Run) string {
	if !r.HasEnv {
		return "no env.json: environment unknown"
	}
	e := r.Env
	cfg := e.BenchConfig()
	get := func(k string) string {
		for _, kv := range cfg {
			if kv[0] == k {
				return kv[1]
			}
		}
		return "unknown"
	}
	return fmt.Sprintf("%s %s %s, %s on %s (write cache %s), virt %s, %s, env %s at %s",
		get("goos"), get("kernel"), get("goarch"), get("fs"), get("device"), get("write-cache"), get("virt"), cmp.Or(e.GoVersion, "Go unknown"), e.ID, e.Time.UTC().Format("2006-01-02 15:04Z"))
}
