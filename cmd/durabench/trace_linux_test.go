package main

import (
	"bufio"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTraceInterruptKillsDaemon: a traced program leaves a daemon in its
// own session, which the terminal's Ctrl-C never reaches. SIGINT to
// durabench must still end the trace (the daemon is killed after the grace
// period) and print the counts with a note saying so.
func TestTraceInterruptKillsDaemon(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("python3 is not installed: %v", err)
	}
	script := `import os, sys, time
if os.fork() == 0:
    os.setsid()
    print("ready", flush=True)
    time.sleep(600)
    os._exit(0)
`
	cmd := exec.Command(binary, "trace", "--", "python3", "-c", script)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stdout)
	if line, err := r.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("first line %q, %v; want ready", line, err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	var rest strings.Builder
	done := make(chan error, 1)
	go func() {
		_, err := bufio.NewReader(r).WriteTo(&rest)
		if err == nil {
			err = cmd.Wait()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("trace after SIGINT: %v", err)
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatal("trace still running a minute after SIGINT: the daemon holds it")
	}
	if !strings.Contains(rest.String(), "note:    stopped before the command ended: every traced task was killed") {
		t.Errorf("output %q; want the note that the traced tasks were killed", rest.String())
	}
}
