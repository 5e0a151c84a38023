package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// smallExt4 mounts a loop ext4 of 64 MiB at a new directory under parent
// and returns it, or skips with the reason it cannot (not root, no
// mkfs.ext4, no loop device).
func smallExt4(t *testing.T, parent string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a loop ext4 needs root")
	}
	mkfs, err := exec.LookPath("mkfs.ext4")
	if err != nil {
		t.Skip("no mkfs.ext4 (e2fsprogs) to make a small file system with")
	}
	img := filepath.Join(parent, "ext4.img")
	if err := os.WriteFile(img, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 64<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mkfs, "-q", "-F", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4 failed: %v: %s", err, out)
	}
	mnt := filepath.Join(parent, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot loop-mount an ext4 here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	os.Remove(filepath.Join(mnt, "lost+found"))
	return mnt
}

// On a 64 MiB file system, a run that needs more than it may use is
// refused up front (sync, sqlite and suite checked no free space at all),
// and a run of a few MiB is allowed: the margin scales with the file system.
func TestFreeSpaceRuleOnASmallFileSystem(t *testing.T) {
	mnt := smallExt4(t, t.TempDir())
	var st unix.Statfs_t
	if err := unix.Statfs(mnt, &st); err != nil {
		t.Fatal(err)
	}
	t.Logf("free on the loop ext4: %d MiB", st.Bavail*uint64(st.Bsize)>>20)
	for _, tt := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"sync", "--dir", mnt, "--workloads", "overwrite", "--methods", "fsync", "--block-sizes", "4K", "--file-size", "48M", "--rounds", "1"}, 2, "not enough free space"},
		{[]string{"sync", "--dir", mnt, "--workloads", "overwrite,append", "--methods", "fsync", "--block-sizes", "4K", "--file-size", "4M", "--iterations", "20", "--warmup", "0", "--rounds", "1"}, 0, ""},
		{[]string{"suite", "--dir", mnt}, 2, "not enough free space"},
		{[]string{"sqlite", "--dir", mnt, "--engines", "modernc", "--row-bytes", "100000", "--commits", "1000", "--rounds", "1"}, 2, "not enough free space"},
		{[]string{"sqlite", "--dir", mnt, "--engines", "modernc", "--journal-modes", "wal", "--synchronous", "full", "--fullfsync", "0", "--commits", "20", "--warmup", "0", "--rounds", "1"}, 0, ""},
		{[]string{"wal", "--dir", mnt, "--layouts", "initialized", "--file-size", "48M", "--io-modes", "buffered", "--methods", "fsync", "--rounds", "1"}, 2, "not enough free space"},
	} {
		_, stderr, code := durabench(t, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.says) {
			t.Errorf("%s: exit status %d, want %d saying %q; stderr: %s", strings.Join(tt.args, " "), code, tt.code, tt.says, stderr)
		}
		if es, _ := os.ReadDir(mnt); len(es) != 0 {
			t.Errorf("%s left %v on the file system", strings.Join(tt.args, " "), es)
		}
	}
}

// A run that fails (here: its --out is on a full file system, so env.json
// cannot be written) leaves no --out behind, not even the stub env.json
// that blocked the rerun (issue 10), and removes its run directory.
func TestFailedRunLeavesNoOut(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	base := t.TempDir()
	outs := filepath.Join(base, "outs")
	if err := os.Mkdir(outs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("tmpfs", outs, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(outs, 0) })
	// Fill it: directories can still be made, files cannot grow.
	f, err := os.Create(filepath.Join(outs, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for buf := make([]byte, 4096); ; {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	dir := filepath.Join(base, "dir")
	os.Mkdir(dir, 0o755)
	out := filepath.Join(outs, "out")
	_, stderr, code := durabench(t, "sync", "--dir", dir, "--out", out, "--methods", "none", "--workloads", "overwrite",
		"--block-sizes", "4K", "--iterations", "2", "--warmup", "0", "--rounds", "1", "--file-size", "64K")
	if code != 1 || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("exit status %d, want 1 with ENOSPC; stderr: %s", code, stderr)
	}
	if !strings.Contains(stderr, "nothing written to "+out) {
		t.Errorf("stderr does not say --out was not written: %s", stderr)
	}
	checkNothingLeft(t, dir, outs, "filler")
	// The rerun is not blocked by a stub.
	os.Remove(filepath.Join(outs, "filler"))
	if _, stderr, code := durabench(t, "sync", "--dir", dir, "--out", out, "--methods", "none", "--workloads", "overwrite",
		"--block-sizes", "4K", "--iterations", "2", "--warmup", "0", "--rounds", "1", "--file-size", "64K", "--format", "csv"); code != 0 {
		t.Errorf("the rerun failed: %s", stderr)
	}
}
