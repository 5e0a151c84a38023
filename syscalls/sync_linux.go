//go:build linux

package syscalls

import (
	"fmt"

	"golang.org/x/sys/unix"
)

const osName = "linux"

var platform = withOpenFlags(linuxMethods, unix.O_DSYNC, unix.O_SYNC)

const syncFileRangeFlags = unix.SYNC_FILE_RANGE_WAIT_BEFORE | unix.SYNC_FILE_RANGE_WRITE | unix.SYNC_FILE_RANGE_WAIT_AFTER

func platformSync(fd int, m Method) error {
	var err error
	switch m {
	case Fsync:
		err = unix.Fsync(fd)
	case Fdatasync:
		err = unix.Fdatasync(fd)
	case SyncFileRange:
		err = unix.SyncFileRange(fd, 0, 0, syncFileRangeFlags)
	default:
		return fmt.Errorf("sync %s: %w", m, ErrNotSupported)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", m, err)
	}
	return nil
}

func pwrite(fd int, b []byte, off int64) (int, error) { return unix.Pwrite(fd, b, off) }

// DirectOpenFlag is the open flag that bypasses the page cache: O_DIRECT on
// Linux. On darwin it is 0 and SetDirect sets F_NOCACHE instead.
const DirectOpenFlag = unix.O_DIRECT

// SetDirect turns off caching for an open file. On Linux direct I/O is chosen
// at open time with DirectOpenFlag, so SetDirect does nothing.
func SetDirect(f *File) error { return nil }

// Preallocate reserves size bytes for f with fallocate(2) mode 0, which also
// sets the file size. The new blocks are unwritten extents.
func Preallocate(f *File, size int64) error {
	if err := unix.Fallocate(f.Fd, 0, 0, size); err != nil {
		return fmt.Errorf("fallocate %s to %d bytes: %w", f.Name(), size, err)
	}
	return nil
}

// DropCache asks the kernel to drop f's clean pages from the page cache
// (posix_fadvise POSIX_FADV_DONTNEED), so later reads and overwrites start cold.
func DropCache(f *File) error {
	if err := unix.Fadvise(f.Fd, 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("fadvise DONTNEED %s: %w", f.Name(), err)
	}
	return nil
}
