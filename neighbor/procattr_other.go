//go:build !linux

package neighbor

import "syscall"

// procAttr sets nothing: only Linux can signal a child when its parent dies.
// Elsewhere the neighbor notices its parent is gone when its command pipe
// closes (see readCommands).
func procAttr() *syscall.SysProcAttr { return nil }
