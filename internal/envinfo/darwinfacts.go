package envinfo

import (
	"fmt"
	"strings"
)

// This file holds darwin logic that needs no darwin system calls, so that it
// is tested on every OS.

// Darwin's statfs f_flags bits, from <sys/mount.h>. They are spelled out
// because x/sys defines them only on darwin; env_darwin.go checks them
// against x/sys at compile time.
const (
	darwinMntRdonly          = 0x00000001 // shown as "ro", and its absence as "rw"
	darwinMntSynchronous     = 0x00000002
	darwinMntNoexec          = 0x00000004
	darwinMntNosuid          = 0x00000008
	darwinMntNodev           = 0x00000010
	darwinMntUnion           = 0x00000020
	darwinMntAsync           = 0x00000040
	darwinMntCprotect        = 0x00000080
	darwinMntExported        = 0x00000100
	darwinMntRemovable       = 0x00000200
	darwinMntQuarantine      = 0x00000400
	darwinMntLocal           = 0x00001000
	darwinMntQuota           = 0x00002000
	darwinMntRootfs          = 0x00004000
	darwinMntDovolfs         = 0x00008000
	darwinMntDontbrowse      = 0x00100000
	darwinMntIgnoreOwnership = 0x00200000
	darwinMntAutomounted     = 0x00400000
	darwinMntJournaled       = 0x00800000
	darwinMntNouserxattr     = 0x01000000
	darwinMntDefwrite        = 0x02000000
	darwinMntMultilabel      = 0x04000000
	darwinMntNofollow        = 0x08000000
	darwinMntNoatime         = 0x10000000
	darwinMntSnapshot        = 0x40000000
	darwinMntStrictatime     = 0x80000000
)

// darwinMountFlags names the flags other than MNT_RDONLY, in bit order.
var darwinMountFlags = []struct {
	bit  uint32
	word string
}{
	{darwinMntSynchronous, "synchronous"},
	{darwinMntNoexec, "noexec"},
	{darwinMntNosuid, "nosuid"},
	{darwinMntNodev, "nodev"},
	{darwinMntUnion, "union"},
	{darwinMntAsync, "asynchronous"},
	{darwinMntCprotect, "content-protection"},
	{darwinMntExported, "exported"},
	{darwinMntRemovable, "removable"},
	{darwinMntQuarantine, "quarantine"},
	{darwinMntLocal, "local"},
	{darwinMntQuota, "quota"},
	{darwinMntRootfs, "rootfs"},
	{darwinMntDovolfs, "dovolfs"},
	{darwinMntDontbrowse, "nobrowse"},
	{darwinMntIgnoreOwnership, "noowners"},
	{darwinMntAutomounted, "automounted"},
	{darwinMntJournaled, "journaled"},
	{darwinMntNouserxattr, "nouserxattr"},
	{darwinMntDefwrite, "defwrite"},
	{darwinMntMultilabel, "multilabel"},
	{darwinMntNofollow, "nofollow"},
	{darwinMntNoatime, "noatime"},
	{darwinMntSnapshot, "snapshot"},
	{darwinMntStrictatime, "strictatime"},
}

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
