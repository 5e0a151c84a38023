package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/verify"
)

const verifySynopsis = `verify --dir DIR

Checks durabench itself on the disk under DIR, in a few seconds, and prints
one line per check: pass, FAIL, or n/a with the reason it cannot run here.
It runs small versions of what the benchmarks do and checks each against
something other than the code that produced it: every write of each sync
case read back and the file's size; each sync method's calls counted by the
tracer (one write and one sync per write); a device flush per durable sync
where the kernel counts them; a fallocated file's extents unwritten before
and written after (FIEMAP); every record of a log written by concurrent
writers replayed once and intact, in segments rotated where the segment size
says; an output directory never overwritten; and the run directory removed.

Exit status: 0 when every check passes (n/a is not a failure), 1 when one
fails, 2 for bad input.`

const verifyExamples = `  durabench verify --dir .
  durabench verify --dir /data        # the disk your database lives on`

func init() { registerRole(verifySyncRole, roleRun(verifySyncRole, runVerifySync)) }

// verifySyncRole is the traced child of verify's tracer checks.
const verifySyncRole = "__verify-sync"

func runVerify(args []string) error {
	fs := newFlags("verify", verifySynopsis, verifyExamples)
	dir := fs.String("dir", ".", "directory on the disk to check; verify works in a new child directory and removes it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	if err := checkDir(*dir); err != nil {
		return err
	}
	o := verify.Options{Dir: *dir, Report: func(c verify.Check) { fmt.Println(c) }}
	if err := syscount.Available(); err != nil {
		o.NoCountReason = err.Error()
	} else {
		o.Count = func(dir string, w verify.SyncWorkload) (syscount.Result, error) {
			b, err := json.Marshal(w)
			if err != nil {
				return syscount.Result{}, err
			}
			return syscount.Count([]string{verifySyncRole, "--dir", dir, "--config", string(b)}, dir, nil)
		}
	}
	checks, err := verify.Run(o)
	if err != nil {
		return err
	}
	failed := 0
	for _, c := range checks {
		if c.Status == verify.Fail {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d checks failed", failed, len(checks))
	}
	fmt.Fprintf(os.Stdout, "all %d checks passed or do not apply here\n", len(checks))
	return nil
}

// runVerifySync is the child side of verify's tracer checks.
func runVerifySync(args []string) error {
	var w verify.SyncWorkload
	return runCountChild(verifySyncRole, "durabench verify", args, &w, func(run *fixtures.Run, window *syscount.Window) error {
		return verify.RunSyncWorkload(run, w, window)
	})
}
