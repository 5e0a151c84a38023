//go:build unix && !linux && !darwin

package syscalls

import (
	"fmt"
	"runtime"
	"syscall"
)

var osName = runtime.GOOS

// Only the portable methods exist elsewhere: durabench measures Linux and macOS.
var platform = [numMethods]methodInfo{
	None:  {available: true, syscall: "pwrite(2) only", promise: PromiseNone},
	Fsync: {available: true, syscall: "fsync(2)", promise: PromiseHandedOff},
	GoStd: {available: true, syscall: "os.File.Sync", promise: PromiseHandedOff},
}

func platformSync(fd int, m Method) error {
	if m == Fsync {
		return syscall.Fsync(fd)
	}
	return fmt.Errorf("sync %s: %w", m, ErrNotSupported)
}

func pwrite(fd int, b []byte, off int64) (int, error) { return syscall.Pwrite(fd, b, off) }

// DirectOpenFlag is 0: direct I/O is not supported here.
const DirectOpenFlag = 0

// SetDirect is not supported here.
func SetDirect(f *File) error { return fmt.Errorf("direct I/O: %w", ErrNotSupported) }

// Preallocate is not supported here.
func Preallocate(f *File, size int64) error { return fmt.Errorf("preallocate: %w", ErrNotSupported) }

// DropCache does nothing here.
func DropCache(f *File) error { return nil }

// Extents is not supported here.
func Extents(f *File) ([]Extent, error) { return nil, fmt.Errorf("extents: %w", ErrNotSupported) }
