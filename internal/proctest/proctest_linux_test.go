//go:build linux

package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEnded: a running process has not ended; once it exits it has, as a
// zombie before it is reaped and gone after.
func TestEnded(t *testing.T) {
	if Ended(os.Getpid()) {
		t.Fatal("Ended(this test) = true")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sleep: %v", err)
	}
	pid := cmd.Process.Pid
	if Ended(pid) {
		t.Fatal("Ended(a running sleep) = true")
	}
	if WaitEnded(pid, 50*time.Millisecond) {
		t.Fatal("WaitEnded(a running sleep) = true")
	}
	cmd.Process.Kill()
	if !WaitEnded(pid, 10*time.Second) { // a zombie until reaped
		t.Fatal("WaitEnded(a killed, unreaped sleep) = false")
	}
	cmd.Wait()
	if !Ended(pid) {
		t.Fatal("Ended(a reaped sleep) = false")
	}
}

// TestPIDFile reads the PID a shell writes, and says what is wrong with a
// file that never gets one or holds something else.
func TestPIDFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pid")
	cmd := exec.Command("sh", "-c", `echo $$ > "$0"`, path)
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sh: %v", err)
	}
	pid, err := PIDFile(path, 10*time.Second)
	cmd.Wait()
	if err != nil || pid != cmd.Process.Pid {
		t.Fatalf("PIDFile = %d, %v; want %d", pid, err, cmd.Process.Pid)
	}
	if _, err := PIDFile(filepath.Join(dir, "none"), 30*time.Millisecond); err == nil || !strings.Contains(err.Error(), "never started") {
		t.Errorf("PIDFile of a missing file = %v, want it to say the program never started", err)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("x1\n"), 0o644)
	if _, err := PIDFile(bad, time.Second); err == nil || !strings.Contains(err.Error(), `"x1\n", not a PID`) {
		t.Errorf("PIDFile of %q = %v, want it refused", "x1\n", err)
	}
}
