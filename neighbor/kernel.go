package neighbor

import "github.com/durabench/durabench/internal/envinfo"

// unknown marks a figure this OS or file system does not give.
const unknown = -1

// kernelView is what the kernel says around a timed interval: the dirty
// page cache and the device's written bytes. Neither read syncs anything.
type kernelView struct {
	dirty   int64 // page cache not yet on the device, machine-wide; unknown if not known
	written int64 // bytes the device under the run has written since boot; unknown if not known
}

// look reads the kernel's figures for the device under dir.
func look(dir string) kernelView {
	v := kernelView{dirty: unknown, written: unknown}
	if d, err := dirtyBytes(); err == nil {
		v.dirty = d
	}
	if s, err := envinfo.ReadDeviceStats(dir); err == nil {
		v.written = int64(s.SectorsWritten) * 512
	}
	return v
}

// writtenSince returns the device bytes written between v and later, or
// unknown.
func (v kernelView) writtenSince(later kernelView) int64 {
	if v.written == unknown || later.written == unknown {
		return unknown
	}
	return later.written - v.written
}
