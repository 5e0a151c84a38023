package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/durabench/durabench/results"
)

// chromium returns Debian's headless browser, or skips the test saying why
// (and fails it under CI, which must install it: see .ci/run).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed; .ci/run must install Debian's chromium package")
	}
	t.Skip("chromium is not installed (apt-get install chromium): cannot check that the report's plots render")
	return ""
}

// headless runs chromium on a local page with no network, profile or
// background services, and returns its standard output.
func headless(t *testing.T, browser string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1300,2000"}
	cmd := exec.CommandContext(ctx, browser, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.Bytes()
}

// expectedPlots counts the plots a report of recs must have, from the
// records themselves: a histogram per sync method of the first case and
// one CDF; two group-commit plots if a wal case ran at several writer
// counts; one matrix per SQLite engine.
func expectedPlots(recs []results.Record) int {
	var methods, engines, writers []string
	var first results.Params
	for _, r := range recs {
		if r.Round != results.PooledRound {
			continue
		}
		switch r.Experiment {
		case "sync":
			if first == nil {
				first = r.Params
			}
			if r.Params.Get("workload") == first.Get("workload") && r.Params.Get("block_size") == first.Get("block_size") {
				methods = append(methods, r.Params.Get("method"))
			}
		case "wal":
			if w := r.Params.Get("writers"); !slices.Contains(writers, w) {
				writers = append(writers, w)
			}
		case "sqlite":
			if e := r.Params.Get("engine"); !slices.Contains(engines, e) {
				engines = append(engines, e)
			}
		}
	}
	n := len(engines)
	if len(methods) > 0 {
		n += len(methods) + 1
	}
	if len(writers) > 1 {
		n += 2
	}
	return n
}

// TestSuiteReportRendersInChromium runs the quick suite with --report from
// a fresh directory, opens report.html in headless Chromium and checks that
// every plot was drawn; it also takes the page's screenshot (copied to
// $DURABENCH_SCREENSHOT if set, which is how docs/report-screenshot.png is
// made).
func TestSuiteReportRendersInChromium(t *testing.T) {
	browser := chromium(t)
	work := t.TempDir()
	out, rep := filepath.Join(work, "out"), filepath.Join(work, "report")
	stdout, stderr, code := durabench(t, "suite", "--dir", work, "--out", out, "--report", rep)
	if code != 0 {
		t.Fatalf("suite: exit %d\n%s", code, stderr)
	}
	if !regexp.MustCompile(`The suite took \d+(\.\d)? s\.`).MatchString(stdout) {
		t.Errorf("the suite's output does not say how long it took:\n%s", stdout)
	}
	want := expectedPlots(readRecords(t, out))
	if want < 5 {
		t.Fatalf("only %d plots expected from the suite's records; want sync, wal and sqlite plots", want)
	}
	page := filepath.Join(rep, "report.html")
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(html), `<figure class="plot"`); got != want {
		t.Errorf("report.html has %d plots, want %d", got, want)
	}

	dom := headless(t, browser, "--dump-dom", "file://"+page)
	m := regexp.MustCompile(`data-plots-expected="(\d+)" data-plots-rendered="(\d+)"`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the page's script did not count the plots; body: %.300s", dom[bytes.Index(dom, []byte("<body")):])
	}
	expected, _ := strconv.Atoi(string(m[1]))
	rendered, _ := strconv.Atoi(string(m[2]))
	if expected != want || rendered != want {
		t.Errorf("Chromium drew %d plots, the page expects %d; the records call for %d", rendered, expected, want)
	}
	t.Logf("Chromium drew %d of %d plots; %s", rendered, want, regexp.MustCompile(`The suite took [0-9.]+ s\.`).FindString(stdout))

	shot := filepath.Join(work, "shot.png")
	headless(t, browser, "--hide-scrollbars", "--screenshot="+shot, "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1300 || b.Dy() != 2000 {
		t.Errorf("screenshot is %v, want 1300×2000", b)
	}
	if dst := os.Getenv("DURABENCH_SCREENSHOT"); dst != "" {
		b, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(dst, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestReportCommand(t *testing.T) {
	work := t.TempDir()
	out := filepath.Join(work, "out")
	if _, stderr, code := durabench(t, "sync", "--dir", work, "--out", out, "--workloads", "overwrite", "--block-sizes", "4K",
		"--methods", "none,fdatasync", "--iterations", "50", "--warmup", "5", "--rounds", "2"); code != 0 {
		t.Fatalf("sync: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := durabench(t, "report", out)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	if want := filepath.Join(out, "report.html") + ": 3 plots"; !strings.Contains(stdout, want) {
		t.Errorf("report printed %q, want %q", stdout, want)
	}
	svgs, _ := filepath.Glob(filepath.Join(out, "plots", "*.svg"))
	if len(svgs) != 3 {
		t.Errorf("%d SVG files, want 3 (two histograms and a CDF)", len(svgs))
	}
	// A second report into the same place is refused, and nothing changes.
	before := listing(t, work)
	_, stderr, code = durabench(t, "report", out)
	if code != 2 || !strings.Contains(stderr, "never overwritten") {
		t.Errorf("second report: exit %d, %q; want exit 2 and a refusal", code, stderr)
	}
	if after := listing(t, work); !slices.Equal(before, after) {
		t.Errorf("the refused report changed files: %v → %v", before, after)
	}
	for _, tc := range []refusal{
		{"no directory", nil, "give one results directory"},
		{"not a results directory", []string{work}, "results directory"},
	} {
		_, stderr, code := durabench(t, append([]string{"report"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, %q; want exit 2 and %q", tc.name, code, stderr, tc.want)
		}
	}
}
