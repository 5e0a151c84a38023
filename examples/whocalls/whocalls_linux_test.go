package whocalls

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/durabench/durabench/syscalls/trace"
)

// The "who calls what" table of the README: each language's standard way to
// sync a file, 200 times after a 4 KiB write, traced with ptrace. The counts
// must be exact: 200 of the one call, none of the other.
func TestWhoCallsWhat(t *testing.T) {
	bin := t.TempDir()
	for _, prog := range []string{"gosync", "gofdatasync"} {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, prog), "./"+prog)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", prog, err, out)
		}
	}
	data := filepath.Join(t.TempDir(), "data")
	tests := []struct {
		name  string
		tool  string // skip when absent from PATH
		cmd   []string
		calls string // the call each sync must be
		other string // the call it must not be
	}{
		{"Go os.File.Sync", "", []string{filepath.Join(bin, "gosync"), "200"}, "fsync", "fdatasync"},
		{"Go unix.Fdatasync", "", []string{filepath.Join(bin, "gofdatasync"), "200"}, "fdatasync", "fsync"},
		{"Python os.fsync", "python3", []string{"python3", "-c",
			"import os\nfd = os.open('" + data + "', os.O_WRONLY | os.O_CREAT)\nfor _ in range(200):\n    os.pwrite(fd, bytes(4096), 0); os.fsync(fd)"}, "fsync", "fdatasync"},
		{"Python os.fdatasync", "python3", []string{"python3", "-c",
			"import os\nfd = os.open('" + data + "', os.O_WRONLY | os.O_CREAT)\nfor _ in range(200):\n    os.pwrite(fd, bytes(4096), 0); os.fdatasync(fd)"}, "fdatasync", "fsync"},
		{"Node fs.fsyncSync", "node", []string{"node", "-e",
			"const fs = require('fs'); const fd = fs.openSync('" + data + "', 'w'); const b = Buffer.alloc(4096);" +
				" for (let i = 0; i < 200; i++) { fs.writeSync(fd, b, 0, 4096, 0); fs.fsyncSync(fd); }"}, "fsync", "fdatasync"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.tool != "" {
				if _, err := exec.LookPath(tt.tool); err != nil {
					t.Skipf("%s is not installed", tt.tool)
				}
			}
			os.Remove(data)
			c, err := trace.Run(exec.Command(tt.cmd[0], tt.cmd[1:]...), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.Exit.Code != 0 {
				t.Fatalf("%s ended with %s", tt.cmd[0], c.Exit)
			}
			if got := c.Total(tt.calls); got != 200 {
				t.Errorf("%s: %d calls, want 200", tt.calls, got)
			}
			if got := c.Total(tt.other); got != 0 {
				t.Errorf("%s: %d calls, want none", tt.other, got)
			}
			if got := c.Total("pwrite64"); got != 200 {
				t.Errorf("pwrite64: %d calls, want 200", got)
			}
		})
	}
}
