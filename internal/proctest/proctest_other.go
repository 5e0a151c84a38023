//go:build !linux

package proctest

import "os/exec"

// DieWithParent does nothing on this OS: it has no parent-death signal, so a
// test binary that times out may leave the process running.
func DieWithParent(cmd *exec.Cmd) {}
