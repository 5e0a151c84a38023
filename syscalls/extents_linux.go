//go:build linux

package syscalls

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// FIEMAP's layout, from linux/fiemap.h: a 32-byte header followed by 56-byte
// extents. FS_IOC_FIEMAP is _IOWR('f', 11, struct fiemap).
const (
	fsIOCFiemap     = 0xC020660B
	fiemapFlagSync  = 0x1 // sync the file before mapping, so delayed allocation shows
	fiemapHeaderLen = 32
	fiemapExtentLen = 56
	fiemapBatch     = 256
)

// Extents returns the file's extents as FIEMAP reports them, after syncing the
// file so that delayed allocations are mapped.
func Extents(f *File) ([]Extent, error) {
	var out []Extent
	// The buffer is made of uint64 so that the kernel's u64 fields are aligned.
	buf := make([]uint64, (fiemapHeaderLen+fiemapBatch*fiemapExtentLen)/8)
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), len(buf)*8)
	var start uint64
	for {
		clear(raw)
		ne := binary.NativeEndian
		ne.PutUint64(raw[0:], start)            // fm_start
		ne.PutUint64(raw[8:], ^uint64(0)-start) // fm_length: to the end
		ne.PutUint32(raw[16:], fiemapFlagSync)  // fm_flags
		ne.PutUint32(raw[24:], fiemapBatch)     // fm_extent_count
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(f.Fd), fsIOCFiemap, uintptr(unsafe.Pointer(&raw[0]))); errno != 0 {
			return nil, fmt.Errorf("fiemap %s: %w", f.Name(), errno)
		}
		mapped := int(ne.Uint32(raw[20:])) // fm_mapped_extents
		if mapped == 0 {
			return out, nil
		}
		for i := range mapped {
			e := raw[fiemapHeaderLen+i*fiemapExtentLen:]
			ext := Extent{
				Logical:  ne.Uint64(e[0:]),
				Physical: ne.Uint64(e[8:]),
				Length:   ne.Uint64(e[16:]),
				Flags:    ne.Uint32(e[40:]),
			}
			out = append(out, ext)
			if ext.Flags&ExtentLast != 0 {
				return out, nil
			}
			start = ext.Logical + ext.Length
		}
	}
}
