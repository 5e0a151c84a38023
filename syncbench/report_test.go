package syncbench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
)

func TestWarningsFlagDurableSyncsFasterThanAFlush(t *testing.T) {
	res := []Result{
		{Case: Case{Workload: Overwrite, BlockSize: 4096, Method: syscalls.Fdatasync}, Total: measure.Stats{P50: 20_000}},
		{Case: Case{Workload: Append, BlockSize: 4096, Method: syscalls.Fdatasync}, Total: measure.Stats{P50: 30_000}},
		{Case: Case{Workload: Overwrite, BlockSize: 4096, Method: syscalls.Fsync}, Total: measure.Stats{P50: 120_000}},
		{Case: Case{Workload: Overwrite, BlockSize: 4096, Method: syscalls.None}, Total: measure.Stats{P50: 2_000}},
		{Case: Case{Workload: Overwrite, BlockSize: 4096, Method: syscalls.SyncFileRange}, Total: measure.Stats{P50: 30_000}},
	}
	got := Warnings(res)
	if len(got) != 1 {
		t.Fatalf("want one warning (fdatasync, once), got %q", got)
	}
	if !strings.HasPrefix(got[0], "fdatasync promises stable storage but its median (20.0 µs, overwrite 4K) is below 50.0 µs") {
		t.Errorf("warning = %q", got[0])
	}
}

func TestStaircaseReading(t *testing.T) {
	tests := []struct {
		sc   measure.Staircase
		want string
	}{
		{measure.Staircase{N: 100, Considered: 5, Share: 1, Chance: 0.2}, "too fast to tell (under 0.5 ms)"},
		{measure.Staircase{N: 100, Considered: 100, Share: 0.977, Chance: 0.2}, "1 ms tick"},
		{measure.Staircase{N: 100, Considered: 100, Share: 0.35, Chance: 0.2}, "some clustering"},
		{measure.Staircase{N: 100, Considered: 100, Share: 0.052, Chance: 0.2}, "no tick (chance)"},
	}
	for _, tt := range tests {
		if got := staircaseReading(tt.sc); got != tt.want {
			t.Errorf("staircaseReading(%+v) = %q, want %q", tt.sc, got, tt.want)
		}
	}
}

func TestReportLayout(t *testing.T) {
	cfg := small()
	cfg.Workloads = []Workload{Overwrite, Append}
	cfg.BlockSizes = []int64{4096, 1 << 20}
	cfg.MaxCaseBytes = 8 << 20
	cfg.Staircase, cfg.Histogram = true, true
	res, err := Run(newRun(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Report(&buf, cfg, res, nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"2 rounds × 24 writes (8 for 1M, capped by --max-case-bytes) after 4 warm-up",
		"Median (p50) write + sync\nworkload   size",
		"\noverwrite  4K ", "\noverwrite  1M ", "\nappend     4K ", "\nappend     1M ",
		"p99 write + sync",
		"Per case (means;",
		"fdatasync        fdatasync(2)",
		"Staircase: do syncs complete on a 1 ms tick?",
		"Histogram of write + sync: append 1M dsync, threads 1, 16 samples\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	_, after, _ := strings.Cut(out, "Median (p50) write + sync\n")
	header, _, _ := strings.Cut(after, "\n")
	if got := strings.Join(strings.Fields(header), " "); got != "workload size none fdatasync dsync" {
		t.Errorf("median table header = %q, want the methods as columns", got)
	}
}
