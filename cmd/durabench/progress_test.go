package main

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// smallSync is a sync run of 2 cases × 3 rounds: 6 progress steps.
func smallSync(dir string) []string {
	return []string{"sync", "--dir", dir, "--workloads", "overwrite", "--block-sizes", "4K", "--methods", "none,fdatasync",
		"--iterations", "100", "--warmup", "5", "--rounds", "3"}
}

// TestProgressOnATerminal runs a command with standard error on a
// pseudo-terminal and checks that its progress is one line, rewritten in
// place, with an estimate of the time left.
func TestProgressOnATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 160}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, smallSync(t.TempDir())...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the child holds its own copy
	screen := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ptmx) // ends with EIO once the child has exited
		screen <- b
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("sync: %v", err)
	}
	got := string(<-screen)
	if n := strings.Count(got, "\n"); n != 0 {
		t.Errorf("%d lines ended on the terminal, want none (one line rewritten): %q", n, got)
	}
	if n := strings.Count(got, "\r"); n < 6 {
		t.Errorf("%d carriage returns, want at least one per step (6): %q", n, got)
	}
	for _, want := range []string{"durabench sync [1/6] round 1/3: overwrite-4K-none", "[6/6] round 3/3: overwrite-4K-fdatasync", "elapsed · ETA 0:0"} {
		if !strings.Contains(got, want) {
			t.Errorf("the progress line lacks %q: %q", want, got)
		}
	}
	if !strings.Contains(stdout.String(), "Median (p50) write + sync") {
		t.Errorf("the result is missing from standard output:\n%s", stdout.String())
	}
}

func TestProgressWithoutATerminal(t *testing.T) {
	stdout, stderr, code := durabench(t, smallSync(t.TempDir())...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) > 2 || strings.Contains(stderr, "\r") {
		t.Errorf("%d progress lines for 2 cases (want at most one per case, no carriage returns):\n%s", len(lines), stderr)
	}
	if !strings.HasPrefix(lines[0], "durabench sync [1/6] round 1/3: overwrite-4K-none") {
		t.Errorf("first progress line %q", lines[0])
	}
	if !strings.Contains(stdout, "Median (p50) write + sync") {
		t.Errorf("no result on standard output:\n%s", stdout)
	}
}

func TestQuietPrintsOnlyTheResult(t *testing.T) {
	work := t.TempDir()
	args := append(smallSync(work), "--quiet", "--out", work+"/out", "--report", work+"/out")
	stdout, stderr, code := durabench(t, args...)
	if code != 0 || stderr != "" {
		t.Errorf("--quiet: exit %d, standard error %q; want 0 and nothing", code, stderr)
	}
	if !strings.Contains(stdout, "Median (p50) write + sync") {
		t.Errorf("--quiet dropped the result:\n%s", stdout)
	}
	for _, noise := range []string{"round 1/3", "results written", "report written"} {
		if strings.Contains(stdout, noise) {
			t.Errorf("--quiet printed %q on standard output", noise)
		}
	}
}
