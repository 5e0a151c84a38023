package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durabench/durabench/neighbor"
	"github.com/durabench/durabench/results"
)

func TestNeighborRefusesBadInput(t *testing.T) {
	base, dir, existingOut := refusalDirs(t)
	ok := []string{"--dir", dir, "--backlogs", "0,1M", "--trials", "1", "--rates", "0", "--duration", "10ms", "--stream-size", "1M"}
	refusals := []refusal{
		{"unknown mode", []string{"--mode", "burst"}, `--mode "burst": use backlog, stream, or both`},
		{"bad backlog", []string{"--backlogs", "0,1X"}, `invalid argument "0,1X" for "--backlogs" flag: size "1X": unknown unit`},
		{"backlog over free space", []string{"--backlogs", "0,1024T"}, "--backlogs: not enough free space under " + dir + ": the largest backlog, 1024T, needs 1048576.0 GiB"},
		{"stream file over free space", []string{"--mode", "stream", "--stream-size", "1024T"}, "--stream-size: not enough free space under " + dir + ": a stream file of 1024T needs 1048576.0 GiB"},
		{"bad rate", []string{"--rates", "0,fast"}, `invalid argument "0,fast" for "--rates" flag: rate "fast"`},
		{"unknown method", []string{"--methods", "fsnyc"}, `unknown sync method "fsnyc"`},
		{"no trials", []string{"--trials", "0"}, "--trials: 0 trials: need at least one"},
		{"timeout below duration", []string{"--mode", "stream", "--duration", "2m", "--neighbor-timeout", "1m"}, "--neighbor-timeout, --duration: time limit 1m0s is not longer than the duration 2m0s"},
		{"existing out", []string{"--out", existingOut}, "exists already"},
		{"stray argument", []string{"now"}, `unexpected arguments ["now"]`},
	}
	checkRefusals(t, "neighbor", ok, base, refusals)
}

func TestNeighborRunsBothModes(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "run1")
	stdout, stderr, code := durabench(t, "neighbor", "--dir", dir, "--out", out,
		"--methods", "fsync,fdatasync", "--backlogs", "0,8M", "--trials", "2",
		"--rates", "0,max", "--duration", "50ms", "--stream-size", "8M")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Environment", "Variant: clean", "then nbr fsync", "fdatasync (fdatasync(2)) next to a writing neighbor", "max "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	recs := readRecords(t, out)
	// Backlog: 2 backlogs × 2 methods × (2 trials + pooled); stream: 2 rates
	// × 2 methods × (2 passes + pooled).
	if len(recs) != 12+12 {
		t.Errorf("%d records, want 24", len(recs))
	}
	for _, r := range recs {
		if r.Experiment != neighbor.Experiment || r.Env == "" || r.N == 0 || r.Params.Get("variant") != "clean" {
			t.Errorf("bad record %+v", r)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the run left %d entries in --dir", len(entries))
	}
}

// TestNeighborRoleIsHidden: the neighbor role is a child role, reachable
// only by its name as the first argument, and appears in no help.
func TestNeighborRoleIsHidden(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"neighbor", "--help"}} {
		stdout, _, _ := durabench(t, args...)
		if strings.Contains(stdout, neighbor.ChildRole) {
			t.Errorf("durabench %s shows the hidden role:\n%s", strings.Join(args, " "), stdout)
		}
	}
	_, stderr, code := durabench(t, neighbor.ChildRole, "--mode", "copy")
	if want := "durabench " + neighbor.ChildRole + `: neighbor arguments: mode "copy": want backlog or stream`; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("the role with bad arguments: exit %d, %q; want 1 and %q", code, stderr, want)
	}
}

// TestNeighborPreSyncSaysSo: the flawed variant is named in the report and
// in every record, so it can never pass for the clean one.
func TestNeighborPreSyncSaysSo(t *testing.T) {
	stdout, stderr, code := durabench(t, "neighbor", "--dir", t.TempDir(), "--pre-sync", "--mode", "backlog",
		"--methods", "fdatasync", "--backlogs", "1M", "--trials", "1", "--format", "jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := results.ReadJSONL(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want a trial and a pooled one", len(recs))
	}
	for _, r := range recs {
		if r.Params.Get("variant") != "pre-sync" {
			t.Errorf("record %v does not name the pre-sync variant", r.Params)
		}
		if _, ok := r.Metrics["presync_ns"]; !ok && r.Round != results.PooledRound {
			t.Errorf("trial record lacks the untimed sync's time: %v", r.Metrics)
		}
	}
	stdout, _, code = durabench(t, "neighbor", "--dir", t.TempDir(), "--pre-sync", "--mode", "backlog",
		"--methods", "fdatasync", "--backlogs", "1M", "--trials", "1")
	if code != 0 || !strings.Contains(stdout, "Variant: PRE-SYNC (flawed on purpose)") || !strings.Contains(stdout, "untimed pre-sync") {
		t.Errorf("pre-sync report: exit %d\n%s", code, stdout)
	}
}
