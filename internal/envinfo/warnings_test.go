package envinfo

import (
	"errors"
	"strings"
	"testing"
)

func TestFSWarnings(t *testing.T) {
	for _, tc := range []struct {
		fsType string
		want   string // substring of the only warning; "" for none
	}{
		{"ext4", ""},
		{"apfs", ""},
		{"xfs", ""},
		{"", ""},
		{"tmpfs", "/d is tmpfs: data lives in memory and sync is a no-op; the figures say nothing about durability"},
		{"ramfs", "/d is ramfs: data lives in memory"},
		{"overlay", "/d is on overlay, a layered (container) file system"},
		{"nfs4", "/d is on nfs4, a network file system: a sync waits for the server"},
		{"smbfs", "/d is on smbfs, a network file system"},
		{"fuse.sshfs", "/d is on fuse.sshfs, a FUSE file system"},
		{"macfuse", "/d is on macfuse, a FUSE file system"},
		{"virtiofs", "/d is on virtiofs, shared from the host"},
	} {
		got := fsWarnings(tc.fsType, "/d")
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%q: got warnings %q, want none", tc.fsType, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%q: got %q, want one warning containing %q", tc.fsType, got, tc.want)
		}
	}
}

func TestDarwinMountOptions(t *testing.T) {
	for _, tc := range []struct {
		flags uint32
		want  string
	}{
		{0, "rw"},
		{0x1, "ro"},
		// A typical APFS data volume: local, journaled, nobrowse, noatime.
		{0x1000 | 0x800000 | 0x100000 | 0x10000000, "rw,local,nobrowse,journaled,noatime"},
		{0x1 | 0x4000 | 0x40000000, "ro,rootfs,snapshot"},
		{0x2 | 0x800, "rw,synchronous,0x800"},
	} {
		if got := darwinMountOptions(tc.flags); got != tc.want {
			t.Errorf("darwinMountOptions(%#x) = %q, want %q", tc.flags, got, tc.want)
		}
	}
}

func TestDarwinVirt(t *testing.T) {
	for _, tc := range []struct {
		present uint32
		err     error
		text    string
		vm      bool
	}{
		{1, nil, "vm (kern.hv_vmm_present=1)", true},
		{0, nil, "none found (kern.hv_vmm_present=0)", false},
		{0, errors.New("no such sysctl"), "unknown (sysctl kern.hv_vmm_present: no such sysctl)", false},
	} {
		text, vm := darwinVirt(tc.present, tc.err)
		if text != tc.text || vm != tc.vm {
			t.Errorf("darwinVirt(%d, %v) = %q, %v; want %q, %v", tc.present, tc.err, text, vm, tc.text, tc.vm)
		}
	}
}

func TestDeviceFromSource(t *testing.T) {
	for src, want := range map[string]string{
		"/dev/disk3s1s1":    "disk3s1s1",
		"/dev/vda":          "vda",
		"/dev/mapper/vg-lv": "",
		"/dev/":             "",
		"map auto_home":     "",
		"server:/export":    "",
	} {
		if got := deviceFromSource(src); got != want {
			t.Errorf("deviceFromSource(%q) = %q, want %q", src, got, want)
		}
	}
}
