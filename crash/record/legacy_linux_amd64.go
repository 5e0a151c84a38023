package record

import (
	"golang.org/x/sys/unix"

	"github.com/durabench/durabench/syscalls/trace"
)

// legacyCall translates amd64's path calls without a directory descriptor
// (open, creat, mkdir, unlink, rmdir, rename, link, symlink) into their *at
// forms; arm64 has only the *at forms.
func legacyCall(c *trace.Call) (pathCall, bool) {
	a := c.Args
	switch c.Nr {
	case unix.SYS_OPEN:
		return pathCall{kind: kOpen, dirfd: atCWD, path: a[0], flags: a[1]}, true
	case unix.SYS_CREAT:
		return pathCall{kind: kOpen, dirfd: atCWD, path: a[0], flags: unix.O_CREAT | unix.O_WRONLY | unix.O_TRUNC}, true
	case unix.SYS_MKDIR:
		return pathCall{kind: kMkdir, dirfd: atCWD, path: a[0]}, true
	case unix.SYS_UNLINK:
		return pathCall{kind: kUnlink, dirfd: atCWD, path: a[0]}, true
	case unix.SYS_RMDIR:
		return pathCall{kind: kUnlink, dirfd: atCWD, path: a[0], flags: unix.AT_REMOVEDIR}, true
	case unix.SYS_RENAME:
		return pathCall{kind: kRename, dirfd: atCWD, path: a[0], dirfd2: atCWD, path2: a[1]}, true
	case unix.SYS_LINK:
		return pathCall{kind: kLink, dirfd: atCWD, path: a[1], name: "link"}, true
	case unix.SYS_SYMLINK:
		return pathCall{kind: kLink, dirfd: atCWD, path: a[1], name: "symlink"}, true
	}
	return pathCall{}, false
}
