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
