package envinfo

import (
	"fmt"
	"strings"
)

// This file holds darwin logic that needs no darwin system calls, so that it
// is tested on every OS.

// darwinMountFlags names the statfs f_flags bits of <sys/mount.h>, in bit
// order. The values are spelled out because x/sys defines them only on
// darwin; env_darwin.go checks them against x/sys at compile time.
var darwinMountFlags = []struct {
	bit  uint32
	word string
}{
	{0x00000002, "synchronous"},
	{0x00000004, "noexec"},
	{0x00000008, "nosuid"},
	{0x00000010, "nodev"},
	{0x00000020, "union"},
	{0x00000040, "asynchronous"},
	{0x00000080, "content-protection"},
	{0x00000100, "exported"},
	{0x00000200, "removable"},
	{0x00000400, "quarantine"},
	{0x00001000, "local"},
	{0x00002000, "quota"},
	{0x00004000, "rootfs"},
	{0x00008000, "dovolfs"},
	{0x00100000, "nobrowse"},
	{0x00200000, "noowners"},
	{0x00400000, "automounted"},
	{0x00800000, "journaled"},
	{0x01000000, "nouserxattr"},
	{0x02000000, "defwrite"},
	{0x04000000, "multilabel"},
	{0x08000000, "nofollow"},
	{0x10000000, "noatime"},
	{0x40000000, "snapshot"},
	{0x80000000, "strictatime"},
}

// darwinMntRdonly is MNT_RDONLY, shown as "ro" (and its absence as "rw").
const darwinMntRdonly = 0x00000001

// darwinMountOptions turns darwin statfs flags into comma-separated option
// words, "ro" or "rw" first; bits it does not know are shown in hex.
func darwinMountOptions(flags uint32) string {
	words := []string{"rw"}
	if flags&darwinMntRdonly != 0 {
		words[0] = "ro"
	}
	rest := flags &^ darwinMntRdonly
	for _, f := range darwinMountFlags {
		if rest&f.bit != 0 {
			words = append(words, f.word)
			rest &^= f.bit
		}
	}
	if rest != 0 {
		words = append(words, fmt.Sprintf("%#x", rest))
	}
	return strings.Join(words, ",")
}

// darwinVirt reads the answer of sysctl kern.hv_vmm_present (1 inside a
// virtual machine) into the Virtualization text and the VM flag.
func darwinVirt(present uint32, err error) (text string, vm bool) {
	switch {
	case err != nil:
		return fmt.Sprintf("unknown (sysctl kern.hv_vmm_present: %v)", err), false
	case present != 0:
		return "vm (kern.hv_vmm_present=1)", true
	default:
		return "none found (kern.hv_vmm_present=0)", false
	}
}

// deviceFromSource names the device of a mount source such as
// "/dev/disk3s1s1", or returns "" if the source is not a device node.
func deviceFromSource(source string) string {
	name, ok := strings.CutPrefix(source, "/dev/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return ""
	}
	return name
}
