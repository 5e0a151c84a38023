//go:build linux

package neighbor

import "syscall"

// procAttr asks the kernel to send the neighbor SIGTERM when its parent
// dies (PR_SET_PDEATHSIG), so it removes its files even if we are killed
// with SIGKILL. The kernel ties this to the thread that forked, not the
// process: a neighbor must not be started from a goroutine that then ends
// while locked to its OS thread (that ends the thread, and the neighbor
// with it). Go's fork also checks that the parent did not die before the
// request took effect.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
