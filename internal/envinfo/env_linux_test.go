package envinfo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/sys/unix"
)

func TestHostFill(t *testing.T) {
	cpuinfo, err := os.ReadFile("testdata/cpuinfo-amd64")
	if err != nil {
		t.Fatal(err)
	}
	proc := fstest.MapFS{
		"cpuinfo": {Data: cpuinfo},
		"self/mountinfo": {Data: []byte(
			"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n" +
				"70 27 253:0 / /srv rw,noatime - ext4 /dev/mapper/vg-srv rw,nobarrier\n" +
				"71 27 0:50 /@data /data rw,relatime - btrfs /dev/sdb rw,ssd\n" +
				"72 27 0:51 / /run/user rw - tmpfs tmpfs rw\n")},
	}
	sourceDevs := map[string]uint64{"/dev/sdb": unix.Mkdev(8, 16)}
	h := host{
		proc: proc, sys: fakeSys(), root: fstest.MapFS{},
		sourceDev: func(p string) (uint64, bool) { d, ok := sourceDevs[p]; return d, ok },
	}

	// ext4 on device-mapper over a partition, mounted without barriers, and
	// statfs disagreeing with mountinfo.
	h.dirDev, h.fsMagic = unix.Mkdev(253, 0), unix.XFS_SUPER_MAGIC
	e := Env{Dir: "/srv/db"}
	h.fill(&e)
	if e.CPU != "AMD EPYC" || !e.VM || e.Virtualization != "vm (hypervisor flag; DMI unavailable)" {
		t.Errorf("CPU %q, VM %v, Virtualization %q", e.CPU, e.VM, e.Virtualization)
	}
	if e.FSType != "ext4" || e.MountPoint != "/srv" || e.MountSource != "/dev/mapper/vg-srv" ||
		e.MountOptions != "rw,noatime" || e.SuperOptions != "rw,nobarrier" {
		t.Errorf("mount facts: %q %q %q %q %q", e.FSType, e.MountPoint, e.MountSource, e.MountOptions, e.SuperOptions)
	}
	if e.Device != "vda" || !slices.Equal(e.DeviceStack, []string{"dm-0", "vda2", "vda"}) ||
		e.WriteCache != "write back" || e.LogicalBlock != 512 || e.PhysicalBlock != 4096 {
		t.Errorf("device facts: %q %q %q %d/%d", e.Device, e.DeviceStack, e.WriteCache, e.LogicalBlock, e.PhysicalBlock)
	}
	wantNotes := []string{"mountinfo says /srv/db is ext4 but statfs says xfs"}
	if !slices.Equal(e.Notes, wantNotes) {
		t.Errorf("notes = %q, want %q", e.Notes, wantNotes)
	}
	if len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], "/srv is mounted without write barriers (rw,nobarrier)") {
		t.Errorf("warnings = %q, want the nobarrier warning", e.Warnings)
	}

	// btrfs: st_dev is anonymous, so the device comes from the mount source.
	h.dirDev, h.fsMagic = unix.Mkdev(0, 50), unix.BTRFS_SUPER_MAGIC
	e = Env{Dir: "/data/x"}
	h.fill(&e)
	if e.Device != "sdb" || e.WriteCache != "write through" || e.DeviceModel != "Samsung SSD 870" || len(e.Notes) != 0 {
		t.Errorf("btrfs: device %q, cache %q, model %q, notes %q", e.Device, e.WriteCache, e.DeviceModel, e.Notes)
	}

	// tmpfs: no device, said so.
	h.dirDev, h.fsMagic = unix.Mkdev(0, 51), unix.TMPFS_MAGIC
	e = Env{Dir: "/run/user/0"}
	h.fill(&e)
	if e.FSType != "tmpfs" || e.Device != "" ||
		!slices.Equal(e.Notes, []string{"no block device: tmpfs from tmpfs is not backed by one"}) {
		t.Errorf("tmpfs: fs %q, device %q, notes %q", e.FSType, e.Device, e.Notes)
	}

	// Without /proc the facts are missing, and the notes say so.
	h.proc = fstest.MapFS{}
	e = Env{Dir: "/srv/db"}
	h.fill(&e)
	if e.FSType != "" || len(e.Notes) != 2 || !strings.HasPrefix(e.Notes[0], "CPU model unknown") ||
		!strings.HasPrefix(e.Notes[1], "file system unknown") {
		t.Errorf("no /proc: fs %q, notes %q", e.FSType, e.Notes)
	}
}

// statfsName names the file systems a test may meet, from statfs alone.
func statfsName(t *testing.T, dir string) string {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC:
		return "ext4"
	case unix.TMPFS_MAGIC:
		return "tmpfs"
	case unix.XFS_SUPER_MAGIC:
		return "xfs"
	case unix.BTRFS_SUPER_MAGIC:
		return "btrfs"
	case unix.OVERLAYFS_SUPER_MAGIC:
		return "overlay"
	}
	return ""
}

// sysfsDisk names the whole disk numbered dev by reading sysfs directly, or
// returns "" if there is none.
func sysfsDisk(t *testing.T, dev uint64) string {
	t.Helper()
	target, err := filepath.EvalSymlinks(fmt.Sprintf("/sys/dev/block/%d:%d", unix.Major(dev), unix.Minor(dev)))
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(target, "partition")); err == nil {
		target = filepath.Dir(target)
	}
	return filepath.Base(target)
}

func TestCollectHere(t *testing.T) {
	dir := t.TempDir()
	e, err := Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	var uts unix.Utsname
	if err := unix.Uname(&uts); err != nil {
		t.Fatal(err)
	}
	if e.Dir != real || e.OS != "linux" || e.Arch != runtime.GOARCH || e.GoVersion != runtime.Version() ||
		kernelRelease(e.Kernel) != unix.ByteSliceToString(uts.Release[:]) || e.CPUCount != runtime.NumCPU() {
		t.Errorf("portable facts: %+v", e)
	}
	if !slices.Equal(e.CommandLine, os.Args) {
		t.Errorf("CommandLine = %q, want os.Args %q", e.CommandLine, os.Args)
	}
	if e.CPU == "" || e.Hostname == "" || e.FSType == "" || e.MountPoint == "" || e.MountOptions == "" ||
		e.MountSource == "" || e.Virtualization == "" || e.ID == "" || e.Time.IsZero() || e.Warnings == nil {
		t.Errorf("empty facts: %+v", e)
	}
	if want := statfsName(t, dir); want != "" && e.FSType != want {
		t.Errorf("FSType = %q, statfs says %q", e.FSType, want)
	}
	if !pathUnder(e.Dir, e.MountPoint) {
		t.Errorf("Dir %s is not under MountPoint %s", e.Dir, e.MountPoint)
	}
	if e.ID != e.contentID() {
		t.Errorf("ID %s does not match the content (%s)", e.ID, e.contentID())
	}

	cpuinfo, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Fatal(err)
	}
	hypervisor := strings.Contains(string(cpuinfo), " hypervisor")
	if hypervisor && (!e.VM || !slices.Contains(e.Warnings, vmWarning)) {
		t.Errorf("the CPU has the hypervisor flag but VM = %v, warnings %q", e.VM, e.Warnings)
	}

	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	disk := sysfsDisk(t, st.Dev)
	if disk == "" {
		t.Logf("%s is not on a block device (%s); device facts not checked", dir, e.FSType)
		return
	}
	// Device-mapper and md devices are followed down to their slaves.
	if slaves, _ := os.ReadDir(filepath.Join("/sys/block", disk, "slaves")); len(slaves) == 0 && e.Device != disk {
		t.Errorf("Device = %q, sysfs says %q", e.Device, disk)
	}
	wc, err := os.ReadFile(filepath.Join("/sys/block", e.Device, "queue/write_cache"))
	if err != nil {
		t.Fatal(err)
	}
	if e.WriteCache != strings.TrimSpace(string(wc)) || e.LogicalBlock == 0 || e.PhysicalBlock < e.LogicalBlock ||
		e.Rotational == nil {
		t.Errorf("queue facts of %s: cache %q (sysfs %q), blocks %d/%d, rotational %v",
			e.Device, e.WriteCache, strings.TrimSpace(string(wc)), e.LogicalBlock, e.PhysicalBlock, e.Rotational)
	}
}

func checkTmpfs(t *testing.T, e Env, mountPoint string) {
	t.Helper()
	if e.FSType != "tmpfs" || e.MountPoint != mountPoint || e.Device != "" || e.WriteCache != "" {
		t.Errorf("fs %q at %q, device %q, cache %q; want tmpfs at %s, no device", e.FSType, e.MountPoint, e.Device, e.WriteCache, mountPoint)
	}
	want := e.Dir + " is tmpfs: data lives in memory and sync is a no-op; the figures say nothing about durability"
	if len(e.Warnings) == 0 || e.Warnings[0] != want {
		t.Errorf("warnings = %q, want first %q", e.Warnings, want)
	}
}

func TestCollectDevShm(t *testing.T) {
	if statfsName(t, "/dev/shm") != "tmpfs" {
		t.Skip("/dev/shm is not tmpfs on this machine")
	}
	e, err := Collect("/dev/shm")
	if err != nil {
		t.Fatal(err)
	}
	checkTmpfs(t, e, "/dev/shm")
}

func TestCollectOwnTmpfs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := filepath.Join(t.TempDir(), "mnt with space")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
		t.Fatalf("mount tmpfs on %s: %v", mnt, err)
	}
	t.Cleanup(func() {
		if err := unix.Unmount(mnt, 0); err != nil {
			t.Errorf("unmount %s: %v", mnt, err)
		}
	})
	sub := filepath.Join(mnt, "run")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := Collect(sub)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(mnt)
	if err != nil {
		t.Fatal(err)
	}
	checkTmpfs(t, e, real)
	if e.SuperOptions == "" || !strings.Contains(e.SuperOptions, "size=1024k") {
		t.Errorf("SuperOptions = %q, want the size=1m given at mount", e.SuperOptions)
	}
	if _, err := DeviceFlushes(sub); !errors.Is(err, ErrNoBlockDevice) {
		t.Errorf("DeviceFlushes on tmpfs: got %v, want ErrNoBlockDevice", err)
	}
}

func TestCollectErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Collect(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) ||
		!strings.HasPrefix(err.Error(), "envinfo: directory ") {
		t.Errorf("missing directory: got %v", err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Collect(file); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("file: got %v", err)
	}
}

// flushDir returns a directory on a block device with a write-back cache:
// t.TempDir if it is on one, else a temporary directory here, beside the
// test's source.
func flushDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := DeviceFlushes(dir); errors.Is(err, ErrNoBlockDevice) {
		here, err := os.MkdirTemp(".", "flushtest")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(here) })
		dir = here
	}
	return dir
}

func TestDeviceFlushes(t *testing.T) {
	dir := flushDir(t)
	e, err := Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if e.WriteCache != "write back" {
		t.Skipf("device %q under %s has write cache %q: the kernel sends it no flushes", e.Device, dir, e.WriteCache)
	}
	f, err := os.Create(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before, err := ReadDeviceStats(dir)
	if err != nil {
		t.Fatal(err)
	}
	if before.Device != e.Device {
		t.Errorf("ReadDeviceStats names %q, Collect %q", before.Device, e.Device)
	}
	// Each fdatasync of newly written data must send one flush; other
	// processes may add more, never fewer.
	const syncs = 5
	for i := range syncs {
		if _, err := f.WriteAt(make([]byte, 4096), int64(i)*4096); err != nil {
			t.Fatal(err)
		}
		if err := unix.Fdatasync(int(f.Fd())); err != nil {
			t.Fatal(err)
		}
	}
	after, err := ReadDeviceStats(dir)
	if err != nil {
		t.Fatal(err)
	}
	flushes, err := DeviceFlushes(dir)
	if err != nil {
		t.Fatal(err)
	}
	if after.FlushesCompleted < before.FlushesCompleted+syncs || flushes < after.FlushesCompleted {
		t.Errorf("flushes before %d, after %d fdatasyncs %d, then %d: want a rise of at least %d",
			before.FlushesCompleted, syncs, after.FlushesCompleted, flushes, syncs)
	}
	if after.WritesCompleted < before.WritesCompleted+syncs || after.SectorsWritten < before.SectorsWritten+syncs*8 {
		t.Errorf("writes %d -> %d, sectors %d -> %d: want at least %d writes of 8 sectors",
			before.WritesCompleted, after.WritesCompleted, before.SectorsWritten, after.SectorsWritten, syncs)
	}
}
