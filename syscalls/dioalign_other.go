//go:build !linux

package syscalls

// DirectIOAlignment returns zeros, meaning no requirement is known: darwin's
// F_NOCACHE puts no alignment rule on buffers or offsets, and other systems
// are not asked.
func DirectIOAlignment(f *File) (mem, off int, err error) { return 0, 0, nil }
