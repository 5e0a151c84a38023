package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLiteRefusesTruncatedLib gives --sqlite-lib half of the installed
// libsqlite3. Before it was checked, loading it succeeded and the first
// call died with SIGBUS (the missing pages of the mapping); now it is
// refused as bad input, exit 2, before --dir is touched.
func TestSQLiteRefusesTruncatedLib(t *testing.T) {
	libs, _ := filepath.Glob("/usr/lib/*/libsqlite3.so.0")
	if len(libs) == 0 {
		t.Skip("no libsqlite3.so.0 installed (Debian: apt-get install libsqlite3-0)")
	}
	b, err := os.ReadFile(libs[0])
	if err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(t.TempDir(), "libsqlite3-half.so")
	if err := os.WriteFile(half, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, stderr, code := durabench(t, "sqlite", "--dir", dir, "--engines", "system", "--sqlite-lib", half, "--commits", "5", "--rounds", "1")
	if want := half + " is truncated"; code != 2 || !strings.Contains(stderr, want) || strings.Contains(stderr, "SIGBUS") {
		t.Fatalf("exit %d, %q; want 2 and %q", code, stderr, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused run left %d entries in --dir", len(entries))
	}
}
