//go:build !linux && !darwin

package envinfo

import (
	"fmt"
	"runtime"
)

// collectPlatform records that this OS has no collector: the portable facts
// (OS, CPU count, Go version, directory, command line) are all there is.
func collectPlatform(e *Env) error {
	e.note("kernel, CPU model, file system, device and virtualisation facts are not collected on %s", runtime.GOOS)
	return nil
}

// readDeviceStats has no source on this OS.
func readDeviceStats(dir string) (DeviceStats, error) {
	return DeviceStats{}, fmt.Errorf("envinfo: device counters for %s on %s: %w", dir, runtime.GOOS, ErrNotSupported)
}
