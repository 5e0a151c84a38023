//go:build linux

package neighbor

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/durabench/durabench/internal/dirtest"
	"github.com/durabench/durabench/internal/proctest"
	"golang.org/x/sys/unix"
)

// awaitExit polls until pid has ended, failing after deadline, and reaps
// it if it is ours.
func awaitExit(t *testing.T, pid int, deadline time.Duration) {
	t.Helper()
	if !proctest.WaitEnded(pid, deadline) {
		t.Fatalf("neighbor %d still alive %v after its parent died", pid, deadline)
	}
	var ws unix.WaitStatus
	unix.Wait4(pid, &ws, unix.WNOHANG, nil)
}

// TestNeighborDiesWithItsParent: a parent that starts a neighbor and is
// then killed with SIGKILL (no chance to clean up) leaves neither the
// neighbor process nor its files behind.
func TestNeighborDiesWithItsParent(t *testing.T) {
	// Orphans are re-parented to us rather than to init, so a zombie can
	// be told from a live process and reaped.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Logf("cannot become a subreaper (%v); zombies are counted as gone", err)
	}
	base := t.TempDir()
	parent := exec.Command(os.Args[0], filepath.Join(base, "neighbor"))
	parent.Env = append(os.Environ(), roleEnv+"=parent")
	parent.Stderr = os.Stderr
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		parent.Process.Kill()
		parent.Wait()
		t.Fatalf("parent said nothing: %v", err)
	}
	pidText, dir, _ := strings.Cut(strings.TrimSpace(line), " ")
	pid, err := strconv.Atoi(pidText)
	if err != nil {
		t.Fatalf("parent said %q", line)
	}
	st, err := os.Stat(filepath.Join(dir, dataFile))
	if err != nil || st.Size() != 8<<20 {
		t.Fatalf("neighbor's 8 MiB backlog before the kill: %v, %v", st, err)
	}
	if proctest.Ended(pid) {
		t.Fatal("neighbor already gone before its parent was killed")
	}

	parent.Process.Signal(syscall.SIGKILL)
	parent.Wait()
	awaitExit(t, pid, 20*time.Second)
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("neighbor's directory %s survived: %v", dir, err)
	}
	if names := dirtest.Names(t, base); len(names) != 0 {
		t.Errorf("left behind: %v", names)
	}
}

// TestSIGTERMRemovesNeighborFiles: SIGTERM, which Linux sends when the
// parent dies, makes the neighbor remove its files and exit, even while its
// command pipe stays open.
func TestSIGTERMRemovesNeighborFiles(t *testing.T) {
	for _, mode := range []childConfig{
		{Mode: modeBacklog, Bytes: 8 << 20},
		{Mode: modeStream, Rate: RateMax, FileSize: 8 << 20},
	} {
		dir := filepath.Join(t.TempDir(), "n")
		mode.Dir, mode.Timeout = dir, time.Minute
		n, err := startNeighbor(testLaunch(), mode)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := n.expect(msgReady); err != nil {
			t.Fatal(err)
		}
		n.cmd.Process.Signal(syscall.SIGTERM)
		err = n.cmd.Wait()
		n.reaped = true
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("%s: neighbor ended with %v, want exit status 1", mode.Mode, err)
		}
		if !strings.Contains(n.stderr.String(), "stopped by a signal (terminated)") {
			t.Errorf("%s: neighbor said %q", mode.Mode, n.stderr.String())
		}
		gone(t, dir)
	}
}

func TestNeighborAsksForSIGTERMOnParentDeath(t *testing.T) {
	if a := procAttr(); a == nil || a.Pdeathsig != syscall.SIGTERM {
		t.Errorf("procAttr() = %+v, want Pdeathsig SIGTERM", a)
	}
}
