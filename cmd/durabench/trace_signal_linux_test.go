package main

import (
	"bytes"
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

// TestTraceInterposeStopsOnSIGTERM sends SIGTERM, then SIGHUP, to
// `durabench trace --method interpose` while its program runs: the program
// must be killed, no counters file left in $TMPDIR, and durabench must say
// so and exit with 128+n. Before, the program ran on orphaned and the
// counters file stayed.
func TestTraceInterposeStopsOnSIGTERM(t *testing.T) {
	for _, p := range []string{"cc", "sh", "sleep"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed", p)
		}
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp, work := t.TempDir(), t.TempDir()
			pidfile := filepath.Join(work, "pid")
			cmd := exec.Command(binary, "trace", "--method", "interpose", "--", "sh", "-c", `echo $$ > "$PIDFILE"; exec sleep 60`)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "PIDFILE="+pidfile, "XDG_CACHE_HOME="+filepath.Join(work, "cache"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid, err := proctest.PIDFile(pidfile, 120*time.Second)
			if err != nil {
				cmd.Process.Kill()
				t.Fatalf("%v: %s", err, stderr.String())
			}
			cmd.Process.Signal(sig)
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Fatalf("durabench ended with %v, want exit status %d; stderr:\n%s", err, 128+int(sig), stderr.String())
			}
			if want := fmt.Sprintf(`interpose: "sh" killed before it finished: durabench got %s`, map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}[sig]); !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
			}
			if !proctest.Ended(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the traced program (pid %d) outlived durabench", pid)
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
				t.Fatalf("left in $TMPDIR: %q", left)
			}
		})
	}
}
