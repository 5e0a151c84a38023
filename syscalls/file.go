package syscalls

import (
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"
)

// ErrNotSupported is wrapped by calls this OS or file system cannot make.
var ErrNotSupported = errors.New("not supported on this OS")

// File is an open file with its descriptor resolved once, so that the timed
// loop calls the OS directly and allocates nothing.
type File struct {
	*os.File
	Fd int
}

// OpenFile opens path like os.OpenFile and resolves its descriptor.
func OpenFile(path string, flag int, perm os.FileMode) (*File, error) {
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		return nil, err
	}
	return &File{File: f, Fd: int(f.Fd())}, nil
}

// Sync makes the method's explicit sync call on f: fsync, fdatasync,
// sync_file_range, fcntl or os.File.Sync. For None, Dsync and Osync it does
// nothing (Dsync and Osync sync inside the write). It does not allocate.
func (f *File) Sync(m Method) error {
	switch m {
	case None, Dsync, Osync:
		return nil
	case GoStd:
		return f.File.Sync()
	}
	return platformSync(f.Fd, m)
}

// Pwrite writes all of b at offset off, looping over short writes. It does not
// allocate unless it fails.
func (f *File) Pwrite(b []byte, off int64) error {
	for len(b) > 0 {
		n, err := pwrite(f.Fd, b, off)
		if err != nil {
			return fmt.Errorf("pwrite %s at %d: %w", f.Name(), off, err)
		}
		if n == 0 {
			return fmt.Errorf("pwrite %s at %d: %w", f.Name(), off, io.ErrShortWrite)
		}
		b = b[n:]
		off += int64(n)
	}
	return nil
}

// AlignedBuffer returns a zeroed buffer of size bytes whose first byte lies on
// an align-byte boundary, as O_DIRECT needs. align must be a power of two.
func AlignedBuffer(size, align int) []byte {
	if align <= 0 || align&(align-1) != 0 {
		panic(fmt.Sprintf("syscalls: alignment %d is not a power of two", align))
	}
	raw := make([]byte, size+align)
	off := 0
	if rem := int(uintptr(unsafe.Pointer(unsafe.SliceData(raw))) & uintptr(align-1)); rem != 0 {
		off = align - rem
	}
	return raw[off : off+size : off+size]
}

// IsAligned reports whether b starts on an align-byte boundary and its length is
// a multiple of align.
func IsAligned(b []byte, align int) bool {
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return addr%uintptr(align) == 0 && len(b)%align == 0
}

// Extent is one mapping of a file's logical range to the device.
type Extent struct {
	Logical, Physical, Length uint64
	Flags                     uint32
}

// Extent flags, as Linux's FIEMAP reports them.
const (
	ExtentLast      = 0x1
	ExtentUnwritten = 0x800
)

// Unwritten reports whether the extent is allocated but not yet written: reads
// return zeros and the first write converts it.
func (e Extent) Unwritten() bool { return e.Flags&ExtentUnwritten != 0 }
