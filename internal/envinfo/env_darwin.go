package envinfo

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// darwinfacts.go spells darwin's MNT_* values out so that its option table
// is tested on every OS. Each line below fails to compile (a negative
// constant overflows uint32) if x/sys disagrees with one of them. (x/sys
// lacks MNT_NOFOLLOW.)
const (
	_ = uint32(darwinMntRdonly-unix.MNT_RDONLY) + uint32(unix.MNT_RDONLY-darwinMntRdonly)
	_ = uint32(darwinMntSynchronous-unix.MNT_SYNCHRONOUS) + uint32(unix.MNT_SYNCHRONOUS-darwinMntSynchronous)
	_ = uint32(darwinMntNoexec-unix.MNT_NOEXEC) + uint32(unix.MNT_NOEXEC-darwinMntNoexec)
	_ = uint32(darwinMntNosuid-unix.MNT_NOSUID) + uint32(unix.MNT_NOSUID-darwinMntNosuid)
	_ = uint32(darwinMntNodev-unix.MNT_NODEV) + uint32(unix.MNT_NODEV-darwinMntNodev)
	_ = uint32(darwinMntUnion-unix.MNT_UNION) + uint32(unix.MNT_UNION-darwinMntUnion)
	_ = uint32(darwinMntAsync-unix.MNT_ASYNC) + uint32(unix.MNT_ASYNC-darwinMntAsync)
	_ = uint32(darwinMntCprotect-unix.MNT_CPROTECT) + uint32(unix.MNT_CPROTECT-darwinMntCprotect)
	_ = uint32(darwinMntExported-unix.MNT_EXPORTED) + uint32(unix.MNT_EXPORTED-darwinMntExported)
	_ = uint32(darwinMntRemovable-unix.MNT_REMOVABLE) + uint32(unix.MNT_REMOVABLE-darwinMntRemovable)
	_ = uint32(darwinMntQuarantine-unix.MNT_QUARANTINE) + uint32(unix.MNT_QUARANTINE-darwinMntQuarantine)
	_ = uint32(darwinMntLocal-unix.MNT_LOCAL) + uint32(unix.MNT_LOCAL-darwinMntLocal)
	_ = uint32(darwinMntQuota-unix.MNT_QUOTA) + uint32(unix.MNT_QUOTA-darwinMntQuota)
	_ = uint32(darwinMntRootfs-unix.MNT_ROOTFS) + uint32(unix.MNT_ROOTFS-darwinMntRootfs)
	_ = uint32(darwinMntDovolfs-unix.MNT_DOVOLFS) + uint32(unix.MNT_DOVOLFS-darwinMntDovolfs)
	_ = uint32(darwinMntDontbrowse-unix.MNT_DONTBROWSE) + uint32(unix.MNT_DONTBROWSE-darwinMntDontbrowse)
	_ = uint32(darwinMntIgnoreOwnership-unix.MNT_IGNORE_OWNERSHIP) + uint32(unix.MNT_IGNORE_OWNERSHIP-darwinMntIgnoreOwnership)
	_ = uint32(darwinMntAutomounted-unix.MNT_AUTOMOUNTED) + uint32(unix.MNT_AUTOMOUNTED-darwinMntAutomounted)
	_ = uint32(darwinMntJournaled-unix.MNT_JOURNALED) + uint32(unix.MNT_JOURNALED-darwinMntJournaled)
	_ = uint32(darwinMntNouserxattr-unix.MNT_NOUSERXATTR) + uint32(unix.MNT_NOUSERXATTR-darwinMntNouserxattr)
	_ = uint32(darwinMntDefwrite-unix.MNT_DEFWRITE) + uint32(unix.MNT_DEFWRITE-darwinMntDefwrite)
	_ = uint32(darwinMntMultilabel-unix.MNT_MULTILABEL) + uint32(unix.MNT_MULTILABEL-darwinMntMultilabel)
	_ = uint32(darwinMntNoatime-unix.MNT_NOATIME) + uint32(unix.MNT_NOATIME-darwinMntNoatime)
	_ = uint32(darwinMntSnapshot-unix.MNT_SNAPSHOT) + uint32(unix.MNT_SNAPSHOT-darwinMntSnapshot)
	_ = uint32(darwinMntStrictatime-unix.MNT_STRICTATIME) + uint32(unix.MNT_STRICTATIME-darwinMntStrictatime)
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
