//go:build darwin

package syscalls

import "fmt"

// Extents is not available on darwin, which has no FIEMAP; file states there
// are checked by size and contents only.
func Extents(f *File) ([]Extent, error) {
	return nil, fmt.Errorf("extents of %s: FIEMAP is Linux-only: %w", f.Name(), ErrNotSupported)
}
