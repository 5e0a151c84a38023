package envinfo

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// The option table in darwinfacts.go spells darwin's MNT_* values out so
// that it is tested on every OS; these constants fail to compile (a negative
// value overflows uint32) if x/sys ever disagrees with it.
const (
	_ = uint32(darwinMntRdonly-unix.MNT_RDONLY) + uint32(unix.MNT_RDONLY-darwinMntRdonly)
	_ = uint32(0x2-unix.MNT_SYNCHRONOUS) + uint32(unix.MNT_SYNCHRONOUS-0x2)
	_ = uint32(0x40-unix.MNT_ASYNC) + uint32(unix.MNT_ASYNC-0x40)
	_ = uint32(0x1000-unix.MNT_LOCAL) + uint32(unix.MNT_LOCAL-0x1000)
	_ = uint32(0x100000-unix.MNT_DONTBROWSE) + uint32(unix.MNT_DONTBROWSE-0x100000)
	_ = uint32(0x800000-unix.MNT_JOURNALED) + uint32(unix.MNT_JOURNALED-0x800000)
	_ = uint32(0x10000000-unix.MNT_NOATIME) + uint32(unix.MNT_NOATIME-0x10000000)
	_ = uint32(0x40000000-unix.MNT_SNAPSHOT) + uint32(unix.MNT_SNAPSHOT-0x40000000)
)

// collectPlatform fills in what darwin tells through uname, sysctl and
// statfs. Block-device facts need IOKit and are left empty.
func collectPlatform(e *Env) error {
	var uts unix.Utsname
	if err := unix.Uname(&uts); err != nil {
		e.note("kernel unknown: uname: %v", err)
	} else {
		e.Kernel = unix.ByteSliceToString(uts.Release[:]) + " " + unix.ByteSliceToString(uts.Version[:])
	}
	cpu, err := unix.Sysctl("machdep.cpu.brand_string")
	if err != nil {
		e.note("CPU model unknown: sysctl machdep.cpu.brand_string: %v", err)
	}
	e.CPU = cpu
	e.Virtualization, e.VM = darwinVirt(unix.SysctlUint32("kern.hv_vmm_present"))

	var st unix.Statfs_t
	if err := unix.Statfs(e.Dir, &st); err != nil {
		return fmt.Errorf("envinfo: statfs %s: %w", e.Dir, err)
	}
	e.FSType = unix.ByteSliceToString(st.Fstypename[:])
	e.MountPoint = unix.ByteSliceToString(st.Mntonname[:])
	e.MountSource = unix.ByteSliceToString(st.Mntfromname[:])
	e.MountOptions = darwinMountOptions(st.Flags)
	e.Device = deviceFromSource(e.MountSource)
	if e.Device != "" {
		e.DeviceStack = []string{e.Device}
	}
	e.note("block sizes, rotational, write cache and FUA of the device are not collected on darwin (they need IOKit)")
	return nil
}

// readDeviceStats has no darwin source: the I/O counters live in IOKit.
func readDeviceStats(dir string) (DeviceStats, error) {
	return DeviceStats{}, fmt.Errorf("envinfo: device counters for %s: %w", dir, ErrNotSupported)
}
