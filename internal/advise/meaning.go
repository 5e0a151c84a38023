package advise

// "What this means": the few plain lines every measuring command ends
// with, computed from its records alone (so that they read the same live
// and from saved results). Invariants: at most MaxMeaning lines; every
// figure in them is one of the records' own, or a ratio of two of them;
// a line is left out, never guessed, when its figures are missing.

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/durabench/durabench/internal/saved"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
)

// MaxMeaning is the most lines a "What this means" block has.
const MaxMeaning = 5

// Meaning returns the "What this means" lines for the records of one run
// on goos: for a run of one experiment, its own lines; for several (the
// suite), the first line of each in the order they appear, then second
// lines while there is room (sqlite's, wal's, sync's, neighbor's).
func Meaning(recs []results.Record, goos string) []string {
	var exps []string
	for _, r := range recs {
		if !slices.Contains(exps, r.Experiment) {
			exps = append(exps, r.Experiment)
		}
	}
	per := func(exp string) []string {
		switch exp {
		case "sync":
			return SyncMeaning(recs)
		case "wal":
			return WALMeaning(recs)
		case "sqlite":
			return SQLiteMeaning(recs, goos)
		case "neighbor":
			return NeighborMeaning(recs)
		case CrashExperiment:
			return CrashMeaning(recs)
		}
		return nil
	}
	if len(exps) == 1 {
		lines := per(exps[0])
		return lines[:min(len(lines), MaxMeaning)]
	}
	each := make([][]string, len(exps))
	for i, e := range exps {
		each[i] = per(e)
	}
	var lines []string
	for _, l := range each {
		if len(l) > 0 && len(lines) < MaxMeaning {
			lines = append(lines, l[0])
		}
	}
	// Second lines while there is room, the decisions first: what a
	// SQLite setting risks, then the log's curve, then the rest.
	for _, exp := range []string{"sqlite", "wal", "sync", "neighbor", CrashExperiment} {
		if i := slices.Index(exps, exp); i >= 0 && len(each[i]) > 1 && len(lines) < MaxMeaning {
			lines = append(lines, each[i][1])
		}
	}
	return lines
}

// RenderMeaning writes the block: a heading and the lines, indented.
// Nothing is written for no lines.
func RenderMeaning(w io.Writer, lines []string) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "What this means:")
	for _, l := range lines[:min(len(lines), MaxMeaning)] {
		fmt.Fprintln(w, "  "+l)
	}
}

// promiseOf reads the promise a pooled record's notes give its method
// ("fdatasync(2): on stable storage"), or "".
func promiseOf(rec results.Record) string {
	for _, n := range rec.Notes {
		n = strings.TrimPrefix(n, "probe: ")
		if i := strings.LastIndex(n, ": "); i >= 0 {
			switch p := n[i+2:]; p {
			case "none", "handed to the device", "ordered", "on stable storage":
				return p
			}
		}
	}
	return ""
}

// riskWords says what a sync promise leaves at risk.
func riskWords(promise string) string {
	switch promise {
	case "none":
		return "leaves the data in the page cache"
	case "handed to the device":
		return "only hands the data to the device, which may lose it on power loss"
	case "ordered":
		return "only orders the writes, without waiting for them to be stored"
	}
	return promise
}

// SyncMeaning reads `sync` records: the cheapest method that reaches
// stable storage, what the cheaper ones give up, and the staircase.
func SyncMeaning(recs []results.Record) []string {
	all := saved.Pooled(recs, "sync")
	if len(all) == 0 {
		return nil
	}
	// One comparable slice: the first workload and order, the smallest
	// block, one thread, one write per sync.
	first := all[0].Params
	var smallest int64 = math.MaxInt64
	for _, r := range all {
		if b, err := units.ParseSize(r.Params.Get("block_size")); err == nil && r.Params.Get("workload") == first.Get("workload") {
			smallest = min(smallest, b)
		}
	}
	var row []results.Record
	for _, r := range all {
		p := r.Params
		if b, _ := units.ParseSize(p.Get("block_size")); b == smallest && p.Get("workload") == first.Get("workload") &&
			p.Get("order") == first.Get("order") && p.Get("threads") == "1" && p.Get("sync_every") == "1" {
			row = append(row, r)
		}
	}
	if len(row) == 0 {
		return nil
	}
	slices.SortStableFunc(row, func(x, y results.Record) int { return cmp.Compare(x.Stats.Total.P50, y.Stats.Total.P50) })
	what := first.Get("workload") + " of " + units.FormatSize(smallest)
	var lines []string
	var stable *results.Record
	for i, r := range row {
		if promiseOf(r) == "on stable storage" {
			stable = &row[i]
			break
		}
	}
	if stable == nil {
		lines = append(lines, fmt.Sprintf("No method measured here promises stable storage for a %s: none of these figures is a durable write.", what))
	} else {
		lines = append(lines, fmt.Sprintf("Cheapest sync that reaches stable storage here: %s, %s median per %s (about %s durable writes/s from one thread).",
			stable.Params.Get("method"), dur(stable.Stats.Total.P50), what, rate(1e9/float64(stable.Stats.Total.P50))))
		var cheaper []string
		for _, r := range row {
			if r.Stats.Total.P50 >= stable.Stats.Total.P50 || promiseOf(r) == "on stable storage" || promiseOf(r) == "" {
				continue
			}
			cheaper = append(cheaper, fmt.Sprintf("%s (%s) %s", r.Params.Get("method"), dur(r.Stats.Total.P50), riskWords(promiseOf(r))))
		}
		if len(cheaper) > 0 {
			lines = append(lines, "Cheaper, and not durable: "+strings.Join(cheaper, "; ")+".")
		}
		var dearer []string
		for _, r := range row {
			if promiseOf(r) == "on stable storage" && r.Params.Get("method") != stable.Params.Get("method") {
				dearer = append(dearer, fmt.Sprintf("%s %s", r.Params.Get("method"), ratio(float64(r.Stats.Total.P50), float64(stable.Stats.Total.P50))))
			}
		}
		if len(dearer) > 0 {
			lines = append(lines, "The other durable methods cost "+sentence(dearer)+" as much.")
		}
	}
	for _, r := range all {
		share, chance := r.Metrics["staircase_share"], r.Metrics["staircase_chance"]
		if chance > 0 && share >= 2*chance {
			lines = append(lines, fmt.Sprintf("%s: %.0f %% of samples end within 100 µs of a whole millisecond (%.0f %% by chance): the device completes it on a 1 ms tick.",
				r.Params.Get("method"), 100*share, 100*chance))
			break
		}
	}
	return lines
}

// WALMeaning reads `wal` records: one writer's rate, what sharing syncs
// buys, and whether the curve has a knee in the range tried.
func WALMeaning(recs []results.Record) []string {
	cases := LogCases(recs)
	if len(cases) == 0 {
		return nil
	}
	var lines []string
	var one *LogCase
	for i, c := range cases {
		if c.Writers == 1 && c.SyncEvery == 1 && (one == nil || c.CommitsPerSec > one.CommitsPerSec) {
			one = &cases[i]
		}
	}
	if one != nil {
		lines = append(lines, fmt.Sprintf("One writer, one %s per record: %s commits/s, p99 %s (%s, the fastest one-writer case).",
			one.Method, rate(one.CommitsPerSec), p99(one.P99), one.curve()))
	}
	var curve []LogCase
	var knee measure.Knee
	for _, c := range cases {
		if cv, k := curveOf(cases, c); len(cv) > len(curve) {
			curve, knee = cv, k
		}
	}
	if len(curve) > 1 {
		best, base := curve[slices.IndexFunc(curve, func(c LogCase) bool { return c.Writers == knee.PeakAt })], curve[0]
		lines = append(lines, fmt.Sprintf("%s sharing syncs: %s commits/s (%s the rate of %s), p99 %s, %.1f records per sync.",
			writers(best.Writers), rate(best.CommitsPerSec), ratio(best.CommitsPerSec, base.CommitsPerSec), writers(base.Writers), p99(best.P99), best.RecordsPerSync))
		lines = append(lines, kneeSentence(curve, knee))
	}
	if l := walContrast(cases, func(c LogCase) string { return c.IO }, "I/O"); l != "" {
		lines = append(lines, l)
	}
	if l := walContrast(cases, func(c LogCase) string { return c.Layout }, "layout"); l != "" {
		lines = append(lines, l)
	}
	return lines
}

// walContrast compares the one-writer cases that differ only in one
// dimension (I/O mode or layout): the fastest value against the slowest.
func walContrast(cases []LogCase, dim func(LogCase) string, what string) string {
	var ones []LogCase
	for _, c := range cases {
		if c.Writers == 1 && c.SyncEvery == 1 {
			ones = append(ones, c)
		}
	}
	by := map[string][]float64{}
	var values []string
	for _, c := range ones {
		v := dim(c)
		if !slices.Contains(values, v) {
			values = append(values, v)
		}
		by[v] = append(by[v], c.CommitsPerSec)
	}
	if len(values) < 2 {
		return ""
	}
	median := func(xs []float64) float64 {
		s := slices.Sorted(slices.Values(xs))
		return s[(len(s)-1)/2]
	}
	slices.SortStableFunc(values, func(x, y string) int { return cmp.Compare(median(by[y]), median(by[x])) })
	hi, lo := values[0], values[len(values)-1]
	return fmt.Sprintf("By %s (one writer, median over the other settings): %s %s commits/s, %s %s/s (%s faster).",
		what, hi, rate(median(by[hi])), lo, rate(median(by[lo])), ratio(median(by[hi]), median(by[lo])))
}

// SQLiteMeaning reads `sqlite` records: the fastest configuration that
// survives a power loss on goos, and what the faster ones risk.
func SQLiteMeaning(recs []results.Record, goos string) []string {
	a, err := Pragmas(PragmaInput{Records: recs, OS: goos}, PragmaQuestion{Failure: PowerLoss})
	if err != nil {
		return nil
	}
	var lines []string
	ref := a.Best
	if ref == nil {
		lines = append(lines, fmt.Sprintf("No configuration measured here keeps every commit through a power loss on %s.", cmp.Or(goos, "this OS")))
	} else {
		lines = append(lines, fmt.Sprintf("Fastest durable here (keeps every commit through a power loss): %s on %s, %s commits/s, p99 %s.",
			ref.Name(), ref.Engine, rate(ref.CommitsPerSec), p99(ref.P99)))
		// The trade worth naming: the fastest option that only loses the
		// last commits; one that may corrupt only when there is no such.
		if i := slices.IndexFunc(a.Faster, func(o Option) bool { return o.Verdict == LosesLast }); i >= 0 {
			f := a.Faster[i]
			lines = append(lines, fmt.Sprintf("%s is %s faster and %s.", f.Name(), ratio(f.CommitsPerSec, ref.CommitsPerSec), riskPhrase(f)))
		} else if len(a.Faster) > 0 {
			f := a.Faster[0]
			lines = append(lines, fmt.Sprintf("%s is %s faster and %s.", f.Name(), ratio(f.CommitsPerSec, ref.CommitsPerSec), riskPhrase(f)))
		}
		var other []string
		for _, eb := range a.PerEngine {
			switch {
			case eb.Engine == ref.Engine:
			case eb.Best == nil:
				other = append(other, eb.Engine+" none")
			default:
				other = append(other, fmt.Sprintf("%s %s/s", eb.Engine, rate(eb.Best.CommitsPerSec)))
			}
		}
		if len(other) > 0 {
			lines = append(lines, "The same promise on the other engines, at their fastest: "+strings.Join(other, ", ")+".")
		}
	}
	if goos == "darwin" && slices.Contains(a.Engines, "system") {
		lines = append(lines, "Apple's system SQLite turns fullfsync=1 into a barrier: ordered, not stored; use modernc or mattn for durability.")
	}
	if slices.Contains(a.Engines, "mattn") {
		lines = append(lines, "mattn sets synchronous=NORMAL on every connection unless its DSN has _sync: use _sync=FULL (durabench advise pragmas prints the lines).")
	}
	return lines
}

// riskPhrase says what an option risks through its assessed failure, in
// the words a sentence needs: "may lose the last commits on power loss".
func riskPhrase(o Option) string {
	on := " on " + strings.ReplaceAll(o.Failure.String(), "-", " ")
	switch o.Verdict {
	case LosesLast:
		return "may lose the last commits" + on + " (no corruption)"
	case MayCorrupt:
		return "may lose commits or corrupt the database" + on
	}
	return o.Risk()
}

// NeighborMeaning reads `neighbor` records: how much another process's
// unsynced data slows a small sync, against the idle baseline.
func NeighborMeaning(recs []results.Record) []string {
	var lines []string
	for _, mode := range []struct{ mode, key, idle string }{{"backlog", "backlog", "0"}, {"stream", "rate", "0"}} {
		type cell struct {
			level string
			p50   int64
			p99   int64
			nbr   float64
		}
		by := map[string][]cell{}
		var methods []string
		for _, r := range saved.Pooled(recs, "neighbor") {
			if r.Params.Get("mode") != mode.mode || r.Params.Get("variant") == "pre-sync" {
				continue
			}
			m := r.Params.Get("method")
			if !slices.Contains(methods, m) {
				methods = append(methods, m)
			}
			by[m] = append(by[m], cell{r.Params.Get(mode.key), r.Stats.Total.P50, r.Stats.Total.P99, r.Metrics["neighbor_sync_ns_p50"]})
		}
		for _, m := range methods {
			cells := by[m]
			i := slices.IndexFunc(cells, func(c cell) bool { return c.level == mode.idle })
			if i < 0 || len(cells) < 2 {
				continue
			}
			idle, worst := cells[i], cells[i]
			for _, c := range cells {
				if c.p50 > worst.p50 {
					worst = c
				}
			}
			if worst.level == idle.level {
				lines = append(lines, fmt.Sprintf("%s: the neighbor's %s changed nothing measurable (median %s idle).", m, mode.mode, dur(idle.p50)))
				continue
			}
			what := "a " + worst.level + " backlog"
			if mode.mode == "stream" {
				what = "a neighbor writing " + worst.level + "/s"
				if worst.level == "max" {
					what = "a neighbor writing as fast as it can"
				}
			}
			l := fmt.Sprintf("%s behind %s: median %s against %s idle (%s).", m, what, dur(worst.p50), dur(idle.p50), ratio(float64(worst.p50), float64(idle.p50)))
			if mode.mode == "backlog" && worst.nbr > 0 {
				l += fmt.Sprintf(" The neighbor's own sync then took %s.", dur(int64(worst.nbr)))
			}
			lines = append(lines, l)
		}
	}
	if len(lines) > 0 {
		lines = append(lines, "A sync can wait for other processes' unsynced data: time it on a busy machine, not only an idle one.")
	}
	return lines
}

// CrashMeaning reads `crash` records: per model, how many configurations
// kept every acknowledged commit in every state checked, and which did not.
func CrashMeaning(recs []results.Record) []string {
	type tally struct {
		configs, kept int
		lost, corrupt []string
	}
	by := map[string]*tally{}
	var models []string
	for _, r := range saved.Pooled(recs, CrashExperiment) {
		m := r.Params.Get("model")
		if by[m] == nil {
			by[m] = &tally{}
			models = append(models, m)
		}
		t := by[m]
		t.configs++
		switch cfg := r.Params.Get("config"); {
		case r.Metrics["corrupt_states"] > 0:
			t.corrupt = append(t.corrupt, cfg)
		case r.Metrics["lost_states"] > 0:
			t.lost = append(t.lost, cfg)
		default:
			t.kept++
		}
	}
	var lines []string
	for _, m := range models {
		t := by[m]
		l := fmt.Sprintf("Simulated power cuts under %s: %d of %d configurations kept every acknowledged commit in every state checked", m, t.kept, t.configs)
		if len(t.lost) > 0 {
			l += "; lost commits: " + strings.Join(t.lost, ", ")
		}
		if len(t.corrupt) > 0 {
			l += "; corrupt states: " + strings.Join(t.corrupt, ", ")
		}
		lines = append(lines, l+".")
	}
	return lines
}
