package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/results"
)

// TestSQLiteCountSyscalls runs durabench sqlite --count-syscalls as a user
// would: the counting children (__count-sqlite) are this binary, traced,
// and each case's pooled record carries its syncs per commit by file.
func TestSQLiteCountSyscalls(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "run1")
	stdout, stderr, code := durabench(t, "sqlite", "--dir", dir, "--out", out, "--engines", "modernc,system",
		"--journal-modes", "delete,wal", "--synchronous", "full", "--fullfsync", "0",
		"--commits", "20", "--warmup", "2", "--rounds", "1", "--count-syscalls")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The system library syncs with fdatasync or fsync as it was built
	// (HAVE_FDATASYNC): read from the library, not assumed to be Debian's.
	call, _, err := drivers.SystemSyncCall(drivers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	systemDelete, systemWAL := "0      0          4", "0      0          1"
	if call == "fsync" {
		systemDelete, systemWAL = "0      4          0", "0      1          0"
	}
	for _, want := range []string{
		"System calls per commit, by kind and by file, and the device's flushes: a separate traced pass of 20 commits per case (counts only; the timing passes above were never traced)",
		"engine   journal  synchronous  fullfsync  fsync  fdatasync  F_FULLFSYNC  F_BARRIERFSYNC  db syncs  journal syncs  wal syncs  directory syncs  device flushes",
		"\nmodernc  delete   full                 0      4          0            0               0         1              2          0                1  ",
		"\nmodernc  wal      full                 0      1          0            0               0         0              0          1                0  ",
		"\nsystem   delete   full                 " + systemDelete + "            0               0         1              2          0                1  ",
		"\nsystem   wal      full                 " + systemWAL + "            0               0         0              0          1                0  ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "counting syscalls (traced, not timed): system-wal-full-ff0-ckptdefault") {
		t.Errorf("no progress line for the counting passes in %q", stderr)
	}
	pooled := 0
	for _, r := range readRecords(t, out) {
		if r.Round != results.PooledRound {
			if _, ok := r.Metrics["counted_ops"]; ok {
				t.Errorf("a round's record carries counts: %v", r.Metrics)
			}
			continue
		}
		pooled++
		want := map[string]float64{"counted_ops": 20, "syncs_per_op.journal": 2, "syncs_per_op.directory": 1, "syncs_per_op.db": 1, "syncs_per_op.wal": 0}
		if r.Params.Get("journal_mode") == "wal" {
			want = map[string]float64{"counted_ops": 20, "syncs_per_op.journal": 0, "syncs_per_op.directory": 0, "syncs_per_op.db": 0, "syncs_per_op.wal": 1}
		}
		for k, v := range want {
			if got, ok := r.Metrics[k]; !ok || got != v {
				t.Errorf("%s: %s = %v (present %v), want %v", r.Params, k, got, ok, v)
			}
		}
	}
	if pooled != 4 {
		t.Errorf("%d pooled records, want 4", pooled)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the run left %d entries in --dir", len(entries))
	}
}

// TestCountChildRefusesUsers: the hidden counting roles run only as a
// traced child of a measuring command.
func TestCountChildRefusesUsers(t *testing.T) {
	for _, role := range []struct{ name, parent string }{
		{"__count-sync", "durabench sync"},
		{"__count-sqlite", "durabench sqlite"},
		{"__count-wal", "durabench wal"},
	} {
		_, stderr, code := durabench(t, role.name, "--dir", t.TempDir(), "--config", "{}")
		if want := role.name + " runs only as a counting child of " + role.parent + " --count-syscalls"; code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%s run by hand: exit %d, %q; want 2 and %q", role.name, code, stderr, want)
		}
	}
}

// TestWALCountSyscalls runs durabench wal --count-syscalls as a user would:
// one counting child (__count-wal) per layout, size, I/O mode and method,
// with one writer, whose counts the one-writer cases' records carry.
func TestWALCountSyscalls(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "run1")
	stdout, stderr, code := durabench(t, "wal", "--dir", dir, "--out", out, "--layouts", "initialized", "--io-modes", "buffered,direct",
		"--methods", "fdatasync", "--block-sizes", "4K", "--iterations", "40", "--warmup", "4", "--rounds", "1", "--file-size", "1M",
		"--writers", "1,2", "--count-syscalls")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"System calls per commit of one writer, from a separate traced pass of 40 records per case (counts only; the timing passes above were never traced)",
		"layout       size  io        method     writes  bytes written  fsync  fdatasync  directory syncs  device flushes",
		"\ninitialized  4K    buffered  fdatasync       1           4096      0          1                0  ",
		"\ninitialized  4K    direct    fdatasync       1           4096      0          1                0  ",
		"Counted with one writer",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stderr, "counting syscalls (traced, not timed, one writer)"); n != 2 {
		t.Errorf("%d counting passes announced, want 2 (writers are not counted apart):\n%s", n, stderr)
	}
	counted := 0
	for _, r := range readRecords(t, out) {
		if r.Round != results.PooledRound || r.Params.Get("writers") != "1" {
			if _, ok := r.Metrics["counted_ops"]; ok {
				t.Errorf("%s round %s carries the one-writer count", r.Params, r.Round)
			}
			continue
		}
		counted++
		for k, v := range map[string]float64{"counted_ops": 40, "writes_per_op": 1, "write_bytes_per_op": 4096, "calls_per_op.fdatasync": 1, "syncs_per_op.directory": 0} {
			if got, ok := r.Metrics[k]; !ok || got != v {
				t.Errorf("%s: %s = %v (present %v), want %v", r.Params, k, got, ok, v)
			}
		}
	}
	if counted != 2 {
		t.Errorf("%d one-writer pooled records, want 2", counted)
	}
}
