package syncbench

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syscalls"
)

// fastFlush is the latency below which a sync that promises stable storage
// is unlikely to have waited for a real cache flush: faster than most drives
// without power-loss protection can flush.
const fastFlush = 50_000 // ns

// Report writes the human report of a run: the layout of the sync-method
// table in the macOS article "On a Mac, a real fsync takes a whole number of
// milliseconds" (rows workload × size, columns methods) for medians and p99, then each case's
// means, write/sync split and throughput, the methods' promises, and the
// staircase analysis if it was asked for, and the counting passes if any.
func Report(w io.Writer, cfg Config, res []Result, counts []Count) error {
	batch := "one sync per write"
	if cfg.SyncEvery > 1 {
		batch = fmt.Sprintf("one sync per %d writes (a sample is the batch)", cfg.SyncEvery)
	}
	order := ""
	if cfg.Order == Interleaved {
		order = ", methods interleaved round-robin on one file (each method's ops/s counts only its own samples' time)"
	}
	fmt.Fprintf(w, "write + sync, %s%s; %d rounds × %s after %d warm-up; percentiles pooled over all rounds (nearest rank)\n\n",
		batch, order, cfg.Rounds, writesPhrase(cfg), cfg.Warmup)
	if len(cfg.Threads) > 1 {
		if err := threadTable(w, res); err != nil {
			return err
		}
	} else if err := matrices(w, cfg, res, cfg.Threads[0]); err != nil {
		return err
	}
	if err := detail(w, res); err != nil {
		return err
	}
	fmt.Fprintln(w)
	methods(w, cfg.Methods)
	if cfg.Staircase {
		fmt.Fprintln(w)
		if err := staircase(w, res); err != nil {
			return err
		}
	}
	if cfg.Histogram {
		histograms(w, res)
	}
	if len(counts) > 0 {
		fmt.Fprintln(w)
		if err := CountReport(w, cfg, counts); err != nil {
			return err
		}
	}
	for _, warn := range append(Warnings(res), CountWarnings(counts)...) {
		fmt.Fprintf(w, "Warning: %s\n", warn)
	}
	return nil
}

// writesPhrase says how many writes a round measures: "2000 writes", or
// "2000 writes (256 for 1M)" where --max-case-bytes caps a size.
func writesPhrase(cfg Config) string {
	s := fmt.Sprintf("%d writes", cfg.Iterations)
	var capped []string
	for _, bs := range cfg.BlockSizes {
		if n := cfg.IterationsFor(bs); n != cfg.Iterations {
			capped = append(capped, fmt.Sprintf("%d for %s", n, units.FormatSize(bs)))
		}
	}
	if len(capped) > 0 {
		s += " (" + strings.Join(capped, ", ") + ", capped by --max-case-bytes)"
	}
	return s
}

// matrices prints the workload × size by method tables (the macOS
// article's layout), medians and p99, for one thread count.
func matrices(w io.Writer, cfg Config, res []Result, threads int) error {
	suffix := ""
	if threads > 1 {
		suffix = fmt.Sprintf(", %d threads each syncing its own file", threads)
	}
	for _, q := range []struct {
		title string
		pick  func(Result) int64
	}{
		{"Median (p50) write + sync", func(r Result) int64 { return r.Total.P50 }},
		{"p99 write + sync", func(r Result) int64 { return r.Total.P99 }},
	} {
		t := matrix(cfg, res, threads, func(r Result) string { return results.FormatDuration(q.pick(r)) })
		t.Title = q.title + suffix
		if err := t.Render(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// threadTable compares thread counts, each thread syncing its own file: the
// total rate, each sync's median and p99, and the rate against one thread.
func threadTable(w io.Writer, res []Result) error {
	t := results.NewTable("workload", "size", "method", "threads", "total syncs/s", "× 1 thread", "p50 per sync", "p99 per sync")
	t.Title = "Threads, each syncing its own file"
	for _, r := range res {
		scale := ""
		for _, one := range res {
			if one.Threads == 1 && one.Workload == r.Workload && one.BlockSize == r.BlockSize && one.Method == r.Method && one.OpsPerSec() > 0 {
				scale = strconv.FormatFloat(r.OpsPerSec()/one.OpsPerSec(), 'f', 2, 64)
			}
		}
		t.AddRow(r.Workload.String(), units.FormatSize(r.BlockSize), r.Method.String(), strconv.Itoa(r.Threads),
			results.FormatRate(r.OpsPerSec()), scale, results.FormatDuration(r.Total.P50), results.FormatDuration(r.Total.P99))
	}
	if err := t.Render(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return nil
}

// matrix lays out one figure per case: rows workload × size, columns methods.
func matrix(cfg Config, res []Result, threads int, cell func(Result) string) *results.Table {
	headers := []string{"workload", "size"}
	for _, m := range cfg.Methods {
		headers = append(headers, m.String())
	}
	t := results.NewTable(headers...)
	for _, wl := range cfg.Workloads {
		for _, bs := range cfg.BlockSizes {
			row := []string{wl.String(), units.FormatSize(bs)}
			for _, m := range cfg.Methods {
				row = append(row, cellOf(res, Case{Workload: wl, BlockSize: bs, Method: m, Threads: threads}, cell))
			}
			t.AddRow(row...)
		}
	}
	return t
}

func cellOf(res []Result, c Case, cell func(Result) string) string {
	for _, r := range res {
		if r.Workload == c.Workload && r.BlockSize == c.BlockSize && r.Method == c.Method && r.Threads == c.Threads {
			return cell(r)
		}
	}
	return ""
}

// detail is the layout of the Linux Rust fsync/WAL micro-benchmark: per case, the means of the write,
// the sync and the whole commit, the tail, and throughput.
func detail(w io.Writer, res []Result) error {
	t := results.NewTable("workload", "size", "method", "threads", "mean write", "mean sync", "mean write+sync", "p99.9", "max", "ops/s", "MiB/s", "verified")
	t.Title = "Per case (means; throughput over the measured wall time, loop overhead included)"
	for _, r := range res {
		t.AddRow(r.Workload.String(), units.FormatSize(r.BlockSize), r.Method.String(), strconv.Itoa(r.Threads),
			results.FormatDuration(int64(r.Write.Mean)), syncMean(r),
			results.FormatDuration(int64(r.Total.Mean)), results.FormatDuration(r.Total.P999),
			results.FormatDuration(r.Total.Max), results.FormatRate(r.OpsPerSec()),
			strconv.FormatFloat(r.MiBPerSec(), 'f', 1, 64), strconv.Itoa(r.Verified)+" writes")
	}
	return t.Render(w)
}

// syncMean is the mean of the sync call, or "-" for a method that makes
// none (its cost is inside the write).
func syncMean(r Result) string {
	if !r.Method.SyncsExplicitly() {
		return "-"
	}
	return results.FormatDuration(int64(r.Sync.Mean))
}

// methods says what each method calls and promises on this OS.
func methods(w io.Writer, ms []syscalls.Method) {
	fmt.Fprintln(w, "Methods on this OS:")
	for _, m := range ms {
		fmt.Fprintf(w, "  %-16s %-52s promise: %s\n", m, m.Syscall(), m.Promise())
	}
}

// staircase reports, per case, the share of samples within 100 µs of a
// whole millisecond against what chance gives.
func staircase(w io.Writer, res []Result) error {
	t := results.NewTable("workload", "size", "method", "threads", "samples", "≥ 0.5 ms", "p50", "within ±100 µs of a whole ms", "by chance", "reading")
	t.Title = "Staircase: do syncs complete on a 1 ms tick? (only samples of 0.5 ms and more can sit on a step)"
	for _, r := range res {
		s := r.Staircase
		share, chance := percent(s.Share), percent(s.Chance)
		if s.Considered == 0 {
			share, chance = "-", "-"
		}
		t.AddRow(r.Workload.String(), units.FormatSize(r.BlockSize), r.Method.String(), strconv.Itoa(r.Threads),
			strconv.Itoa(s.N), strconv.Itoa(s.Considered), results.FormatDuration(r.Total.P50), share, chance, staircaseReading(s))
	}
	return t.Render(w)
}

// histograms prints each case's latency histogram over all its samples.
func histograms(w io.Writer, res []Result) {
	for _, r := range res {
		fmt.Fprintf(w, "\nHistogram of write + sync: %s %s %s, threads %d, %d samples\n%s",
			r.Workload, units.FormatSize(r.BlockSize), r.Method, r.Threads, r.Histogram.N, r.Histogram)
	}
}

func percent(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + " %" }

// staircaseReading puts the share into words: a tick shows as a share far
// above chance; samples mostly under half a millisecond cannot show one.
func staircaseReading(s measure.Staircase) string {
	share, chance := s.Share, s.Chance
	switch {
	case s.Considered < s.N/10:
		return "too fast to tell (under 0.5 ms)"
	case share >= 0.5 && share >= 2*chance:
		return "1 ms tick"
	case share > chance+0.1:
		return "some clustering"
	}
	return "no tick (chance)"
}

// Warnings says where a figure cannot mean what its method promises: a sync
// that promises stable storage but completes faster than a flush can.
func Warnings(res []Result) []string {
	var out []string
	seen := map[syscalls.Method]bool{}
	for _, r := range res {
		if r.Method.Promise() != syscalls.PromiseStable || r.Total.P50 >= fastFlush || seen[r.Method] {
			continue
		}
		seen[r.Method] = true
		out = append(out, fmt.Sprintf("%s promises stable storage but its median (%s, %s %s) is below %s, faster than most drives flush their cache: either the drive has power-loss protection, or a layer below (a VM host, a write-through setting) does not flush",
			r.Method, results.FormatDuration(r.Total.P50), r.Workload, units.FormatSize(r.BlockSize), results.FormatDuration(fastFlush)))
	}
	return out
}
