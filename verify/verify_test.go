package verify

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscount"
)

// childRole makes the test binary the traced child of the tracer checks, as
// the durabench binary is in real use (cmd/durabench's __verify-sync).
const childRole = "__verify-sync"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == childRole {
		if err := child(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func child(args []string) error {
	fs := flag.NewFlagSet(childRole, flag.ContinueOnError)
	dir := fs.String("dir", "", "")
	config := fs.String("config", "", "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var w SyncWorkload
	if err := json.Unmarshal([]byte(*config), &w); err != nil {
		return err
	}
	window := syscount.ChildWindow(*dir)
	if window == nil {
		return fmt.Errorf("not a counting child")
	}
	run, err := fixtures.NewRun(*dir, "count", false)
	if err != nil {
		return err
	}
	defer run.Close()
	if err := RunSyncWorkload(run, w, window); err != nil {
		return err
	}
	return window.Close()
}

// options returns Options for a verification in a new directory, with a
// counter that runs this test binary as the traced child, or none (and the
// reason) where this system cannot trace.
func options(t *testing.T) Options {
	t.Helper()
	dir := t.TempDir()
	o := Options{Dir: dir, Report: func(c Check) { t.Log(c) }}
	if err := syscount.Available(); err != nil {
		o.NoCountReason = err.Error()
		return o
	}
	o.Count = func(scratch string, w SyncWorkload) (syscount.Result, error) {
		b, err := json.Marshal(w)
		if err != nil {
			return syscount.Result{}, err
		}
		return syscount.Count([]string{childRole, "--dir", scratch, "--config", string(b)}, scratch, nil)
	}
	return o
}

func find(t *testing.T, checks []Check, name string) Check {
	t.Helper()
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %q among %d", name, len(checks))
	return Check{}
}

// TestVerifyPasses runs every check on this machine's disk: none may fail,
// the tracer and read-back checks must have run, and --dir is left as it
// was.
func TestVerifyPasses(t *testing.T) {
	o := options(t)
	checks, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if c.Status == Fail {
			t.Errorf("%s", c)
		}
	}
	for _, name := range []string{"sync case append-4K-fdatasync", "sync case overwrite-4K-none", "log records read back",
		"log segments rotated as configured", "outputs never overwritten", "run directory removed"} {
		if c := find(t, checks, name); c.Status != Pass {
			t.Errorf("%s: want pass", c)
		}
	}
	if o.Count != nil {
		if c := find(t, checks, "sync fdatasync: calls counted by the tracer"); c.Status != Pass || !strings.Contains(c.Detail, "24 pwrite64 and 24 fdatasync for 24 writes") {
			t.Errorf("%s: want 24 writes and 24 fdatasyncs counted", c)
		}
		if c := find(t, checks, "sync none: calls counted by the tracer"); c.Status != Pass || !strings.Contains(c.Detail, "no sync call") {
			t.Errorf("%s: want no sync call counted", c)
		}
	}
	if entries, _ := os.ReadDir(o.Dir); len(entries) != 0 {
		t.Errorf("verify left %d entries in its directory", len(entries))
	}
	if Failed(checks) {
		t.Error("Failed reports a failure")
	}
}

// TestVerifyCatchesSkippedSync injects a missing sync into the traced
// workload: the tracer check of every method that syncs must fail, naming
// the count.
func TestVerifyCatchesSkippedSync(t *testing.T) {
	o := options(t)
	if o.Count == nil {
		t.Skipf("no tracer here: %s", o.NoCountReason)
	}
	o.skipSyncAt = 5
	checks, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	c := find(t, checks, "sync fdatasync: calls counted by the tracer")
	if c.Status != Fail || !strings.Contains(c.Detail, "fdatasync 23, want 24") {
		t.Errorf("%s: want a failure counting 23 fdatasyncs of 24", c)
	}
	if c := find(t, checks, "sync none: calls counted by the tracer"); c.Status != Pass {
		t.Errorf("%s: a method without a sync call is not affected", c)
	}
	if !Failed(checks) {
		t.Error("Failed does not report the failure")
	}
}

// TestVerifyCatchesDroppedRecord injects a record that is acknowledged but
// never appended: the read-back check must fail and name it.
func TestVerifyCatchesDroppedRecord(t *testing.T) {
	o := options(t)
	o.Count, o.NoCountReason = nil, "not needed here"
	o.dropRecordAt = 7
	checks, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	c := find(t, checks, "log records read back")
	if c.Status != Fail || !strings.Contains(c.Detail, "599 records replayed, 600 acknowledged; writer 0 record 6 is missing") {
		t.Errorf("%s: want the dropped record named", c)
	}
	if !Failed(checks) {
		t.Error("Failed does not report the failure")
	}
}

func TestVerifyRefusesMissingDir(t *testing.T) {
	if _, err := Run(Options{Dir: t.TempDir() + "/nope"}); err == nil {
		t.Fatal("Run on a missing directory: no error")
	}
}

// The run-directory check fails when something the directory held before
// the run is gone, and names, without failing, an entry another program
// made meanwhile (durabench writes only inside its run directory).
func TestVerifyRunDirectoryCheck(t *testing.T) {
	for _, tt := range []struct {
		name   string
		during func(dir string) error
		status Status
		says   string
	}{
		{"another program writes", func(dir string) error { return os.WriteFile(filepath.Join(dir, "other"), nil, 0o644) }, Pass, `["other"] appeared meanwhile`},
		{"a user's file vanishes", func(dir string) error { return os.Remove(filepath.Join(dir, "keep")) }, Fail, `no longer holds ["keep"]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := options(t)
			o.Count = nil
			if err := os.WriteFile(filepath.Join(o.Dir, "keep"), []byte("the user's"), 0o644); err != nil {
				t.Fatal(err)
			}
			once := false
			o.Report = func(Check) {
				if !once {
					once = true
					if err := tt.during(o.Dir); err != nil {
						t.Error(err)
					}
				}
			}
			checks, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			if c := find(t, checks, "run directory removed"); c.Status != tt.status || !strings.Contains(c.Detail, tt.says) {
				t.Errorf("%s: want %v saying %s", c, tt.status, tt.says)
			}
		})
	}
}
