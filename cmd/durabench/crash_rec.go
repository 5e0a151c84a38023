package main

import (
	"fmt"
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
