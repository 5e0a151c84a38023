package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
)

// A measurement that returns what it measured when a signal stopped it
// gets an --out marked partial (the mechanism partial results on Ctrl-C
// build on); its run directory is still removed and the exit is 130.
func TestStoppedMeasurementKeepsPartialResults(t *testing.T) {
	base := t.TempDir()
	o := &outputFlags{dir: base, out: filepath.Join(t.TempDir(), "out"), format: "csv"}
	stdout := os.Stdout
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = devnull
	defer func() { os.Stdout = stdout; devnull.Close() }()
	var runDir string
	err = measure(o, "partial", func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		runDir = run.Dir
		syscall.Kill(os.Getpid(), syscall.SIGINT) // measure watches for it: the test goes on
		for run.Err() == nil {
		}
		rec := results.Record{Experiment: "partial", Params: results.Params{{Key: "case", Value: "1"}}, Round: 1, N: 1}
		return []results.Record{rec}, func(w io.Writer) error { return nil }, run.Err()
	})
	var stopped stoppedError
	if !errors.As(err, &stopped) || stopped.exitCode() != 130 {
		t.Fatalf("measure = %v, want stopped by SIGINT (130)", err)
	}
	b, err := os.ReadFile(filepath.Join(o.out, results.PartialFile))
	if err != nil || !strings.Contains(string(b), "stopped by SIGINT") {
		t.Errorf("%s = %q, %v; want the reason", results.PartialFile, b, err)
	}
	if recs := readRecords(t, o.out); len(recs) != 1 {
		t.Errorf("partial --out holds %d records, want 1", len(recs))
	}
	if _, err := os.Stat(runDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("run directory %s survived: %v", runDir, err)
	}
}
