package envinfo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// collectPlatform fills in what Linux tells through uname, statfs, /proc
// and /sys.
func collectPlatform(e *Env) error {
	var uts unix.Utsname
	if err := unix.Uname(&uts); err != nil {
		e.note("kernel unknown: uname: %v", err)
	} else {
		e.Kernel = unix.ByteSliceToString(uts.Release[:]) + " " + unix.ByteSliceToString(uts.Version[:])
	}
	var st unix.Stat_t
	if err := unix.Stat(e.Dir, &st); err != nil {
		return fmt.Errorf("envinfo: stat %s: %w", e.Dir, err)
	}
	var sfs unix.Statfs_t
	magic, statfsErr := uint32(0), unix.Statfs(e.Dir, &sfs)
	if statfsErr != nil {
		e.note("statfs %s: %v", e.Dir, statfsErr)
	} else {
		magic = uint32(sfs.Type)
	}
	h := host{
		proc:      os.DirFS("/proc"),
		sys:       os.DirFS("/sys"),
		root:      os.DirFS("/"),
		dirDev:    st.Dev,
		fsMagic:   magic,
		sourceDev: blockDeviceNumber,
	}
	h.fill(e)
	return nil
}

// host holds what Linux collection reads, so that tests can substitute it.
type host struct {
	proc, sys, root fs.FS  // /proc, /sys and /
	dirDev          uint64 // st_dev of Env.Dir
	fsMagic         uint32 // statfs f_type of Env.Dir; 0 if unknown
	// sourceDev returns the device number of a block device node, for file
	// systems (btrfs) whose st_dev is not their device's.
	sourceDev func(path string) (uint64, bool)
}

// fill records CPU, virtualisation, mount and device facts of e.Dir, noting
// what it cannot find, and adds the warnings only Linux can give.
func (h host) fill(e *Env) {
	if b, err := fs.ReadFile(h.proc, "cpuinfo"); err != nil {
		e.note("CPU model unknown: %v", err)
		e.fillVirt(detectVirt(cpuInfo{}, h.sys, h.proc, h.root))
	} else {
		cpu := parseCPUInfo(string(b))
		e.CPU = cpu.model
		e.fillVirt(detectVirt(cpu, h.sys, h.proc, h.root))
	}

	m, err := h.mount(e.Dir)
	if err != nil {
		e.note("file system unknown: %v", err)
		return
	}
	e.FSType, e.MountPoint, e.MountSource = m.fsType, m.mountPoint, m.source
	e.MountOptions, e.SuperOptions = m.options, m.superOptions
	if name, known := fsMagicNames[h.fsMagic]; h.fsMagic != 0 && known && !sameFS(name, m.fsType) {
		e.note("mountinfo says %s is %s but statfs says %s", e.Dir, m.fsType, name)
	}
	if hasOption(m.superOptions, "nobarrier") || hasOption(m.superOptions, "barrier=0") {
		e.Warnings = append(e.Warnings, fmt.Sprintf("%s is mounted without write barriers (%s): "+
			"the file system sends no cache flushes, so a sync does not make data durable on a write-back cache",
			m.mountPoint, m.superOptions))
	}
	h.device(e, m)
}

func (e *Env) fillVirt(v virtInfo) {
	e.Virtualization, e.VM, e.Container = v.text, v.vm, v.container
}

// mount finds the mount holding dir (absolute, symbolic links resolved) in
// /proc/self/mountinfo.
func (h host) mount(dir string) (mountEntry, error) {
	b, err := fs.ReadFile(h.proc, "self/mountinfo")
	if err != nil {
		return mountEntry{}, err
	}
	mounts, err := parseMountinfo(bytes.NewReader(b))
	if err != nil {
		return mountEntry{}, err
	}
	m, ok := findMount(mounts, dir, unix.Major(h.dirDev), unix.Minor(h.dirDev))
	if !ok {
		return mountEntry{}, fmt.Errorf("no mount in /proc/self/mountinfo holds %s", dir)
	}
	return m, nil
}

// blockDevice finds the block device under mount m: the one numbered by the
// directory's st_dev, or else the one its source names.
func (h host) blockDevice(m mountEntry) (blockDevice, error) {
	b, err := resolveBlockDevice(h.sys, unix.Major(h.dirDev), unix.Minor(h.dirDev))
	if err != nil && strings.HasPrefix(m.source, "/dev/") {
		if rdev, ok := h.sourceDev(m.source); ok {
			return resolveBlockDevice(h.sys, unix.Major(rdev), unix.Minor(rdev))
		}
	}
	return b, err
}

// device records the facts of the block device under mount m.
func (h host) device(e *Env, m mountEntry) {
	b, err := h.blockDevice(m)
	switch {
	case errors.Is(err, ErrNoBlockDevice):
		e.note("no block device: %s from %s is not backed by one", m.fsType, m.source)
		return
	case err != nil:
		e.note("block device unknown for %s from %s: %v", m.fsType, m.source, err)
		return
	}
	e.Device, e.DeviceStack, e.DeviceMembers = b.disk(), b.stack, b.members
	q, missing := readQueue(h.sys, e.Device)
	e.LogicalBlock, e.PhysicalBlock = q.logical, q.physical
	e.Rotational, e.FUA, e.WriteCache, e.DeviceModel = q.rotational, q.fua, q.writeCache, q.model
	if len(missing) > 0 {
		e.note("sysfs lacks for %s: %s", e.Device, strings.Join(missing, ", "))
	}
	if memoryDevice(e.Device) {
		e.Warnings = append(e.Warnings, fmt.Sprintf("device %s is a RAM disk: data lives in memory; "+
			"the figures say nothing about durability", e.Device))
	}
	if q.loopBacking != "" {
		e.Warnings = append(e.Warnings, fmt.Sprintf("device %s is a loop device backed by the file %s: "+
			"its flushes become syncs of that file, on a file system this record does not describe",
			e.Device, q.loopBacking))
	}
}

// blockDeviceNumber returns the device number of the block device node at
// path.
func blockDeviceNumber(path string) (uint64, bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return 0, false
	}
	return st.Rdev, true
}

// fsMagicNames names statfs f_type values, to cross-check mountinfo.
var fsMagicNames = map[uint32]string{
	unix.EXT4_SUPER_MAGIC:      "ext4",
	unix.XFS_SUPER_MAGIC:       "xfs",
	unix.BTRFS_SUPER_MAGIC:     "btrfs",
	unix.F2FS_SUPER_MAGIC:      "f2fs",
	unix.TMPFS_MAGIC:           "tmpfs",
	unix.RAMFS_MAGIC:           "ramfs",
	unix.OVERLAYFS_SUPER_MAGIC: "overlay",
	unix.NFS_SUPER_MAGIC:       "nfs",
	unix.FUSE_SUPER_MAGIC:      "fuse",
	unix.V9FS_MAGIC:            "9p",
	unix.CIFS_SUPER_MAGIC:      "cifs",
	unix.SMB2_SUPER_MAGIC:      "smb3",
}

// sameFS reports whether statfs's name for a file system agrees with
// mountinfo's type: ext2, ext3 and ext4 share a magic number, as do NFS
// versions, and FUSE types carry a subtype.
func sameFS(magicName, fsType string) bool {
	switch magicName {
	case "ext4":
		return fsType == "ext2" || fsType == "ext3" || fsType == "ext4"
	case "nfs":
		return strings.HasPrefix(fsType, "nfs")
	case "fuse":
		return fsKind(fsType) == fsFUSE || fsType == "virtiofs"
	case "smb3":
		return fsType == "smb3" || fsType == "cifs"
	}
	return magicName == fsType
}

// hasOption reports whether comma-separated options contain opt.
func hasOption(options, opt string) bool {
	for o := range strings.SplitSeq(options, ",") {
		if o == opt {
			return true
		}
	}
	return false
}

// readDeviceStats reads /proc/diskstats for the whole device under dir.
func readDeviceStats(dir string) (DeviceStats, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	var st unix.Stat_t
	if err == nil {
		err = unix.Stat(real, &st)
	}
	if err != nil {
		return DeviceStats{}, fmt.Errorf("envinfo: device counters for %s: %w", dir, err)
	}
	h := host{proc: os.DirFS("/proc"), sys: os.DirFS("/sys"), dirDev: st.Dev, sourceDev: blockDeviceNumber}
	m, err := h.mount(real)
	if err != nil {
		return DeviceStats{}, fmt.Errorf("envinfo: device counters for %s: %w", dir, err)
	}
	b, err := h.blockDevice(m)
	if err != nil {
		return DeviceStats{}, fmt.Errorf("envinfo: device counters for %s (%s from %s): %w", dir, m.fsType, m.source, err)
	}
	f, err := os.Open("/proc/diskstats")
	if err != nil {
		return DeviceStats{}, fmt.Errorf("envinfo: device counters for %s: %w", dir, err)
	}
	defer f.Close()
	s, err := parseDiskstats(f, b.disk())
	if err != nil {
		return DeviceStats{}, fmt.Errorf("envinfo: device counters for %s: %w", dir, err)
	}
	return s, nil
}
