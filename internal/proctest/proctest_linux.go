//go:build linux

package proctest

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Ended reports whether pid has ended: it is gone from /proc, or dead or a
// zombie that nobody has reaped yet.
func Ended(pid int) bool {
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

// WaitEnded polls until pid has ended (see Ended) or within has passed, and
// reports whether it ended.
func WaitEnded(pid int, within time.Duration) bool {
	for deadline := time.Now().Add(within); !Ended(pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// DieWithParent makes cmd's process receive SIGKILL when the process that
// starts it ends, so that a test binary that times out or panics leaves no
// long run behind. Call it before cmd.Start.
func DieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
