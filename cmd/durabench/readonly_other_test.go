//go:build !linux

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// readOnlyDir returns a directory without write permission; root, which
// ignores permission bits, cannot run this check here.
func readOnlyDir(t *testing.T, parent string) string {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere, and read-only mounts are set up on Linux only")
	}
	dir := filepath.Join(parent, "readonly")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	return dir
}
