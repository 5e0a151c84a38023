package envinfo

import (
	"os"
	"strings"
	"testing"
)

func readMountinfoFixture(t *testing.T) []mountEntry {
	t.Helper()
	f, err := os.Open("testdata/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mounts, err := parseMountinfo(f)
	if err != nil {
		t.Fatal(err)
	}
	return mounts
}

func TestParseMountinfo(t *testing.T) {
	mounts := readMountinfoFixture(t)
	if len(mounts) != 11 {
		t.Fatalf("parsed %d mounts, want 11", len(mounts))
	}
	root := mounts[4]
	want := mountEntry{major: 254, minor: 0, root: "/", mountPoint: "/", options: "rw,relatime",
		fsType: "ext4", source: "/dev/vda", superOptions: "rw,discard,resv_strict,resuid=65534,resgid=65534"}
	if root != want {
		t.Errorf("root mount:\n got %+v\nwant %+v", root, want)
	}
	// Optional fields ("shared:12 master:3") before "-" and escaped spaces.
	xfs := mounts[6]
	if xfs.mountPoint != "/mnt/my disk" || xfs.source != "/dev/mapper/vg-my lv" || xfs.fsType != "xfs" ||
		xfs.superOptions != "rw,attr2,nobarrier" || xfs.major != 253 || xfs.minor != 1 {
		t.Errorf("xfs mount: got %+v", xfs)
	}
}

func TestParseMountinfoErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"27 1 254:0 / / rw,relatime ext4 /dev/vda rw", `want 6 fields, optional fields, "-"`},
		{"27 1 254:0 / / rw,relatime - ext4", `want 6 fields, optional fields, "-"`},
		{"27 1 2540 / / rw,relatime - ext4 /dev/vda rw", `device "2540" is not major:minor`},
		{"27 1 a:0 / / rw,relatime - ext4 /dev/vda rw", `device "a:0" is not major:minor`},
	} {
		_, err := parseMountinfo(strings.NewReader("22 27 0:21 / /proc rw - proc proc rw\n" + tc.line + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("line %q: got error %v, want one naming line 2 and containing %q", tc.line, err, tc.want)
		}
	}
}

func TestUnescapeMountPath(t *testing.T) {
	for in, want := range map[string]string{
		`/plain`:            "/plain",
		`/a\040b`:           "/a b",
		`/tab\011nl\012`:    "/tab\tnl\n",
		`/back\134slash`:    `/back\slash`,
		`/not\09octal`:      `/not\09octal`,
		`/short\04`:         `/short\04`,
		`/end\`:             `/end\`,
		`\040lead\040trail`: " lead trail",
	} {
		if got := unescapeMountPath(in); got != want {
			t.Errorf("unescapeMountPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFindMount(t *testing.T) {
	mounts := readMountinfoFixture(t)
	for _, tc := range []struct {
		path         string
		major, minor uint32
		wantPoint    string
		wantMinor    uint32
	}{
		{"/work/main", 254, 0, "/", 0},
		{"/", 254, 0, "/", 0},
		{"/proc", 0, 21, "/proc", 21},
		{"/procfs", 254, 0, "/", 0}, // a prefix of the name is not a parent
		// /dev/shm is mounted twice; the later mount is on top.
		{"/dev/shm/x", 0, 27, "/dev/shm", 27},
		{"/mnt/my disk/db", 253, 1, "/mnt/my disk", 1},
		// /data/inner is hidden under /data, mounted after it: the device
		// number of the path says which one holds it.
		{"/data/inner/f", 8, 17, "/data", 17},
		// btrfs subvolumes have their own st_dev: fall back to the longest
		// mount point.
		{"/data/inner/f", 0, 99, "/data/inner", 2},
	} {
		m, ok := findMount(mounts, tc.path, tc.major, tc.minor)
		if !ok || m.mountPoint != tc.wantPoint || m.minor != tc.wantMinor {
			t.Errorf("findMount(%q, %d:%d) = %q (minor %d), %v; want %q (minor %d)",
				tc.path, tc.major, tc.minor, m.mountPoint, m.minor, ok, tc.wantPoint, tc.wantMinor)
		}
	}
	if m, ok := findMount(mounts[:4], "/work", 254, 0); ok {
		t.Errorf("findMount without a root mount found %+v", m)
	}
}
