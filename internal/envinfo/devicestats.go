package envinfo

import "errors"

// ErrNoBlockDevice is wrapped by the errors of ReadDeviceStats and
// DeviceFlushes when the directory's file system is not on a block device
// (tmpfs, a network or FUSE file system): there is nothing to count.
var ErrNoBlockDevice = errors.New("file system is not on a block device")

// DeviceStats holds cumulative I/O counters of a block device since boot.
type DeviceStats struct {
	Device           string // the whole device, as in Env.Device
	WritesCompleted  uint64 // write requests completed
	SectorsWritten   uint64 // in 512-byte units, whatever the device's sector size
	FlushesCompleted uint64 // cache flush requests completed
}

// ReadDeviceStats returns the counters of the block device under dir (the
// device named by Env.Device). Read it before and after a case to see how
// many writes and flushes reached the device. Only Linux has these counters;
// elsewhere the error wraps ErrNotSupported.
func ReadDeviceStats(dir string) (DeviceStats, error) {
	return readDeviceStats(dir)
}

// DeviceFlushes returns the number of flush requests the block device under
// dir has completed since boot: on Linux, the "flush requests completed
// successfully" counter of /proc/diskstats for the whole device. Elsewhere
// the error wraps ErrNotSupported.
func DeviceFlushes(dir string) (uint64, error) {
	s, err := readDeviceStats(dir)
	return s.FlushesCompleted, err
}
