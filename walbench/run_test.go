package walbench

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
)

func smallConfig() Config {
	return Config{
		Layouts:    layouts,
		BlockSizes: []int64{4096},
		IOModes:    []wal.IOMode{wal.Buffered, wal.Direct},
		Methods:    []syscalls.Method{syscalls.Fdatasync},
		Iterations: 40,
		Warmup:     8,
		Rounds:     2,
		FileSize:   1 << 20,
		SyncEvery:  1,
		Writers:    []int{1, 4},
	}
}

func newRun(t *testing.T) *fixtures.Run {
	t.Helper()
	run, err := fixtures.NewRun(t.TempDir(), "wal-test", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	return run
}

// Every case is timed, read back in full, and a fixed layout's EOF does not
// move; the counts add up.
func TestRunCountsAndReadsBack(t *testing.T) {
	cfg := smallConfig()
	var lines []string
	res, err := Run(newRun(t), cfg, func(l string) { lines = append(lines, l) })
	if err != nil {
		t.Fatal(err)
	}
	if want := 3 * 2 * 2; len(res) != want {
		t.Fatalf("%d results, want %d", len(res), want)
	}
	if len(lines) != len(res)*cfg.Rounds {
		t.Errorf("%d progress lines for %d case-rounds", len(lines), len(res)*cfg.Rounds)
	}
	for _, l := range lines {
		if !strings.Contains(l, "verified 48 records") {
			t.Errorf("progress line %q does not say all 48 records were verified", l)
		}
	}
	for _, r := range res {
		name := r.Name()
		if r.Total.N != cfg.Rounds*cfg.Iterations || r.Records != cfg.Rounds*cfg.Iterations || len(r.Rounds) != cfg.Rounds {
			t.Errorf("%s: %d samples, %d records, %d rounds", name, r.Total.N, r.Records, len(r.Rounds))
		}
		if r.Verified != uint64(cfg.Rounds*(cfg.Warmup+cfg.Iterations)) {
			t.Errorf("%s: verified %d records", name, r.Verified)
		}
		if r.Metrics.SyncedRecords != uint64(r.Records) || r.Metrics.Records != uint64(r.Records) {
			t.Errorf("%s: writer synced %d and framed %d of %d measured records", name, r.Metrics.SyncedRecords, r.Metrics.Records, r.Records)
		}
		if r.Split() != (r.Write.N > 0) || (r.Split() && r.Sync.N != r.Total.N) {
			t.Errorf("%s: write/sync timed apart for %d samples with %d writers", name, r.Write.N, r.Writers)
		}
		if r.Layout.FixedSize() && (r.EOFBefore != cfg.FileSize || r.EOFAfter != cfg.FileSize) {
			t.Errorf("%s: EOF %d before, %d after, want %d both", name, r.EOFBefore, r.EOFAfter, cfg.FileSize)
		}
		if r.Layout == fixtures.Append && (r.EOFBefore != 0 || r.EOFAfter != 48*4096) {
			t.Errorf("%s: EOF %d before, %d after, want 0 and %d", name, r.EOFBefore, r.EOFAfter, 48*4096)
		}
		if r.Writers == 1 && r.Metrics.Syncs != uint64(r.Records) {
			t.Errorf("%s: %d syncs for %d records, one writer", name, r.Metrics.Syncs, r.Records)
		}
	}
	var buf bytes.Buffer
	if err := Report(&buf, cfg, res, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"verified 96 records", "1048576 → 1048576", "0 → 196608", "Group-commit curve: initialized 4K direct fdatasync"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, buf.String())
		}
	}
	// Whether the curve bends within the writer counts tried depends on the
	// disk's timing, so either sentence about the knee is right.
	if !kneeSentence.MatchString(buf.String()) {
		t.Errorf("report has no sentence about the curve's knee:\n%s", buf.String())
	}
	recs := Records(res, nil, "env-1")
	if len(recs) != len(res)*(cfg.Rounds+1) {
		t.Errorf("%d records for %d cases × (%d rounds + pooled)", len(recs), len(res), cfg.Rounds)
	}
}

// --sync-every N: a sample is a batch of N records and one sync.
func TestRunSyncEveryBatches(t *testing.T) {
	cfg := smallConfig()
	cfg.Layouts, cfg.IOModes, cfg.Writers = layouts[2:], []wal.IOMode{wal.Buffered}, []int{1}
	cfg.SyncEvery = 4
	res, err := Run(newRun(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Total.N != cfg.Rounds*cfg.Iterations/4 || r.Metrics.Syncs != uint64(r.Total.N) || r.Metrics.RecordsPerSync() != 4 {
		t.Errorf("%d samples, %d syncs, %.2f records per sync; want %d, %d, 4",
			r.Total.N, r.Metrics.Syncs, r.Metrics.RecordsPerSync(), cfg.Rounds*cfg.Iterations/4, cfg.Rounds*cfg.Iterations/4)
	}
}

// A fixed segment that cannot hold warm-up and measured records, headers and
// the padded last direct block included, is refused before any file exists.
func TestCapacityRefusal(t *testing.T) {
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.FileSize = 188 << 10 }, "fallocate at 4K needs 192K for 8 warm-up + 40 measured records (48 records of 4096 bytes, headers included"},
		{func(c *Config) { c.FileSize = 96 << 10 }, "raise the segment size to 1M"},
		{func(c *Config) { c.BlockSizes = []int64{4000}; c.FileSize = 184 << 10 }, "needs 188K for 8 warm-up + 40 measured records (48 records of 4000 bytes, headers included, the last direct write padded to 4096)"},
		{func(c *Config) { c.BlockSizes = []int64{1001} }, "use a multiple of 8"},
		{func(c *Config) { c.FileSize = 1<<20 + 100 }, "not a multiple of 4096"},
		{func(c *Config) { c.SyncEvery, c.Writers = 3, []int{1} }, "multiples of 3 records per sync"},
		{func(c *Config) { c.SyncEvery = 2 }, "use one or the other"},
		{func(c *Config) { c.Methods = []syscalls.Method{syscalls.Dsync} }, "makes its own sync call"},
		{func(c *Config) { c.Writers = []int{64} }, "more than 40 measured records"},
	} {
		cfg := smallConfig()
		cfg.Warmup = 8
		tc.change(&cfg)
		dir := t.TempDir()
		run, err := fixtures.NewRun(dir, "wal-test", false)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Run(run, cfg, nil)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run = %v, want ErrConfig saying %q", err, tc.want)
		}
		if n := entries(t, run.Dir); n != 0 {
			t.Errorf("refused configuration left %d files", n)
		}
		run.Close()
	}
	// Exactly enough is accepted: 48 records of 4K fill 192K, and 48 of
	// 4000 bytes fill 188K once the last direct block is padded.
	for _, bs := range []int64{4096, 4000} {
		cfg := smallConfig()
		cfg.BlockSizes, cfg.FileSize = []int64{bs}, roundUp64(48*bs, 4096)
		if err := cfg.Validate(); err != nil {
			t.Errorf("a segment that holds every record of %d bytes exactly was refused: %v", bs, err)
		}
	}
}

// The timed loops allocate nothing once warmed up.
func TestLoopsAllocateNothing(t *testing.T) {
	w := openTestWriter(t, 64<<20, fixtures.Initialized, wal.Buffered)
	defer w.Close()
	p := runner.Payload(4096 - wal.HeaderSize)
	s := measure.NewSamples(1000)
	if _, err := writeBatches(w, p, 0, 1, 1, s); err != nil {
		t.Fatal(err)
	}
	next := 1
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := writeBatches(w, p, next, 1, 2, s); err != nil {
			t.Fatal(err)
		}
		if err := appendShare(w, p, 0, next+2, 2, s); err != nil {
			t.Fatal(err)
		}
		next += 4
	})
	if allocs != 0 {
		t.Errorf("the timed loops allocate %v times per call", allocs)
	}
}

// The knee is the fewest writers within 90 % of the best commits/s.
func TestKnee(t *testing.T) {
	curve := []Result{}
	for _, p := range []struct {
		writers int
		commits int
		p99     int64
	}{{1, 1000, 200_000}, {4, 3000, 400_000}, {16, 9200, 900_000}, {64, 10000, 4_000_000}} {
		curve = append(curve, Result{Case: Case{Writers: p.writers}, Total: measure.Stats{N: p.commits, P99: p.p99}, Wall: 1e9})
	}
	k := kneeOf(curve)
	if got, want := k.String(), "16 writers reach 92 % of peak at p99 900 µs (peak 10,000 /s with 64 writers)."; got != want {
		t.Errorf("knee %q, want %q", got, want)
	}
}

func TestDiskNeeded(t *testing.T) {
	cfg := smallConfig() // 3 layouts × 2 I/O modes × 2 writer counts, 2 rounds, 1M segments
	if got := cfg.DiskNeeded(false); got != 1<<20 {
		t.Errorf("one log at a time: %d bytes, want the 1M segment", got)
	}
	// Kept: 8 fixed-size logs of 1M and 4 append logs of 48 × 4K, twice.
	if got, want := cfg.DiskNeeded(true), int64(2*(8<<20+4*48*4096)); got != want {
		t.Errorf("kept: %d bytes, want %d", got, want)
	}
	cfg.FileSize = 0 // the size sweep: each segment holds its records exactly
	if got := cfg.DiskNeeded(false); got != 48*4096 {
		t.Errorf("size sweep: %d bytes, want %d", got, 48*4096)
	}
}

// A curve still rising at its largest writer count has no knee there: the
// sentence says so and asks for more writers instead of calling the last
// count tried the knee.
func TestKneeOutsideRange(t *testing.T) {
	curve := []Result{}
	for _, p := range []struct {
		writers, commits int
	}{{1, 1000}, {8, 5000}, {64, 9000}} {
		curve = append(curve, Result{Case: Case{Writers: p.writers}, Total: measure.Stats{N: p.commits, P99: 1_000_000}, Wall: 1e9})
	}
	k := kneeOf(curve)
	if got, want := k.String(), "No knee within 1–64 writers: commits/s still rose 80 % from 8 to 64 writers (peak 9,000 /s with 64 writers); try more writers, e.g. --writers 128,256."; got != want {
		t.Errorf("knee %q, want %q", got, want)
	}
}

// kneeSentence matches either sentence the report gives about the
// group-commit curve's knee: found, or not within the writers tried.
var kneeSentence = regexp.MustCompile(`\d+ writers? reach(es)? \d+ % of peak at p99 |No knee within \d+–\d+ writers: `)
