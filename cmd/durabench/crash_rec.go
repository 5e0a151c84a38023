package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/crash/record"
	"github.com/durabench/durabench/syscalls/trace"
)

// The recorder's side of durabench crash: recordLog runs a command under
// the ptrace recorder, markAck is what a workload child calls after each
// commit.

// recordLog records what cmd does to the files under root. A command that
// does not exit with status 0 failed, and its log is not judged.
func recordLog(cmd *exec.Cmd, root string) (*crash.Log, error) {
	log, counts, err := record.Record(cmd, root)
	if err != nil {
		return nil, err
	}
	if counts.Exit.Code != 0 || counts.Exit.Signal != "" {
		return nil, fmt.Errorf("the recorded command %s ended with %s; only a run that succeeds is judged (its output is above)", cmd.Args[0], counts.Exit)
	}
	return log, nil
}

// checkRecording refuses, before anything is touched, where no recorder
// runs.
func checkRecording() error {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		return usageErrorf("recording a workload needs ptrace on Linux (amd64 or arm64); this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return nil
}

// markAck marks commit n as acknowledged for the recorder.
func markAck(n uint64) { trace.MarkAck(n) }

// crashChild is the child durabench that plays a crash workload's hidden
// role in root, with cfg as its configuration; its output goes to stderr.
func crashChild(role, root string, cfg any) *exec.Cmd {
	b, _ := json.Marshal(cfg) // workload configurations always marshal
	cmd := exec.Command(selfPath(), role, "--root", root, "--config", string(b))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd
}

// parseCrashChild reads a crash workload role's --root and --config (into
// cfg); parent names the command the role belongs to.
func parseCrashChild(role, parent string, args []string, cfg any) (root string, err error) {
	fs := newFlags(role, "internal: the workload of "+parent, "")
	r := fs.String("root", "", "directory to run the workload in")
	config := fs.String("config", "", "the case as JSON")
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	if err := json.Unmarshal([]byte(*config), cfg); err != nil {
		return "", usageErrorf("--config: %v", err)
	}
	return *r, nil
}
