package neighbor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/durabench/durabench/syscalls"
)

// A neighbor stopped with SIGSTOP never replies and its own timer never
// fires: the parent must kill it after its timeout (plus killGrace) and say
// so, instead of hanging (issue 10: "a stopped neighbor hangs the parent
// past --neighbor-timeout").
func TestStoppedNeighborIsKilledAfterItsTimeout(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to play a neighbor that stops itself")
	}
	cfg := testConfig(syscalls.Fsync)
	cfg.Timeout = 200 * time.Millisecond
	// The neighbor stops itself before saying anything; its own arguments
	// (the childConfig) become the shell's positional parameters.
	cfg.Launch = Launch{Path: "/bin/sh", Args: []string{"-c", "kill -STOP $$", "sh"}}
	run := newRun(t)
	nbrDir := run.Path("neighbor-000")
	if err := os.Mkdir(nbrDir, 0o755); err != nil { // as if it had made its directory
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := runBacklogCell(cfg, BacklogCell{Backlog: 0, Method: syscalls.Fsync},
			filepath.Join(run.Dir, "probe-000"), nbrDir)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute): // far past 200 ms + killGrace: the parent hangs
		t.Fatal("the parent still waits for a stopped neighbor a minute after its 200ms timeout")
	}
	if err == nil || !strings.Contains(err.Error(), "was killed") {
		t.Fatalf("cell error %v, want one saying the stopped neighbor was killed", err)
	}
	if _, err := os.Lstat(nbrDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed neighbor's directory is still there: %v", err)
	}
}
