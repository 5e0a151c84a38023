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

	"golang.org/x/sys/unix"
)

// exited reports whether pid has ended: it is gone, or a zombie nobody has
// reaped yet (the test process is a subreaper, so orphans come to it).
func exited(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses, which may hold
	// spaces: "pid (comm) S ...".
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}

// awaitExit polls until pid has ended, failing after deadline, and reaps
// it if it is ours.
func awaitExit(t *testing.T, pid int, deadline time.Duration) {
	t.Helper()
	end := time.Now().Add(deadline)
	for !exited(pid) {
		if time.Now().After(end) {
			t.Fatalf("neighbour %d still alive %v after its parent died", pid, deadline)
		}
		time.Sleep(5 * time.Millisecond)
	}
	var ws unix.WaitStatus
	unix.Wait4(pid, &ws, unix.WNOHANG, nil)
}

// TestNeighbourDiesWithItsParent: a parent that starts a neighbour and is
// then killed with SIGKILL (no chance to clean up) leaves neither the
// neighbour process nor its files behind.
func TestNeighbourDiesWithItsParent(t *testing.T) {
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
		t.Fatalf("neighbour's 8 MiB backlog before the kill: %v, %v", st, err)
	}
	if exited(pid) {
		t.Fatal("neighbour already gone before its parent was killed")
	}

	parent.Process.Signal(syscall.SIGKILL)
	parent.Wait()
	awaitExit(t, pid, 20*time.Second)
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("neighbour's directory %s survived: %v", dir, err)
	}
	if names := entries(t, base); len(names) != 0 {
		t.Errorf("left behind: %v", names)
	}
}

// TestSIGTERMRemovesNeighbourFiles: SIGTERM, which Linux sends when the
// parent dies, makes the neighbour remove its files and exit, even while its
// command pipe stays open.
func TestSIGTERMRemovesNeighbourFiles(t *testing.T) {
	for _, mode := range []childConfig{
		{Mode: modeBacklog, Bytes: 8 << 20},
		{Mode: modeStream, Rate: RateMax, FileSize: 8 << 20},
	} {
		dir := filepath.Join(t.TempDir(), "n")
		mode.Dir, mode.Timeout = dir, time.Minute
		n, err := startNeighbour(testLaunch(), mode)
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
			t.Errorf("%s: neighbour ended with %v, want exit status 1", mode.Mode, err)
		}
		if !strings.Contains(n.stderr.String(), "stopped by a signal (terminated)") {
			t.Errorf("%s: neighbour said %q", mode.Mode, n.stderr.String())
		}
		gone(t, dir)
	}
}

func TestNeighbourAsksForSIGTERMOnParentDeath(t *testing.T) {
	if a := procAttr(); a == nil || a.Pdeathsig != syscall.SIGTERM {
		t.Errorf("procAttr() = %+v, want Pdeathsig SIGTERM", a)
	}
}
