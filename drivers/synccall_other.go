//go:build !linux

package drivers

import (
	"errors"
	"runtime"
)

// SystemSyncCall says which system call the system engine's library makes
// for a sync; it is answered from the library's ELF symbols, on Linux only.
func SystemSyncCall(opts Options) (call, file string, err error) {
	return "", "", errors.New("drivers: which sync call the system library makes is read from ELF symbols, on Linux only, not on " + runtime.GOOS)
}
