//go:build !linux

package neighbor

import (
	"fmt"
	"runtime"

	"github.com/durabench/durabench/syscalls"
)

// dirtyBytes is not known here: only Linux publishes the page cache's dirty
// total (/proc/meminfo). Runs on other systems report it as unknown.
func dirtyBytes() (int64, error) {
	return 0, fmt.Errorf("neighbor: dirty page cache size: not on %s: %w", runtime.GOOS, syscalls.ErrNotSupported)
}
