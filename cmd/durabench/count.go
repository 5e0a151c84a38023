package main

import (
	"encoding/json"
	"fmt"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/sqlitebench"
	"github.com/durabench/durabench/syncbench"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/walbench"
)

// The counting passes: a measuring command re-runs each case in a child
// durabench traced by syscount (ptrace on Linux, the interposer on macOS).
// The child is a hidden command that takes the case's configuration as JSON,
// runs it with its counting window marked, and reports the window's
// operations and device flushes through the file that syscount names in its
// environment. Users never call it.

// countInChild runs the hidden command role as a traced counting child
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
	window := syscount.ChildWindow(*dir)
	if window == nil {
		return usageErrorf("%s runs only as a counting child of %s --count-syscalls", role, parent)
	}
	run, err := fixtures.NewRun(*dir, "count", false)
	if err != nil {
		return err
	}
	defer run.Close()
	if err := measure(run, window); err != nil {
		return err
	}
	if err := window.Close(); err != nil {
		return fmt.Errorf("report the counting window: %w", err)
	}
	return nil
}

// checkCounting refuses --count-syscalls, before any timing pass starts,
// where this OS has no way to count a child's calls.
func checkCounting() error {
	if err := syscount.Available(); err != nil {
		return usageErrorf("--count-syscalls: %v: drop it", err)
	}
	return nil
}

// syncCounter returns the syncbench.Counter that runs a case as a child of
// this process, inside run's directory.
func syncCounter(run *fixtures.Run) syncbench.Counter {
	return func(cfg syncbench.Config) (syscount.Result, error) {
		return countInChild(run, "__count-sync", cfg, nil)
	}
}

// runCountSync is the child side of a sync counting pass.
func runCountSync(args []string) error {
	var cfg syncbench.Config
	return runCountChild("__count-sync", "durabench sync", args, &cfg, func(run *fixtures.Run, window *syscount.Window) error {
		cfg.Marks = window
		_, err := syncbench.Run(run, cfg, nil)
		return err
	})
}

// sqliteCounter returns the sqlitebench.Counter that runs a case as a
// child of this process, inside run's directory.
func sqliteCounter(run *fixtures.Run) sqlitebench.Counter {
	return func(cfg sqlitebench.Config, classify trace.Classifier) (syscount.Result, error) {
		return countInChild(run, "__count-sqlite", cfg, classify)
	}
}

// runCountSQLite is the child side of a sqlite counting pass.
func runCountSQLite(args []string) error {
	var cfg sqlitebench.Config
	return runCountChild("__count-sqlite", "durabench sqlite", args, &cfg, func(run *fixtures.Run, window *syscount.Window) error {
		cfg.Marks = window
		_, err := sqlitebench.Run(run, cfg, nil)
		return err
	})
}

// walCounter returns the walbench.Counter that runs a case as a child of
// this process, inside run's directory.
func walCounter(run *fixtures.Run) walbench.Counter {
	return func(cfg walbench.Config, classify trace.Classifier) (syscount.Result, error) {
		return countInChild(run, "__count-wal", cfg, classify)
	}
}

// runCountWAL is the child side of a wal counting pass.
func runCountWAL(args []string) error {
	var cfg walbench.Config
	return runCountChild("__count-wal", "durabench wal", args, &cfg, func(run *fixtures.Run, window *syscount.Window) error {
		cfg.Marks = window
		_, err := walbench.Run(run, cfg, nil)
		return err
	})
}

// hidden reports whether a command is an internal role, kept out of the
// overview and its tests.
func (c command) hidden() bool { return c.summary == "" }
