package interpose

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// procPath returns the name through which other processes of this user can
// open f while this process holds it, /proc/PID/fd/N, if this system has
// one that works.
func procPath(f *os.File) (string, bool) {
	p := fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), f.Fd())
	g, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		return "", false
	}
	g.Close()
	return p, true
}

// dieWithParent has the kernel SIGKILL cmd when the thread that starts it
// exits (PR_SET_PDEATHSIG): with the thread locked until cmd ends, that is
// when this process ends, by any signal.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
