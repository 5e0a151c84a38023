package main

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// readOnlyDir returns a directory the tool cannot write in: a read-only
// tmpfs mount when running as root (root ignores permission bits), else a
// directory without write permission.
func readOnlyDir(t *testing.T, parent string) string {
	dir := filepath.Join(parent, "readonly")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		return dir
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_RDONLY, "size=1m"); err != nil {
		t.Skipf("cannot mount a read-only tmpfs to test with: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, 0) })
	return dir
}
