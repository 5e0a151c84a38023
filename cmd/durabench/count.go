package main

import (
	"encoding/json"
	"fmt"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/syncbench"
	"github.com/durabench/durabench/internal/syscount"
)

// The counting passes: a measuring command re-runs each case in a child
// durabench traced with ptrace. The child is a hidden command that takes the
// case's configuration as JSON, runs it with its counting window marked, and
// reports the window's operations and device flushes through the file that
// syscount names in its environment. Users never call it.

// syncCounter returns the syncbench.Counter that runs a case as a child of
// this process, inside run's directory.
func syncCounter(run *fixtures.Run) syncbench.Counter {
	return func(cfg syncbench.Config) (syscount.Result, error) {
		b, err := json.Marshal(cfg)
		if err != nil {
			return syscount.Result{}, err
		}
		return syscount.Count([]string{"__count-sync", "--dir", run.Dir, "--config", string(b)}, run.Dir, nil)
	}
}

// runCountSync is the child side of a sync counting pass.
func runCountSync(args []string) error {
	fs := newFlags("__count-sync", "internal: one counting pass of durabench sync", "")
	dir := fs.String("dir", "", "directory to run in")
	config := fs.String("config", "", "syncbench.Config as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var cfg syncbench.Config
	if err := json.Unmarshal([]byte(*config), &cfg); err != nil {
		return usageErrorf("--config: %v", err)
	}
	window := syscount.ChildWindow(*dir)
	if window == nil {
		return usageErrorf("__count-sync runs only as a counting child of durabench sync --count-syscalls")
	}
	cfg.Marks = window
	run, err := fixtures.NewRun(*dir, "count", false)
	if err != nil {
		return err
	}
	defer run.Close()
	if _, err := syncbench.Run(run, cfg, nil); err != nil {
		return err
	}
	if err := window.Close(); err != nil {
		return fmt.Errorf("report the counting window: %w", err)
	}
	return nil
}

// hidden reports whether a command is an internal role, kept out of the
// overview and its tests.
func (c command) hidden() bool { return c.summary == "" }
