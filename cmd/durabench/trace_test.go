package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/durabench/durabench/syscalls/trace"
)

func TestTraceRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trace"}, "no command to trace"},
		{[]string{"trace", "--json", "--"}, "no command to trace"},
		{[]string{"trace", "--method", "strace", "--", "true"}, `--method "strace": want ptrace or interpose`},
		{[]string{"trace", "--bogus", "--", "true"}, "unknown flag: --bogus"},
	} {
		_, stderr, code := durabench(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}

// A program that cannot be found is refused input, checked before
// anything starts (exit 2), like an empty command.
func TestTraceMissingProgram(t *testing.T) {
	_, stderr, code := durabench(t, "trace", "--", "nosuch")
	const want = `trace: cannot run "nosuch": executable file not found in $PATH`
	if code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, want)
	}
}

func TestTraceHelp(t *testing.T) {
	stdout, _, code := durabench(t, "trace", "--help")
	if code != exitOK || !strings.Contains(stdout, "durabench trace -- sqlite3 /tmp/x.db") || !strings.Contains(stdout, "--method interpose -- python3") {
		t.Errorf("exit %d, help %q; want 0 and the examples", code, stdout)
	}
}

// TestTraceJSON counts a Python program's fsyncs by both methods. Its own
// output must go to stderr, leaving stdout to the JSON.
func TestTraceJSON(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("python3 is not installed: %v", err)
	}
	methods := []string{"interpose"}
	if runtime.GOOS == "linux" {
		methods = append(methods, "ptrace")
	}
	for _, method := range methods {
		t.Run(method, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "data")
			script := `import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT)
for _ in range(3):
    os.fsync(fd)
print("child output")
sys.exit(4)`
			stdout, stderr, code := durabench(t, "trace", "--method", method, "--json", "--", "python3", "-c", script, path)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var c trace.Counts
			if err := json.Unmarshal([]byte(stdout), &c); err != nil {
				t.Fatalf("stdout is not the JSON counts: %v\n%s", err, stdout)
			}
			if c.Method != method || c.Syscalls["fsync"] != 3 || c.ByPath[path] == nil || c.ByPath[path].Calls["fsync"] != 3 || c.Exit.Code != 4 {
				t.Errorf("counts %+v; want %s, 3 fsyncs on %s, exit status 4", c, method, path)
			}
			if !strings.Contains(stderr, "child output") {
				t.Errorf("the child's output is not on stderr: %q", stderr)
			}
		})
	}
}

func TestTraceTableNamesFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the default method here is the interposer; this test checks ptrace")
	}
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skipf("sqlite3 is not installed: %v", err)
	}
	db := filepath.Join(t.TempDir(), "app.sqlite")
	stdout, stderr, code := durabench(t, "trace", "--db", db, "--", "sqlite3", db, "create table t(x); insert into t values(1);")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"method:  ptrace", "exit:    exit status 0", db + "-journal", "\njournal ", "\ndirectory ", "\ndb "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
}
