package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
)

// samples returns n samples spread from lo to hi ns.
func samples(n int, lo, hi int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = lo + (hi-lo)*int64(i)/int64(n)
	}
	return out
}

// ps makes params from key, value pairs.
func ps(kv ...string) results.Params {
	var out results.Params
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, results.Param{Key: kv[i], Value: kv[i+1]})
	}
	return out
}

func rec(exp string, params results.Params, ops float64, ns []int64) results.Record {
	return results.Record{Experiment: exp, Params: params, Round: results.PooledRound, N: len(ns),
		Stats: results.NewStats(ns, nil, nil), OpsPerSec: ops, Metrics: map[string]float64{},
		Histogram: results.Histogram(measure.Distribute(ns).Bins)}
}

func syncRec(method string, ns []int64) results.Record {
	return rec("sync", ps("workload", "overwrite", "block_size", "4K", "method", method, "sync_every", "1", "order", "sequential", "threads", "1"), 1000, ns)
}

func walRec(method, writers string, ops float64) results.Record {
	return rec("wal", ps("layout", "initialized", "block_size", "4K", "io", "buffered", "method", method, "writers", writers, "sync_every", "1"), ops, samples(100, 100_000, 2_000_000))
}

func sqliteRec(journal, sync string, ops float64) results.Record {
	return rec("sqlite", ps("engine", "modernc", "sqlite_version", "3.50.0", "journal_mode", journal, "synchronous", sync, "fullfsync", "0", "checkpoint_fullfsync", "0"), ops, samples(100, 50_000, 900_000))
}

// fixture is a run with every experiment: 2 sync methods (2 histograms and
// a CDF), a group-commit curve (2 plots), one SQLite engine (1) and a
// neighbor backlog (1): 7 plots.
func fixture() Input {
	recs := []results.Record{
		syncRec("none", samples(500, 1_000, 5_000)),
		syncRec("fdatasync", samples(500, 900_000, 3_100_000)),
		walRec("fdatasync", "1", 1000), walRec("fdatasync", "4", 3000), walRec("fdatasync", "16", 3300), walRec("fdatasync", "64", 3350),
		sqliteRec("wal", "normal", 40000), sqliteRec("delete", "full", 900),
	}
	recs[len(recs)-1].Metrics["syncs_per_op.db"] = 1
	recs[len(recs)-1].Metrics["syncs_per_op.journal"] = 2
	for _, b := range []string{"0", "256M"} {
		r := rec("neighbor", ps("mode", "backlog", "variant", "clean", "backlog", b, "method", "fsync"), 0, samples(9, 200_000, 400_000))
		r.Histogram = nil
		recs = append(recs, r)
	}
	env := envinfo.Env{ID: "abc123def456", Time: time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC), OS: "linux",
		CommandLine: []string{"durabench", "suite"}, Warnings: []string{"this is a virtual machine"}}
	return Input{Env: env, Records: recs}
}

func TestBuildDrawsEveryPlot(t *testing.T) {
	r, err := Build(fixture())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range r.Sections {
		for _, p := range s.Plots {
			names = append(names, p.Name)
			if !bytes.HasPrefix(p.SVG, []byte("<svg")) || !bytes.Contains(p.SVG, []byte("<path")) {
				t.Errorf("plot %s is not an SVG with drawn paths: %.80s", p.Name, p.SVG)
			}
		}
	}
	want := []string{"sync-hist-none", "sync-hist-fdatasync", "sync-cdf", "wal-curve-commits", "wal-curve-p99", "sqlite-modernc", "neighbor-backlog"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("plots %v, want %v", names, want)
	}
	if r.Plots() != len(want) {
		t.Errorf("Plots() = %d, want %d", r.Plots(), len(want))
	}
}

func TestHTMLStandsAlone(t *testing.T) {
	r, err := Build(fixture())
	if err != nil {
		t.Fatal(err)
	}
	html, err := r.HTML()
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	if got := strings.Count(page, `<figure class="plot"`); got != 7 {
		t.Errorf("%d figures, want 7", got)
	}
	if !strings.Contains(page, `data-plots-expected="7"`) {
		t.Error("the page does not say how many plots it expects")
	}
	for _, ref := range []string{"<link", " src=", "url(", "@import"} {
		if strings.Contains(page, ref) {
			t.Errorf("the page loads something from outside: %q", ref)
		}
	}
	// The warnings come before the first section.
	if w, s := strings.Index(page, "this is a virtual machine"), strings.Index(page, "Sync methods"); w < 0 || w > s {
		t.Errorf("warning at %d, first section at %d: want the warning first", w, s)
	}
	// The SQLite risks and counted syncs sit beside the plot.
	for _, want := range []string{"last commits may roll back; no corruption", "3.00", "not counted"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func TestKneeMarkedOnlyInsideTheRange(t *testing.T) {
	caption := func(ops ...float64) string {
		in := fixture()
		var recs []results.Record
		for i, o := range ops {
			recs = append(recs, walRec("fdatasync", strconv.Itoa(1<<(2*i)), o))
		}
		in.Records = recs
		r, err := Build(in)
		if err != nil {
			t.Fatal(err)
		}
		return r.Sections[0].Plots[0].Caption
	}
	if got := caption(1000, 3000, 3300, 3350); !strings.Contains(got, "knee at 16 writers, 3,300 /s commits (best 3,350 /s)") {
		t.Errorf("flattening curve: caption %q, want the knee at 16 writers", got)
	}
	if got := caption(1000, 2000, 4000, 8000); !strings.Contains(got, "no knee inside the range tried (1 to 64 writers)") || !strings.Contains(got, "try more writers") {
		t.Errorf("rising curve: caption %q, want no knee and to try more writers", got)
	}
}

func TestHistogramGrid(t *testing.T) {
	for _, tc := range []struct {
		top                    int64
		rangeMs, binUs, gridMs float64
	}{
		{5_000, 1, 20, 1},
		{3_600_000, 4, 50, 1},
		{12_500_000, 14, 200, 2},
		{95_000_000, 100, 2000, 10},
	} {
		r, b, g := histogramGrid(tc.top)
		if r != tc.rangeMs || b != tc.binUs || g != tc.gridMs {
			t.Errorf("histogramGrid(%d) = %g ms, %g µs, %g ms; want %g, %g, %g", tc.top, r, b, g, tc.rangeMs, tc.binUs, tc.gridMs)
		}
	}
}

func TestRebinKeepsEverySample(t *testing.T) {
	ns := append(samples(1000, 0, 2_000_000), 7_000_000, 9_000_000)
	d := measure.Distribute(ns)
	counts, beyond := rebin(d.Bins, 3, 50)
	total := 0.0
	for _, c := range counts {
		total += c
	}
	if len(counts) != 60 || beyond != 2 || int(total) != 1000 {
		t.Errorf("rebin: %d bins, %g in range, %d beyond; want 60 bins, 1000, 2", len(counts), total, beyond)
	}
	// Samples from 0 to 2 ms spread evenly: 25 per 50 µs bin, none past 2 ms.
	if counts[0] != 25 || counts[39] != 25 || counts[40] != 0 {
		t.Errorf("bins 0, 39, 40 = %g, %g, %g; want 25, 25, 0", counts[0], counts[39], counts[40])
	}
}

func TestWriteNeverOverwrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	in := fixture()
	in.Partial = true
	if _, err := Write(dir, in); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Interrupted run", "**Warning:** this is a virtual machine", "](plots/sync-cdf.svg)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	svgs, _ := filepath.Glob(filepath.Join(dir, PlotDir, "*.svg"))
	if len(svgs) != 7 {
		t.Errorf("%d SVG files, want 7", len(svgs))
	}
	if _, err := Write(dir, in); err == nil || !strings.Contains(err.Error(), "never overwritten") {
		t.Errorf("second Write = %v, want a refusal", err)
	}
}

func TestLoadReadsAnOutDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	out, err := results.CreateOut(dir)
	if err != nil {
		t.Fatal(err)
	}
	in := fixture()
	if err := out.WriteEnv(in.Env); err != nil {
		t.Fatal(err)
	}
	if err := out.Write(in.Records); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Env.ID != in.Env.ID || len(got.Records) != len(in.Records) || got.Partial {
		t.Errorf("Load: env %s, %d records, partial %v; want %s, %d, false", got.Env.ID, len(got.Records), got.Partial, in.Env.ID, len(in.Records))
	}
	if len(got.Records[1].Histogram) == 0 {
		t.Error("the histogram did not survive results.jsonl")
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "results directory") {
		t.Errorf("Load of an empty directory = %v, want an error saying what to give", err)
	}
}

func TestOtherExperimentsAreTabulated(t *testing.T) {
	in := fixture()
	in.Records = []results.Record{{Experiment: "crash-wal", Params: ps("model", "linux-ext4"), Round: results.PooledRound, N: 100, Notes: []string{"100 states, all recovered"}}}
	r, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	if r.Plots() != 0 || len(r.Sections) != 1 || len(r.Sections[0].Tables[0].Rows) != 1 {
		t.Fatalf("sections %+v, want one table of the crash record and no plot", r.Sections)
	}
	if row := strings.Join(r.Sections[0].Tables[0].Rows[0], " | "); !strings.Contains(row, "crash-wal | model=linux-ext4 | pooled | 100") {
		t.Errorf("row %q", row)
	}
	if _, err := Build(Input{Env: in.Env}); !errors.Is(err, ErrNoRecords) {
		t.Errorf("Build of no records = %v, want ErrNoRecords", err)
	}
}
