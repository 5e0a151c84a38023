//go:build linux || darwin

package syscalls

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// FreeSpace returns the bytes available to unprivileged users on the file
// system holding dir (statfs f_bavail × f_bsize).
func FreeSpace(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("statfs %s: %w", dir, err)
	}
	return st.Bavail * uint64(st.Bsize), nil
}
