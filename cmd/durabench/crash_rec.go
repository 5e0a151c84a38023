package main

import (
	"os/exec"
	"runtime"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/crash/record"
	"github.com/durabench/durabench/syscalls/trace"
)

// The recorder's side of durabench crash: recordLog runs a command under
// the ptrace recorder, markAck is what a workload child calls after each
// commit.

// recordLog records what cmd does to the files under root.
func recordLog(cmd *exec.Cmd, root string) (*crash.Log, error) {
	log, _, err := record.Record(cmd, root)
	return log, err
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
