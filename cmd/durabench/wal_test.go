package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/durabench/durabench/results"
)

func TestWALRefusesBadInput(t *testing.T) {
	base, dir, existingOut := refusalDirs(t)
	ok := []string{"--dir", dir, "--iterations", "20", "--warmup", "4", "--rounds", "1", "--file-size", "1M"}
	refusals := []refusal{
		{"unknown layout", []string{"--layouts", "append,sparse"}, `invalid argument "append,sparse" for "--layouts" flag: file state "sparse": use one of append, fallocate, initialized`},
		{"unknown I/O mode", []string{"--io-modes", "mmap"}, `invalid argument "mmap" for "--io-modes" flag: I/O mode "mmap": use buffered or direct`},
		{"method without a sync call", []string{"--methods", "fdatasync,dsync"}, "--methods: sync method dsync: the log writer makes its own sync call"},
		{"block not a multiple of 8", []string{"--block-sizes", "4001"}, "--block-sizes: block size 4001: a record is one block"},
		{"over fixed capacity", []string{"--layouts", "append,initialized", "--iterations", "100"}, "--file-size: initialized at 16K needs 1664K for 4 warm-up + 100 measured records (104 records of 16384 bytes, headers included, the last direct write padded to 4096), more than the segment size 1M: initialized segments never grow or wrap; raise the segment size to 2M or write fewer records"},
		{"direct file size off the alignment", []string{"--file-size", "1000000"}, "--file-size: segment size 1000000 is not a multiple of 4096"},
		{"sync-every with writers", []string{"--sync-every", "4", "--writers", "1,8"}, "--sync-every, --writers: 4 records per sync batch one writer's records, and 8 writers share syncs by themselves: use one or the other"},
		{"sync-every not dividing", []string{"--sync-every", "3"}, "--iterations, --warmup, --sync-every: 20 measured and 4 warm-up records must be multiples of 3 records per sync"},
		{"bad writers", []string{"--writers", "1,many"}, `invalid argument "1,many" for "--writers" flag: "many" is not a whole number`},
		{"too many writers", []string{"--writers", "2000"}, "--writers: 2000 writers: use 1 to 1024"},
		{"sweep with block sizes", []string{"--size-sweep", "32K,64K", "--block-sizes", "16K"}, "drop --block-sizes"},
		{"sweep with file size", []string{"--size-sweep", "32K", "--file-size", "2M"}, "drop --file-size"},
		{"more than the disk", []string{"--layouts", "fallocate", "--file-size", "1000T"}, "not enough free space"},
		{"existing out", []string{"--out", existingOut}, "exists already: results are never overwritten"},
		{"stray argument", []string{"now"}, `unexpected arguments ["now"]`},
	}
	checkRefusals(t, "wal", ok, base, refusals)
}

func TestWALRunsAndReadsBack(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "run1")
	stdout, stderr, code := durabench(t, "wal", "--dir", dir, "--out", out, "--layouts", "append,initialized",
		"--block-sizes", "4K", "--io-modes", "buffered,direct", "--methods", "fdatasync",
		"--iterations", "32", "--warmup", "4", "--rounds", "2", "--file-size", "1M", "--writers", "1,4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Commit latency", "mean commit", "verified 72 records", "1048576 → 1048576", "0 → 147456",
		"Group-commit curve: initialized 4K direct fdatasync", "Environment"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	// Whether the curve bends within the writer counts tried depends on the
	// disk's timing, so either sentence about the knee is right.
	if !kneeSentence.MatchString(stdout) {
		t.Errorf("report has no sentence about the curve's knee:\n%s", stdout)
	}
	recs := readRecords(t, out)
	verified := 0
	for _, r := range recs {
		if r.Round == results.PooledRound && r.Metrics["verified_records"] == 2*36 {
			verified++
		}
	}
	if verified != 8 {
		t.Errorf("%d cases read back every record of both rounds (72), want all 8", verified)
	}
	if len(recs) != 8*3 {
		t.Errorf("%d records, want 8 cases × (2 rounds + pooled)", len(recs))
	}
	for _, r := range recs {
		if r.Experiment != "wal" || r.Params.Get("layout") == "" || r.OpsPerSec <= 0 {
			t.Errorf("record %+v lacks its experiment, case or rate", r)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the run left %d entries in --dir", len(entries))
	}
}

// kneeSentence matches either sentence the report gives about the
// group-commit curve's knee: found, or not within the writers tried.
var kneeSentence = regexp.MustCompile(`\d+ writers? reach(es)? \d+ % of peak at p99 |No knee within \d+–\d+ writers: `)
