package main

import (
	"encoding/json"
	"errors"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/sqlitebench"
	"github.com/durabench/durabench/syncbench"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/walbench"
)

// The counting passes: a measuring command re-runs each case in a child
// durabench traced by syscount (ptrace on Linux, the interposer on macOS).
// The child is a child role (roles.go) that takes the case's configuration as JSON,
// runs it with its counting window marked, and reports the window's
// operations and device flushes through the file that syscount names in its
// environment. Users never call it.

func init() {
	registerRole(countSyncRole, countChild(countSyncRole, "durabench sync", func(run *fixtures.Run, cfg syncbench.Config, w *syscount.Window) error {
		cfg.Marks = w
		_, err := syncbench.Run(run, cfg, nil)
		return err
	}))
	registerRole(countSQLiteRole, countChild(countSQLiteRole, "durabench sqlite", func(run *fixtures.Run, cfg sqlitebench.Config, w *syscount.Window) error {
		cfg.Marks = w
		_, err := sqlitebench.Run(run, cfg, nil)
		return err
	}))
	registerRole(countWALRole, countChild(countWALRole, "durabench wal", func(run *fixtures.Run, cfg walbench.Config, w *syscount.Window) error {
		cfg.Marks = w
		_, err := walbench.Run(run, cfg, nil)
		return err
	}))
}

// The counting roles.
const (
	countSyncRole   = "__count-sync"
	countSQLiteRole = "__count-sqlite"
	countWALRole    = "__count-wal"
)

// countInChild runs the child role role as a traced counting child
// inside run's directory, with cfg as its configuration, attributing files
// with classify (nil: by name).
func countInChild(run *fixtures.Run, role string, cfg any, classify trace.Classifier) (syscount.Result, error) {
	if err := run.Err(); err != nil { // stopped: no new counting child
		return syscount.Result{}, err
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return syscount.Result{}, err
	}
	return syscount.Count([]string{role, "--dir", run.Dir, "--config", string(b)}, run.Dir, classify)
}

// runCountChild is the child side of every counting pass: it reads the
// case's configuration into cfg, makes a run directory inside --dir, calls
// measure with it and the counting window, and reports the window to the
// parent. parent names the command whose child role is role.
func runCountChild(role, parent string, args []string, cfg any, measure func(run *fixtures.Run, window *syscount.Window) error) error {
	fs := newFlags(role, "internal: one counting pass of "+parent, "")
	dir := fs.String("dir", "", "directory to run in")
	config := fs.String("config", "", "the case's configuration as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(*config), cfg); err != nil {
		return usageErrorf("--config: %v", err)
	}
	err := syscount.ServeChild(*dir, measure)
	if errors.Is(err, syscount.ErrNotChild) {
		return usageErrorf("%s runs only as a counting child of %s --count-syscalls", role, parent)
	}
	return err
}

// checkCounting refuses --count-syscalls (if on), before any timing pass
// starts, where this OS has no way to count a child's calls.
func checkCounting(on bool) error {
	if !on {
		return nil
	}
	if err := syscount.Available(); err != nil {
		return usageErrorf("--count-syscalls: %v: drop it", err)
	}
	return nil
}

// counter returns the Counter that runs a case of configuration C as the
// child role role of this process, inside run's directory.
func counter[C any](run *fixtures.Run, role string) syscount.Counter[C] {
	return func(cfg C, classify trace.Classifier) (syscount.Result, error) {
		return countInChild(run, role, cfg, classify)
	}
}

// countChild returns the child side of a counting pass of the command
// parent: role, reading its configuration C, runs it with measure.
func countChild[C any](role, parent string, measure func(run *fixtures.Run, cfg C, window *syscount.Window) error) func(args []string) int {
	return roleRun(role, func(args []string) error {
		var cfg C
		return runCountChild(role, parent, args, &cfg, func(run *fixtures.Run, window *syscount.Window) error {
			return measure(run, cfg, window)
		})
	})
}
