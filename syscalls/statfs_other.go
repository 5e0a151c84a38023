//go:build !linux && !darwin

package syscalls

import (
	"fmt"
	"runtime"
)

// FreeSpace is not implemented here: durabench runs on Linux and macOS, and
// refuses to write what it cannot bound.
func FreeSpace(dir string) (uint64, error) {
	return 0, fmt.Errorf("free space of %s: not on %s: %w", dir, runtime.GOOS, ErrNotSupported)
}
