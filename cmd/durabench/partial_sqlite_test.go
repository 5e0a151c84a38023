package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/durabench/durabench/results"
)

// TestInterruptedSQLiteKeepsFinishedCases interrupts a sqlite run in its
// fourth case (of six) and checks that the cases that finished are kept:
// printed, and written to --out marked partial, each with every commit it
// timed; that no case is kept half-measured; and that the run's files are
// gone.
func TestInterruptedSQLiteKeepsFinishedCases(t *testing.T) {
	base := t.TempDir()
	dir, out := filepath.Join(base, "dir"), filepath.Join(base, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const commits = 400
	cmd := exec.Command(binary, "sqlite", "--dir", dir, "--out", out, "--engines", "modernc",
		"--journal-modes", "delete,truncate,wal", "--synchronous", "normal,full", "--fullfsync", "0",
		"--commits", "400", "--warmup", "10", "--rounds", "1")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	errp, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Steps: the engine's defaults, then the six cases. Off a terminal
	// every step of a one-round run is a line; the fifth starts the
	// fourth case, so three have finished.
	sc := bufio.NewScanner(errp)
	var stderr strings.Builder
	for sc.Scan() {
		stderr.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "[5/7]") {
			cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	for sc.Scan() {
		stderr.WriteString(sc.Text() + "\n")
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("interrupted sqlite ended with %v, want exit 130\n%s", err, stderr.String())
	}

	recs := readRecords(t, out)
	var pooled []results.Record
	for _, r := range recs {
		if r.Round == results.PooledRound {
			pooled = append(pooled, r)
		}
		if !strings.Contains(strings.Join(r.Notes, "; "), "partial") {
			t.Errorf("record %v is not marked partial: %q", r.Params, r.Notes)
		}
	}
	if len(pooled) < 3 || len(pooled) >= 6 {
		t.Fatalf("%d cases kept, want the 3 (or 4) that finished before the interruption, not all 6\n%s", len(pooled), stderr.String())
	}
	for _, r := range pooled {
		if r.N != commits || r.Metrics["rows_checked"] != commits+10 {
			t.Errorf("%v: %d commits timed, %v rows checked; want every one of a finished case (%d, %d)", r.Params, r.N, r.Metrics["rows_checked"], commits, commits+10)
		}
	}
	if _, err := os.Stat(filepath.Join(out, results.PartialFile)); err != nil {
		t.Errorf("--out is not marked partial: %v", err)
	}
	for _, want := range []string{"journal_mode", "delete", "the run was stopped by sigint: kept the figures of the"} {
		if !strings.Contains(strings.ToLower(stdout.String()), want) {
			t.Errorf("the printed result lacks %q:\n%s", want, stdout.String())
		}
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("the run's files are still in --dir: %v", es)
	}
}
