//go:build !linux && !darwin

package neighbor

import (
	"fmt"
	"runtime"

	"github.com/durabench/durabench/syscalls"
)

// freeSpace is not implemented here: durabench neighbor runs on Linux and
// macOS, and refuses to write a backlog it cannot bound.
func freeSpace(dir string) (uint64, error) {
	return 0, fmt.Errorf("free space of %s: not on %s: %w", dir, runtime.GOOS, syscalls.ErrNotSupported)
}
