package interpose

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/durabench/durabench/internal/proctest"
)

// helperEnv makes the test binary a parent that runs a program under the
// interposer and waits, for the tests to kill (parentHelper).
const helperEnv = "DURABENCH_INTERPOSE_TEST_PARENT"

// parentHelper runs `sh -c 'echo $$ > $PIDFILE; exec sleep 60'` under Run
// and waits for it; the test kills this process meanwhile.
func parentHelper() {
	cmd := exec.Command("sh", "-c", `echo $$ > "$PIDFILE"; exec sleep 60`)
	_, err := Run(cmd, options())
	fmt.Fprintln(os.Stderr, "parentHelper: Run returned:", err)
	os.Exit(3)
}

// waitPID waits for the traced program to write its PID to pidfile.
func waitPID(t *testing.T, pidfile string) int {
	t.Helper()
	pid, err := proctest.PIDFile(pidfile, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitGone waits up to a generous bound for pid to end, and fails if it
// does not: the program must not outlive its parent.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if !proctest.WaitEnded(pid, 20*time.Second) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the traced program (pid %d) outlived the process that traced it", pid)
	}
}

// noCountersFile fails if dir holds anything: the counters file must not
// outlive the run.
func noCountersFile(t *testing.T, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) > 0 {
		t.Fatalf("left behind in the temporary directory: %q", left)
	}
}

// TestProgramDiesWithParent kills the process running the interposer, by
// SIGKILL (which nothing can catch) and by SIGTERM (Go's default: exit
// at once): the traced program must die with it and no counters file may
// remain. Before the fix the program ran on, orphaned, and the file stayed
// in $TMPDIR.
func TestProgramDiesWithParent(t *testing.T) {
	need(t, "sh", "sleep", "cc")
	if _, err := Build(options()); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp, work := t.TempDir(), t.TempDir()
			pidfile := filepath.Join(work, "pid")
			parent := exec.Command(os.Args[0], "-test.run=^$")
			parent.Env = append(os.Environ(), helperEnv+"=1", "TMPDIR="+tmp, "PIDFILE="+pidfile, "CACHEDIR="+cacheDir)
			if err := parent.Start(); err != nil {
				t.Fatal(err)
			}
			pid := waitPID(t, pidfile)
			if err := parent.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := parent.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
				t.Fatalf("parent ended with %v, want killed by %s", err, sig)
			}
			waitGone(t, pid)
			noCountersFile(t, tmp)
		})
	}
}

// TestContextStopsProgram cancels RunContext while the program runs: the
// program is killed and reaped, the counters file removed, and the error
// says why.
func TestContextStopsProgram(t *testing.T) {
	need(t, "sh", "sleep", "cc")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pidfile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stopped by the test")
	done := make(chan error, 1)
	go func() {
		cmd := exec.Command("sh", "-c", `echo $$ > "`+pidfile+`"; exec sleep 60`)
		_, err := RunContext(ctx, cmd, options())
		done <- err
	}()
	pid := waitPID(t, pidfile)
	cancel(stop)
	err := <-done
	if !errors.Is(err, stop) || !strings.Contains(err.Error(), `interpose: "sh" killed before it finished`) {
		t.Fatalf("RunContext = %v, want it to say sh was killed, wrapping the cause", err)
	}
	if !proctest.Ended(pid) {
		t.Fatalf("the program (pid %d) still runs after RunContext returned", pid)
	}
	noCountersFile(t, tmp)

	if _, err := RunContext(ctx, exec.Command("true"), options()); !errors.Is(err, stop) {
		t.Fatalf("RunContext with a done context = %v, want the cause without starting", err)
	}
	noCountersFile(t, tmp)
}
