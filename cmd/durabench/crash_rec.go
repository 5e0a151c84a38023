package main

import (
	"errors"
	"os/exec"
	"runtime"
	"strconv"

	"github.com/durabench/durabench/crash"
	"golang.org/x/sys/unix"
)

// The recorder's side of durabench crash: recordLog runs a command under
// the ptrace recorder, markAck is what a workload child calls after each
// commit.

// recordLog records what cmd does to the files under root.
func recordLog(cmd *exec.Cmd, root string) (*crash.Log, error) {
	return nil, errors.New("the recorder (crash/record) is not in this build yet")
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
func markAck(n uint64) {
	_, _ = unix.Write(-1, []byte("durabench-trace: ack "+strconv.FormatUint(n, 10)+"\n"))
}
