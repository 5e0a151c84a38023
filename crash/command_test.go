package crash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseCheckOutput(t *testing.T) {
	if v := parseCheckOutput(1, nil, []byte("Traceback (most recent call last):\n  File x\nUnicodeDecodeError: bad byte\n")); !v.Corrupt || v.Detail != "UnicodeDecodeError: bad byte" {
		t.Errorf("a checker that died with a traceback: %+v; want corrupt, its last line as the reason", v)
	}
	for _, c := range []struct {
		status      int
		out         string
		lost        uint64
		corrupt     bool
		detailStart string
	}{
		{0, "", 0, false, ""},
		{0, "checked 3 rows\n", 0, false, ""},
		{1, "lost 2\n", 2, false, "lost 2"},
		{1, "corrupt header garbled\n", 0, true, "corrupt header garbled"},
		{1, "lost 1\ncorrupt bad\n", 1, true, "lost 1; corrupt bad"},
		{1, "no table t\n", 0, true, "no table t"},
		{0, "lost 3\n", 3, false, "lost 3"},
	} {
		v := parseCheckOutput(c.status, []byte(c.out), nil)
		if v.LostAcked != c.lost || v.Corrupt != c.corrupt || !strings.HasPrefix(v.Detail, c.detailStart) {
			t.Errorf("exit %d, %q: %+v; want lost %d corrupt %v detail %q", c.status, c.out, v, c.lost, c.corrupt, c.detailStart)
		}
	}
}

// The command checker substitutes {dir} and {acked}, or appends them, and
// a status above 1 stops exploring.
func TestCommandChecker(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "check.sh")
	os.WriteFile(script, []byte("#!/bin/sh\n[ \"$DURABENCH_CRASH_ACKED\" = \"$2\" ] || exit 3\n[ -f \"$1/f\" ] && exit 0\necho \"lost $2\"; exit 1\n"), 0o755)
	state := t.TempDir()
	if v := (CommandChecker{Argv: []string{script}}).Check(state, 4); v.LostAcked != 4 || v.Err != nil {
		t.Errorf("missing file: %+v; want lost 4", v)
	}
	os.WriteFile(filepath.Join(state, "f"), nil, 0o644)
	if v := (CommandChecker{Argv: []string{script, "{dir}", "{acked}"}}).Check(state, 4); v.LostAcked != 0 || v.Corrupt || v.Err != nil {
		t.Errorf("file present: %+v; want a pass", v)
	}
	if v := (CommandChecker{Argv: []string{script, "{dir}", "9"}}).Check(state, 4); v.Err == nil || !strings.Contains(v.Err.Error(), "exit status 3") {
		t.Errorf("status 3: %+v; want the check to fail", v)
	}
}

func readFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	return string(b), err
}
