package envinfo

import (
	"fmt"
	"strings"
)

// What this file assumes about storage: a sync on a file system that keeps
// data in memory, or hands it to a server or a user-space process, says
// nothing about a disk; a device the kernel believes to be write-through is
// sent no flushes; in a virtual machine the host decides what a flush does.

// writeThrough is the sysfs write_cache value of a device the kernel sends
// no flushes to ("write back" is the other).
const writeThrough = "write through"

// vmWarning is the warning for any virtual machine.
const vmWarning = "this is a virtual machine: the host decides whether a flush reaches the media; " +
	"a durable sync far faster than the device's flush time means it does not"

// fsWarnings says why figures measured in dir on a file system of type
// fsType (as Linux mountinfo or darwin statfs names it) may not mean
// durability on a disk. It returns nil for disk file systems.
func fsWarnings(fsType, dir string) []string {
	switch kind := fsKind(fsType); kind {
	case fsMemory:
		return []string{fmt.Sprintf("%s is %s: data lives in memory and sync is a no-op; "+
			"the figures say nothing about durability", dir, fsType)}
	case fsOverlay:
		return []string{fmt.Sprintf("%s is on %s, a layered (container) file system: writes and syncs go to "+
			"the file system under its upper layer, which this record does not describe; "+
			"measure in a mounted volume to see a real disk", dir, fsType)}
	case fsNetwork:
		return []string{fmt.Sprintf("%s is on %s, a network file system: a sync waits for the server, "+
			"and only the server knows whether the data reached its disks", dir, fsType)}
	case fsFUSE:
		return []string{fmt.Sprintf("%s is on %s, a FUSE file system: a sync means whatever its "+
			"user-space server makes of it", dir, fsType)}
	case fsHostShared:
		return []string{fmt.Sprintf("%s is on %s, shared from the host: whether a sync reaches the "+
			"host's disk is up to the host", dir, fsType)}
	}
	return nil
}

// writeThroughWarning is the warning for a device whose cache the kernel
// believes to be write-through.
func writeThroughWarning(dev string) string {
	return fmt.Sprintf("device %s reports its cache as write through: the kernel sends it no flush or FUA "+
		"requests, so a durable sync costs only the write, and the data is safe only if the device "+
		"really has no volatile cache", dev)
}

type fileSystemKind int

const (
	fsDisk fileSystemKind = iota // or unknown: nothing to warn about
	fsMemory
	fsOverlay
	fsNetwork
	fsFUSE
	fsHostShared
)

// fsKind classifies a file system type name from Linux or darwin.
func fsKind(fsType string) fileSystemKind {
	switch fsType {
	case "tmpfs", "ramfs", "devtmpfs", "hugetlbfs":
		return fsMemory
	case "overlay", "overlayfs", "aufs", "unionfs":
		return fsOverlay
	case "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "afs", "afpfs", "webdav", "lustre", "glusterfs":
		return fsNetwork
	case "fuse", "fuseblk", "macfuse", "osxfuse", "fuse-t":
		return fsFUSE
	case "virtiofs":
		return fsHostShared
	}
	if strings.HasPrefix(fsType, "fuse.") {
		return fsFUSE
	}
	return fsDisk
}
