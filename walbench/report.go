package walbench

import (
	"fmt"
	"io"
	"strconv"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
)

// Report writes the human report of a run: per case the figures of the
// Linux Rust fsync/WAL micro-benchmark (mean write, mean sync, mean commit, pooled percentiles), then
// throughput, group size and read-back, then for several writer counts the
// group-commit curve and its knee, the counting passes if any, and what
// each method promises.
func Report(w io.Writer, cfg Config, res []Result, counts []Count) error {
	fmt.Fprintf(w, "WAL writer: each record one block on disk (a %d-byte header, the rest payload); %s.\n", wal.HeaderSize, batchNote(cfg))
	fmt.Fprintf(w, "%d rounds × %d records after %d warm-up, a new log per case and round; percentiles pooled over all rounds (nearest rank).\n\n",
		cfg.Rounds, cfg.Iterations, cfg.Warmup)

	lat := results.NewTable("layout", "size", "io", "method", "writers", "mean write", "mean sync", "mean commit", "p50", "p99", "p99.9")
	lat.Title = "Commit latency (a commit is write + sync; write and sync are timed apart only with one writer)"
	thr := results.NewTable("layout", "size", "io", "method", "writers", "commits/s", "MiB/s", "syncs/s", "records/sync", "write amp", "rotations", "read back", "EOF before → after")
	thr.Title = "Throughput over the measured wall time, group size, and the read-back of every record"
	for _, r := range res {
		key := []string{r.Layout.String(), units.FormatSize(r.BlockSize), r.IOMode.String(), r.Method.String(), strconv.Itoa(r.Writers)}
		write, sync := "-", "-"
		if r.Split() {
			write, sync = results.FormatDuration(int64(r.Write.Mean)), results.FormatDuration(int64(r.Sync.Mean))
		}
		lat.AddRow(append(key, write, sync, results.FormatDuration(int64(r.Total.Mean)),
			results.FormatDuration(r.Total.P50), results.FormatDuration(r.Total.P99), results.FormatDuration(r.Total.P999))...)
		thr.AddRow(append(key, results.FormatRate(r.CommitsPerSec()), strconv.FormatFloat(r.MiBPerSec(), 'f', 1, 64),
			results.FormatRate(r.SyncsPerSec()), strconv.FormatFloat(r.Metrics.RecordsPerSync(), 'f', 2, 64),
			strconv.FormatFloat(r.Metrics.WriteAmplification(), 'f', 3, 64), strconv.Itoa(r.Metrics.Rotations),
			fmt.Sprintf("verified %d records", r.Verified), fmt.Sprintf("%d → %d", r.EOFBefore, r.EOFAfter))...)
	}
	for _, t := range []*results.Table{lat, thr} {
		if err := t.Render(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if len(cfg.Writers) > 1 {
		if err := curves(w, res); err != nil {
			return err
		}
	}
	if len(counts) > 0 {
		if err := CountReport(w, cfg, counts); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	methods(w, cfg.Methods)
	for _, warn := range CountWarnings(counts) {
		fmt.Fprintf(w, "Warning: %s\n", warn)
	}
	return nil
}

func batchNote(cfg Config) string {
	if cfg.SyncEvery > 1 {
		return fmt.Sprintf("one writer syncs once per %d records, and a sample is the whole batch", cfg.SyncEvery)
	}
	if len(cfg.Writers) == 1 && cfg.Writers[0] == 1 {
		return "one writer, one sync per record"
	}
	return "each writer's Append returns once its record is durable; concurrent writers share syncs"
}

// curves prints, per layout, size, I/O mode and method, commits/s and
// commit latency against the writer count, and the knee in a sentence.
func curves(w io.Writer, res []Result) error {
	for _, group := range groupCurves(res) {
		first := group[0]
		t := results.NewTable("writers", "commits/s", "p50 commit", "p99 commit", "records/sync", "of peak")
		t.Title = fmt.Sprintf("Group-commit curve: %s %s %s %s", first.Layout, units.FormatSize(first.BlockSize), first.IOMode, first.Method)
		k := kneeOf(group)
		for _, r := range group {
			t.AddRow(strconv.Itoa(r.Writers), results.FormatRate(r.CommitsPerSec()),
				results.FormatDuration(r.Total.P50), results.FormatDuration(r.Total.P99),
				strconv.FormatFloat(r.Metrics.RecordsPerSync(), 'f', 2, 64),
				strconv.FormatFloat(100*r.CommitsPerSec()/k.Peak, 'f', 0, 64)+" %")
		}
		if err := t.Render(w); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n\n", k)
	}
	return nil
}

// groupCurves splits results into curves: the same case but for the writer
// count, in the order results come (writers ascending within a case).
func groupCurves(res []Result) [][]Result {
	var groups [][]Result
	for _, r := range res {
		n := len(groups)
		if n > 0 {
			c := groups[n-1][0].Case
			c.Writers = r.Writers
			if c == r.Case {
				groups[n-1] = append(groups[n-1], r)
				continue
			}
		}
		groups = append(groups, []Result{r})
	}
	return groups
}

// knee is where a group-commit curve stops paying (measure.FindKnee),
// with the p99 at that writer count.
type knee struct {
	measure.Knee
	p99      int64
	prevLast int // the second-largest writer count tried
}

// kneeOf finds the knee of one curve.
func kneeOf(curve []Result) knee {
	xs, ys := make([]int, len(curve)), make([]float64, len(curve))
	for i, r := range curve {
		xs[i], ys[i] = r.Writers, r.CommitsPerSec()
	}
	k := knee{Knee: measure.FindKnee(xs, ys), p99: curve[0].Total.P99}
	k.p99 = curve[k.Index].Total.P99
	if n := len(xs); n >= 2 {
		k.prevLast = xs[n-2]
	}
	return k
}

// String puts the knee in a sentence, or says that the curve was still
// rising at the largest writer count tried.
func (k knee) String() string {
	if !k.Inside {
		return fmt.Sprintf("No knee within %d–%d writers: commits/s still rose %.0f %% from %d to %d writers (peak %s with %s); try more writers, e.g. --writers %d,%d.",
			k.First, k.Last, 100*k.LastGain, k.prevLast, k.Last, results.FormatRate(k.Peak), writersWord(k.PeakAt), 2*k.Last, 4*k.Last)
	}
	verb := "reach"
	if k.At == 1 {
		verb = "reaches"
	}
	return fmt.Sprintf("%s %s %.0f %% of peak at p99 %s (peak %s with %s).",
		writersWord(k.At), verb, 100*k.Share,
		results.FormatDuration(k.p99), results.FormatRate(k.Peak), writersWord(k.PeakAt))
}

func writersWord(n int) string {
	if n == 1 {
		return "1 writer"
	}
	return strconv.Itoa(n) + " writers"
}

// methods says what each method calls and promises on this OS.
func methods(w io.Writer, ms []syscalls.Method) {
	fmt.Fprintln(w, "Methods on this OS:")
	for _, m := range ms {
		fmt.Fprintf(w, "  %-10s %-40s promise: %s\n", m, m.Syscall(), m.Promise())
	}
}
