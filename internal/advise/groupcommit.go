package advise

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
)

// LogCase is one measured log configuration: a pooled `wal` record read
// back.
type LogCase struct {
	Layout, BlockSize, IO, Method string
	Writers, SyncEvery            int
	CommitsPerSec                 float64
	P50, P99                      int64
	RecordsPerSync                float64
	SyncsPerSec                   float64
	// SyncMean is the mean time of one sync call, where the record timed
	// write and sync apart (one writer); 0 otherwise.
	SyncMean float64
	SyncP99  int64
}

// curve is the part of a case that its group-commit curve shares.
func (c LogCase) curve() string { return c.Layout + " " + c.BlockSize + " " + c.IO + " " + c.Method }

// Name says the case in words: "16 writers, initialized 4K buffered
// fdatasync", "1 writer syncing every 8 records, ...".
func (c LogCase) Name() string {
	who := writers(c.Writers)
	if c.SyncEvery > 1 {
		who += fmt.Sprintf(" syncing every %d records", c.SyncEvery)
	} else if c.Writers > 1 {
		who += " sharing syncs"
	}
	return who + ", " + c.curve()
}

func writers(n int) string {
	if n == 1 {
		return "1 writer"
	}
	return groupInt(int64(n)) + " writers"
}

// LogCases reads the measured log configurations of recs (pooled `wal`
// records), in record order.
func LogCases(recs []results.Record) []LogCase {
	var out []LogCase
	for _, rec := range recs {
		if rec.Experiment != "wal" || rec.Round != results.PooledRound {
			continue
		}
		p := rec.Params
		w, _ := strconv.Atoi(p.Get("writers"))
		se, _ := strconv.Atoi(p.Get("sync_every"))
		c := LogCase{
			Layout: p.Get("layout"), BlockSize: p.Get("block_size"), IO: p.Get("io"), Method: p.Get("method"),
			Writers: max(w, 1), SyncEvery: max(se, 1),
			CommitsPerSec: rec.OpsPerSec, P50: rec.Stats.Total.P50, P99: rec.Stats.Total.P99,
			RecordsPerSync: rec.Metrics["records_per_sync"], SyncsPerSec: rec.Metrics["syncs_per_sec"],
		}
		if rec.Stats.HasSplit {
			c.SyncMean, c.SyncP99 = rec.Stats.Sync.Mean, rec.Stats.Sync.P99
		}
		out = append(out, c)
	}
	return out
}

// GroupQuestion is what `durabench advise group-commit` asks.
type GroupQuestion struct {
	TargetCommits float64 // commits per second, all writers together
	MaxP99        int64   // ns
}

// GroupAdvice is the answer.
type GroupAdvice struct {
	Question GroupQuestion
	From     string
	// Pick meets both targets with the fewest writers, then the smallest
	// batch, then the most commits/s; nil when none does.
	Pick *LogCase
	// FastestWithin is the most commits/s with p99 within the limit;
	// QuickestReaching is the lowest p99 among those reaching the target.
	// Either may be nil. They are the closest when nothing meets both.
	FastestWithin, QuickestReaching *LogCase
	// Curve is the group-commit curve of the pick (or of the closest), by
	// writer count, and Knee its knee.
	Curve []LogCase
	Knee  measure.Knee
	// SyncTime is one sync's time on that curve's configuration (ns), and
	// SyncFrom says how it was found.
	SyncTime float64
	SyncFrom string

	cases []LogCase
}

// GroupCommit answers q from the `wal` records of recs; from names where
// they came from.
func GroupCommit(recs []results.Record, from string, q GroupQuestion) (GroupAdvice, error) {
	a := GroupAdvice{Question: q, From: from}
	cases := LogCases(recs)
	a.cases = cases
	if len(cases) == 0 {
		return a, errorf("%w: no wal results in %s", ErrNoFigures, from)
	}
	var meet []LogCase
	for i := range cases {
		c := &cases[i]
		within, reaching := c.P99 <= q.MaxP99, c.CommitsPerSec >= q.TargetCommits
		if within && reaching {
			meet = append(meet, *c)
		}
		if within && (a.FastestWithin == nil || c.CommitsPerSec > a.FastestWithin.CommitsPerSec) {
			a.FastestWithin = c
		}
		if reaching && (a.QuickestReaching == nil || c.P99 < a.QuickestReaching.P99) {
			a.QuickestReaching = c
		}
	}
	if len(meet) > 0 {
		slices.SortStableFunc(meet, func(x, y LogCase) int {
			return cmp.Or(cmp.Compare(x.Writers, y.Writers), cmp.Compare(x.SyncEvery, y.SyncEvery), cmp.Compare(y.CommitsPerSec, x.CommitsPerSec))
		})
		a.Pick = &meet[0]
	}
	focus := cmp.Or(a.Pick, a.FastestWithin, a.QuickestReaching, &cases[0])
	a.Curve, a.Knee = curveOf(cases, *focus)
	a.SyncTime, a.SyncFrom = syncTime(cases, *focus)
	return a, nil
}

// curveOf returns the group-commit curve c lies on (the cases that differ
// from it only in the writer count, by writer count) and its knee.
func curveOf(cases []LogCase, c LogCase) ([]LogCase, measure.Knee) {
	var curve []LogCase
	for _, o := range cases {
		if o.curve() == c.curve() && o.SyncEvery == 1 {
			curve = append(curve, o)
		}
	}
	slices.SortStableFunc(curve, func(x, y LogCase) int { return cmp.Compare(x.Writers, y.Writers) })
	if len(curve) == 0 {
		return nil, measure.Knee{}
	}
	xs, ys := make([]int, len(curve)), make([]float64, len(curve))
	for i, o := range curve {
		xs[i], ys[i] = o.Writers, o.CommitsPerSec
	}
	return curve, measure.FindKnee(xs, ys)
}

// syncTime is one sync's time for c's configuration: the mean sync of its
// one-writer case where write and sync were timed apart, else the inverse
// of the syncs per second of its busiest case (the writer then syncs back
// to back).
func syncTime(cases []LogCase, c LogCase) (float64, string) {
	for _, o := range cases {
		if o.curve() == c.curve() && o.Writers == 1 && o.SyncEvery == 1 && o.SyncMean > 0 {
			return o.SyncMean, "the mean sync of 1 writer, timed apart from its write"
		}
	}
	var busiest *LogCase
	for i, o := range cases {
		if o.curve() == c.curve() && o.SyncsPerSec > 0 && (busiest == nil || o.Writers > busiest.Writers) {
			busiest = &cases[i]
		}
	}
	if busiest == nil {
		return 0, ""
	}
	return 1e9 / busiest.SyncsPerSec, fmt.Sprintf("1 ÷ the %s syncs/s of %s, whose syncs run back to back", rate(busiest.SyncsPerSec), writers(busiest.Writers))
}

// Render writes the advice for people.
func (a GroupAdvice) Render(w io.Writer) error {
	q := a.Question
	fmt.Fprintf(w, "Group commit for %s commits/s with p99 at most %s (from %s)\n\n", rate(q.TargetCommits), dur(q.MaxP99), a.From)
	if p := a.Pick; p != nil {
		fmt.Fprintf(w, "Use: %s: %s commits/s, p99 %s, %.1f records per sync.\n", p.Name(), rate(p.CommitsPerSec), dur(p.P99), p.RecordsPerSync)
	} else {
		fmt.Fprintln(w, "No measured configuration meets both.")
		if c := a.FastestWithin; c != nil {
			fmt.Fprintf(w, "Closest within the p99 limit: %s: %s commits/s (p99 %s), %s short of the target.\n", c.Name(), rate(c.CommitsPerSec), dur(c.P99), ratio(q.TargetCommits, c.CommitsPerSec))
		} else {
			fmt.Fprintf(w, "None stays within p99 %s: the quickest measured p99 is %s.\n", dur(q.MaxP99), dur(a.quickest()))
		}
		if c := a.QuickestReaching; c != nil {
			fmt.Fprintf(w, "Closest reaching the target: %s: %s commits/s, but p99 %s, %s over the limit.\n", c.Name(), rate(c.CommitsPerSec), dur(c.P99), ratio(float64(c.P99), float64(q.MaxP99)))
		} else {
			fmt.Fprintf(w, "None reaches %s commits/s: the most measured is %s.\n", rate(q.TargetCommits), rate(a.fastest()))
		}
	}
	fmt.Fprintln(w)
	a.arithmetic(w)
	if len(a.Curve) > 1 {
		fmt.Fprintln(w)
		t := results.NewTable("writers", "commits/s", "p50", "p99", "records/sync", "meets both")
		t.Title = "Group-commit curve: " + a.Curve[0].curve()
		for _, c := range a.Curve {
			meets := "no"
			switch {
			case c.P99 <= q.MaxP99 && c.CommitsPerSec >= q.TargetCommits:
				meets = "yes"
			case c.P99 > q.MaxP99 && c.CommitsPerSec < q.TargetCommits:
				meets = "no: too slow, p99 too high"
			case c.P99 > q.MaxP99:
				meets = "no: p99 too high"
			default:
				meets = "no: too slow"
			}
			t.AddRow(strconv.Itoa(c.Writers), rate(c.CommitsPerSec), dur(c.P50), dur(c.P99), strconv.FormatFloat(c.RecordsPerSync, 'f', 2, 64), meets)
		}
		if err := t.Render(w); err != nil {
			return err
		}
		fmt.Fprintln(w, kneeSentence(a.Curve, a.Knee))
	}
	return nil
}

// arithmetic shows why: records per sync ≈ arrival rate × sync time.
func (a GroupAdvice) arithmetic(w io.Writer) {
	q := a.Question
	if a.SyncTime <= 0 {
		fmt.Fprintln(w, "The arithmetic needs one sync's time, which these results do not give (no one-writer case and no syncs/s).")
		return
	}
	per := q.TargetCommits * a.SyncTime / 1e9
	need := int(math.Ceil(per - 0.05)) // 27.0 needs 27, not 28
	fmt.Fprintf(w, "The arithmetic: one sync takes about %s here (%s).\n", dur(int64(a.SyncTime)), a.SyncFrom)
	perText := strconv.FormatFloat(per, 'f', 1, 64)
	if per >= 100 {
		perText = groupInt(int64(math.Round(per)))
	}
	fmt.Fprintf(w, "Records per sync ≈ arrival rate × sync time = %s/s × %s ≈ %s, so each sync must carry about %s:\n",
		rate(q.TargetCommits), dur(int64(a.SyncTime)), perText, plural(max(need, 1), "record"))
	fmt.Fprintf(w, "at least %s waiting at once (each has one record in flight), or one writer syncing every %s records.\n", writers(max(need, 1)), groupInt(int64(max(need, 1))))
	fmt.Fprintf(w, "A record waits for the sync in flight and then its own, so its latency is at least about 2 × sync time = %s", dur(int64(2*a.SyncTime)))
	if 2*a.SyncTime > float64(q.MaxP99) {
		fmt.Fprintf(w, ", already more than the %s asked.\n", dur(q.MaxP99))
	} else {
		fmt.Fprintln(w, ".")
	}
	fmt.Fprintln(w, "These are lower bounds; the curve below shows what it took here.")
}

// kneeSentence names a curve's knee, or says there is none in range.
func kneeSentence(curve []LogCase, k measure.Knee) string {
	if !k.Inside {
		var tried []string
		for _, c := range curve {
			tried = append(tried, strconv.Itoa(c.Writers))
		}
		more := strings.Join(append(tried, strconv.Itoa(2*k.Last), strconv.Itoa(4*k.Last)), ",")
		return fmt.Sprintf("No knee within %d–%d writers: commits/s still rose %.0f %% from %d to %d writers; try more writers (durabench wal --writers %s).",
			k.First, k.Last, 100*k.LastGain, curve[len(curve)-2].Writers, k.Last, more)
	}
	return fmt.Sprintf("Knee: %s reach %.0f %% of the peak (%s commits/s with %s); more writers add latency, not throughput.",
		writers(k.At), 100*k.Share, rate(k.Peak), writers(k.PeakAt))
}

func (a GroupAdvice) quickest() int64 {
	var q int64 = math.MaxInt64
	for _, c := range a.cases {
		q = min(q, c.P99)
	}
	return q
}

func (a GroupAdvice) fastest() float64 {
	var f float64
	for _, c := range a.cases {
		f = max(f, c.CommitsPerSec)
	}
	return f
}
