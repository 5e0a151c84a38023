package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCrashSQLiteRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	ok := []string{"sqlite", "--dir", dir, "--engines", "modernc"}
	checkRefusals(t, "crash", ok, dir, []refusal{
		{"engine", []string{"--engines", "sqlite4"}, `invalid argument "sqlite4" for "--engines" flag: engine "sqlite4": use one or more of modernc, mattn, system`},
		{"journal", []string{"--journal-modes", "wall"}, `"--journal-modes" flag: journal mode "wall"`},
		{"synchronous twice", []string{"--synchronous", "full,2"}, `synchronous level "2" is given twice`},
		{"fullfsync", []string{"--fullfsync", "2"}, `"--fullfsync" flag: fullfsync value "2"`},
		{"build", []string{"--macos-build", "apple,ios"}, `"--macos-build" flag: macOS build "ios": use public, apple or both`},
		{"build twice", []string{"--macos-build", "apple,apple"}, `macOS build "apple" is given twice`},
		{"commits", []string{"--commits", "0"}, "--commits 0: use 1 to 10000"},
		{"model", []string{"--models", "windows"}, `unknown persistence model "windows"`},
		{"states", []string{"--states", "0"}, "--states 0"},
		{"arguments", []string{"extra"}, `unexpected arguments ["extra"]`},
	})
}

// TestCrashSQLite runs the command as a user would on two configurations
// whose verdicts differ by exactly the directory sync after the journal's
// unlink, and checks the table's verdicts and that nothing is left behind.
func TestCrashSQLite(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := durabench(t, "crash", "sqlite", "--dir", dir, "--engines", "modernc", "--journal-modes", "delete",
		"--synchronous", "full,extra", "--fullfsync", "0,1", "--models", "linux-ext4,macos", "--macos-build", "public,apple", "--states", "60", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"fullfsync=0: SQLite calls fsync",
		"fullfsync=1, public build: F_FULLFSYNC",
		"fullfsync=1, Apple's system build: F_BARRIERFSYNC",
		"sqlite/modernc/delete/full/fullfsync=0, linux-ext4: smallest state losing acknowledged commits",
		"changes dropped #26 unlink crash.db-journal",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// The table: configuration, model, six figures, the verdict.
	verdicts := map[string]string{}
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 8 && strings.HasPrefix(f[0], "sqlite/") && !strings.HasSuffix(f[0], ",") {
			verdicts[f[0]+" "+f[1]] = strings.Join(f[8:], " ")
		}
	}
	for row, want := range map[string]string{
		"sqlite/modernc/delete/full/fullfsync=0 linux-ext4":                        "loses acknowledged commits (up to 1), never corrupt",
		"sqlite/modernc/delete/extra/fullfsync=0 linux-ext4":                       "safe: every acknowledged commit kept, never corrupt",
		"sqlite/modernc/delete/extra/fullfsync=1 macos[fsync=full,fdatasync=full]": "safe: every acknowledged commit kept, never corrupt",
	} {
		if verdicts[row] != want {
			t.Errorf("%s: verdict %q, want %q", row, verdicts[row], want)
		}
	}
	if len(verdicts) != 10 {
		t.Errorf("%d rows, want 10 (2 levels x 2 fullfsync x linux-ext4, and macos once for fullfsync=0, twice for 1):\n%s", len(verdicts), stdout)
	}
	// The smallest DELETE/FULL state rebuilds from its identifier alone
	// (the recorder fixes the program's random bytes, so the re-recording
	// is the same log) and shows the dropped unlink.
	_, rest, ok := strings.Cut(stdout, "sqlite/modernc/delete/full/fullfsync=0, linux-ext4: smallest state losing acknowledged commits\n  state   ")
	id, _, _ := strings.Cut(rest, "\n")
	if !ok || id == "" {
		t.Fatalf("no smallest DELETE/FULL state in the output:\n%s", stdout)
	}
	into := filepath.Join(t.TempDir(), "state")
	shown, stderr, code := durabench(t, "crash", "show", "--into", into, id)
	if code != 0 || !strings.Contains(shown, "dropped #26 unlink crash.db-journal") || !strings.Contains(shown, "verdict: lost 1 acknowledged, corrupt false") {
		t.Errorf("crash show %s: exit %d, stdout %q, stderr %q; want the dropped unlink and one commit lost", id, code, shown, stderr)
	}

	if after := listing(t, dir); len(after) != 1 { // dir itself
		t.Errorf("left behind in --dir: %q", after)
	}
}
