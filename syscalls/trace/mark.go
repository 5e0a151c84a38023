//go:build unix

package trace

import "golang.org/x/sys/unix"

// MarkStart opens a counting window: a tracer asked to count only inside
// windows (Options.Window) counts the calls this process and its children
// make from here until MarkStop. Untraced, it costs one system call that
// fails at once (a write to descriptor -1), and it never fails itself.
func MarkStart() { _, _ = unix.Write(-1, markStart) }

// MarkStop closes the counting window that MarkStart opened.
func MarkStop() { _, _ = unix.Write(-1, markStop) }

// MarkAck tells a recording tracer that the program's commit number n has
// returned (see MarkAckPrefix). Call it right after the commit call returns
// success. Untraced, it costs one failing system call and an allocation.
func MarkAck(n uint64) { _, _ = unix.Write(-1, []byte(MarkAckText(n))) }
