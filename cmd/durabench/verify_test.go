package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerify runs durabench verify as a user would: every check passes or
// says why it does not apply, it exits 0, and --dir is left as it was.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := durabench(t, "verify", "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"pass  sync case append-4K-fdatasync: 26 writes of 4096 bytes, all read back; file 106496 bytes\n",
		"pass  log records read back: 600 records from 4 writers replayed, each once and intact",
		"pass  log segments rotated as configured: 9 segments of at most 16384 bytes, 73 records each",
		"pass  outputs never overwritten: a second run to the same output was refused",
		"pass  run directory removed: durabench-verify-",
		"checks passed or do not apply here\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "FAIL") {
		t.Errorf("a check failed:\n%s", stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("verify left %d entries in --dir", len(entries))
	}
}

// TestVerifyOnTmpfs: where the kernel counts no flushes and FIEMAP is not
// supported, those checks say n/a with the reason and verify still passes.
func TestVerifyOnTmpfs(t *testing.T) {
	if st, err := os.Stat("/dev/shm"); err != nil || !st.IsDir() {
		t.Skip("no /dev/shm here")
	}
	dir, err := os.MkdirTemp("/dev/shm", "durabench-verify-test-")
	if err != nil {
		t.Skip(err)
	}
	defer os.RemoveAll(dir)
	stdout, stderr, code := durabench(t, "verify", "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"n/a   fallocated extents: this file system cannot map a file's extents", "n/a   sync fdatasync: device flushes: no counter: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestVerifyRefusesBadInput(t *testing.T) {
	base := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing dir", []string{"--dir", filepath.Join(base, "nope")}, "does not exist: create it first"},
		{"stray argument", []string{"--dir", base, "now"}, `unexpected arguments ["now"]`},
		{"unknown flag", []string{"--dri", base}, "unknown flag: --dri"},
	} {
		_, stderr, code := durabench(t, append([]string{"verify"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q", tc.name, code, stderr, tc.want)
		}
	}
	if entries, _ := os.ReadDir(base); len(entries) != 0 {
		t.Errorf("a refused verify left %d entries", len(entries))
	}
}
