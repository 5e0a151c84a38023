//go:build darwin

package syscalls

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

const osName = "darwin"

var platform = withOpenFlags(darwinMethods, unix.O_DSYNC, unix.O_SYNC)

func platformSync(fd int, m Method) error {
	var err error
	switch m {
	case Fsync:
		err = unix.Fsync(fd)
	case Fdatasync:
		err = fdatasync(fd)
	case Barrier:
		_, err = unix.FcntlInt(uintptr(fd), unix.F_BARRIERFSYNC, 0)
	case Full:
		_, err = unix.FcntlInt(uintptr(fd), unix.F_FULLFSYNC, 0)
	default:
		return fmt.Errorf("sync %s: %w", m, ErrNotSupported)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", m, err)
	}
	return nil
}

// fdatasync calls darwin's undeclared fdatasync system call.
func fdatasync(fd int) error {
	if _, _, e := syscall.Syscall(syscall.SYS_FDATASYNC, uintptr(fd), 0, 0); e != 0 {
		return e
	}
	return nil
}

func pwrite(fd int, b []byte, off int64) (int, error) { return unix.Pwrite(fd, b, off) }

// DirectOpenFlag is 0 on darwin, which has no O_DIRECT: SetDirect sets
// F_NOCACHE on the open file instead.
const DirectOpenFlag = 0

// SetDirect turns off the unified buffer cache for f with fcntl(F_NOCACHE, 1).
func SetDirect(f *File) error {
	if _, err := unix.FcntlInt(uintptr(f.Fd), unix.F_NOCACHE, 1); err != nil {
		return fmt.Errorf("fcntl F_NOCACHE %s: %w", f.Name(), err)
	}
	return nil
}

// Preallocate reserves size bytes for f with fcntl(F_PREALLOCATE), contiguous if
// possible, then sets the size with ftruncate, as F_PREALLOCATE does not.
func Preallocate(f *File, size int64) error {
	st := unix.Fstore_t{Flags: unix.F_ALLOCATECONTIG | unix.F_ALLOCATEALL, Posmode: unix.F_PEOFPOSMODE, Length: size}
	if err := unix.FcntlFstore(uintptr(f.Fd), unix.F_PREALLOCATE, &st); err != nil {
		st.Flags = unix.F_ALLOCATEALL
		if err := unix.FcntlFstore(uintptr(f.Fd), unix.F_PREALLOCATE, &st); err != nil {
			return fmt.Errorf("fcntl F_PREALLOCATE %s to %d bytes: %w", f.Name(), size, err)
		}
	}
	if err := unix.Ftruncate(f.Fd, size); err != nil {
		return fmt.Errorf("ftruncate %s to %d bytes: %w", f.Name(), size, err)
	}
	return nil
}

// DropCache does nothing on darwin, which has no per-file advice to drop clean
// pages; files opened for direct I/O bypass the cache through SetDirect.
func DropCache(f *File) error { return nil }
