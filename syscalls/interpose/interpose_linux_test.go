package interpose

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/durabench/durabench/syscalls/trace"
)

// need skips the test when a program it runs is not installed.
func need(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed: %v", p, err)
		}
	}
}

// cacheDir is one build cache for the whole test run, so the library is
// compiled once.
var cacheDir = func() string {
	if d := os.Getenv("CACHEDIR"); os.Getenv(helperEnv) != "" {
		return d // parentHelper: the test's own cache
	}
	dir, err := os.MkdirTemp("", "durabench-interpose-test-")
	if err != nil {
		panic(err)
	}
	return dir
}()

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		parentHelper()
		return
	}
	code := m.Run()
	os.RemoveAll(cacheDir)
	os.Exit(code)
}

func options() Options { return Options{CacheDir: cacheDir} }

// comparable reports whether the interposer must count name exactly as the
// tracer does for a program that calls libc: the sync calls, fcntl,
// pwrite64, ftruncate and fallocate always go through libc's exported
// functions; write does not (stdio writes through libc's internal entry
// points), and opens are counted only by their flags.
func comparable(name string) bool {
	switch name {
	case "fsync", "fdatasync", "sync_file_range", "syncfs", "sync", "msync", "pwrite64", "ftruncate", "fallocate":
		return true
	}
	return strings.HasPrefix(name, "fcntl(")
}

// compareMethods runs two identical commands, one under the interposer and
// one under the tracer, and requires the same counts for every comparable
// call, in total and by file class.
func compareMethods(t *testing.T, makeCmd func() *exec.Cmd) (interposed, traced *trace.Counts) {
	t.Helper()
	interposed, err := Run(makeCmd(), options())
	if err != nil {
		t.Fatal(err)
	}
	traced, err = trace.Run(makeCmd(), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range union(interposed.Syscalls, traced.Syscalls) {
		if comparable(name) && interposed.Syscalls[name] != traced.Syscalls[name] {
			t.Errorf("%s: interposer counted %d, tracer %d", name, interposed.Syscalls[name], traced.Syscalls[name])
		}
	}
	for _, class := range []trace.Class{trace.ClassDB, trace.ClassJournal, trace.ClassWAL, trace.ClassSHM, trace.ClassDirectory, trace.ClassOther} {
		i, tr := interposed.ByFile[class], traced.ByFile[class]
		for _, name := range union(i, tr) {
			if comparable(name) && i[name] != tr[name] {
				t.Errorf("%s %s: interposer counted %d, tracer %d", class, name, i[name], tr[name])
			}
		}
	}
	if fmt.Sprint(interposed.OpenFlags) != fmt.Sprint(traced.OpenFlags) {
		t.Errorf("open flags: interposer %v, tracer %v", interposed.OpenFlags, traced.OpenFlags)
	}
	t.Logf("interposer: %v", interposed.Syscalls)
	t.Logf("tracer:     %v", traced.Syscalls)
	return interposed, traced
}

func union[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestPythonMatchesTracer(t *testing.T) {
	need(t, "python3", "cc")
	path := filepath.Join(t.TempDir(), "data")
	// F_GETPIPE_SZ (1032) checks the numbering of Linux's commands above
	// 1024 on the way through the counters file.
	script := fmt.Sprintf(`import fcntl, os
fd = os.open(%q, os.O_WRONLY | os.O_CREAT | os.O_DSYNC, 0o644)
os.pwrite(fd, b"x" * 1000, 0)
for _ in range(50):
    os.fsync(fd)
r, w = os.pipe()
fcntl.fcntl(r, fcntl.F_GETPIPE_SZ)
`, path)
	c, _ := compareMethods(t, func() *exec.Cmd { return exec.Command("python3", "-c", script) })
	if c.Syscalls["fcntl(F_GETPIPE_SZ)"] != 1 {
		t.Errorf("fcntl(F_GETPIPE_SZ) counted %d times, want 1", c.Syscalls["fcntl(F_GETPIPE_SZ)"])
	}
	f := c.ByPath[path]
	if f == nil || f.Calls["fsync"] != 50 || f.Calls["O_DSYNC"] != 1 || f.WriteBytes != 1000 {
		t.Errorf("ByPath[%s] = %+v, want 50 fsyncs, 1 O_DSYNC open, 1000 bytes", path, f)
	}
}

// sqliteScript returns a script for the sqlite3 shell making n single-row
// commits under the given journal mode and synchronous setting.
func sqliteScript(journal, synchronous string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "PRAGMA journal_mode=%s;\nPRAGMA synchronous=%s;\nCREATE TABLE t(x);\n", journal, synchronous)
	for i := range n {
		fmt.Fprintf(&b, "INSERT INTO t VALUES(%d);\n", i)
	}
	return b.String()
}

func TestSQLiteShellMatchesTracer(t *testing.T) {
	need(t, "sqlite3", "cc")
	const commits = 200
	for _, journal := range []string{"WAL", "DELETE"} {
		t.Run(journal+"/FULL", func(t *testing.T) {
			script := sqliteScript(journal, "FULL", commits)
			c, _ := compareMethods(t, func() *exec.Cmd {
				cmd := exec.Command("sqlite3", filepath.Join(t.TempDir(), "test.db"))
				cmd.Stdin = strings.NewReader(script)
				return cmd
			})
			// Debian's libsqlite3 syncs with fdatasync; whichever it
			// uses, every commit syncs the file that makes it durable.
			durable := trace.ClassWAL
			if journal == "DELETE" {
				durable = trace.ClassDB
			}
			if n := c.ByFile[durable]["fdatasync"] + c.ByFile[durable]["fsync"]; n < commits {
				t.Errorf("%s: %d syncs for %d commits; by file %v", durable, n, commits, c.ByFile)
			}
			t.Logf("by file: %v", c.ByFile)
		})
	}
}

// pythonMarks defines start() and stop() in a Python script: the window
// marks of package trace.
var pythonMarks = fmt.Sprintf(`import os
def mark(text):
    try:
        os.write(-1, text)
    except OSError:
        pass
start = lambda: mark(%q.encode())
stop = lambda: mark(%q.encode())
`, trace.MarkStartText, trace.MarkStopText)

func TestWindow(t *testing.T) {
	need(t, "python3", "cc")
	path := filepath.Join(t.TempDir(), "data")
	script := pythonMarks + fmt.Sprintf(`fd = os.open(%q, os.O_WRONLY | os.O_CREAT, 0o644)
for n in (3, 5, 7, 2):
    if n == 5 or n == 2:
        start()
    if n == 7:
        stop()
    for _ in range(n):
        os.fsync(fd)
`, path)
	opts := options()
	opts.Window = true
	c, err := Run(exec.Command("python3", "-c", script), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"fsync": 5 + 2}
	if !c.Windowed || fmt.Sprint(c.Syscalls) != fmt.Sprint(want) {
		t.Errorf("Windowed %v, counts %v; want true and %v", c.Windowed, c.Syscalls, want)
	}

	c, err = Run(exec.Command("python3", "-c", script), options())
	if err != nil {
		t.Fatal(err)
	}
	if c.Windowed || c.Syscalls["fsync"] != 3+5+7+2 || c.Syscalls["write"] != 0 {
		t.Errorf("unwindowed: Windowed %v, counts %v; want false, 17 fsyncs and the marks not counted", c.Windowed, c.Syscalls)
	}
}

func TestCrashedOrKilledKeepsCounts(t *testing.T) {
	need(t, "python3", "cc")
	for _, tc := range []struct {
		name, die, signal string
	}{
		{"segv", "import ctypes; ctypes.string_at(0)", "SIGSEGV"},
		{"kill", "import signal; os.kill(os.getpid(), signal.SIGKILL)", "SIGKILL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "data")
			script := fmt.Sprintf("import os\nfd = os.open(%q, os.O_WRONLY | os.O_CREAT, 0o644)\nfor _ in range(3):\n    os.fsync(fd)\n%s\n", path, tc.die)
			c, err := Run(exec.Command("python3", "-c", script), options())
			if err != nil {
				t.Fatal(err)
			}
			if c.Syscalls["fsync"] != 3 || c.Exit.Signal != tc.signal {
				t.Errorf("fsyncs %d, exit %v; want 3 and killed by %s", c.Syscalls["fsync"], c.Exit, tc.signal)
			}
		})
	}
}

func TestExitCode(t *testing.T) {
	need(t, "sh", "cc")
	c, err := Run(exec.Command("sh", "-c", "exit 7"), options())
	if err != nil {
		t.Fatal(err)
	}
	if c.Exit != (trace.ExitStatus{Code: 7}) {
		t.Errorf("exit = %v, want exit status 7", c.Exit)
	}
}

func TestMissingProgram(t *testing.T) {
	_, err := Run(exec.Command("nosuch"), options())
	const want = `interpose: run "nosuch": executable file not found in $PATH`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	if !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("errors.Is(err, exec.ErrNotFound) = false")
	}
}

func TestBuildCaches(t *testing.T) {
	need(t, "cc")
	opts := Options{CacheDir: t.TempDir()}
	lib, err := Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(lib)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	st2, err := os.Stat(again)
	if err != nil {
		t.Fatal(err)
	}
	if again != lib || !os.SameFile(st, st2) || !st.ModTime().Equal(st2.ModTime()) {
		t.Errorf("second Build gave %s, want the cached %s untouched", again, lib)
	}
	entries, _ := os.ReadDir(opts.CacheDir)
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want only the library", len(entries))
	}
}

func TestBuildWithoutCompiler(t *testing.T) {
	_, err := Build(Options{CC: "no-such-cc", CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), `interpose: run the C compiler "no-such-cc"`) {
		t.Errorf("err = %v, want it to name the missing compiler", err)
	}
}

// TestDarwinBranchCompiles checks the macOS half of the source as far as
// Linux can: the C compiler parses it with __APPLE__ defined (against Linux
// headers, so F_GETPATH, which only macOS defines, is supplied).
func TestDarwinBranchCompiles(t *testing.T) {
	need(t, "cc")
	src := filepath.Join(t.TempDir(), "interpose.c")
	if err := os.WriteFile(src, Source, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("cc", "-fsyntax-only", "-Wall", "-Werror", "-U__linux__", "-D__APPLE__", "-DF_GETPATH=50", src).CombinedOutput()
	if err != nil {
		t.Errorf("darwin branch: %v\n%s", err, out)
	}
	for _, want := range []string{`section("__DATA,__interpose")`, "INTERPOSE(fcntl)", "INTERPOSE(fsync)"} {
		if !strings.Contains(string(Source), want) {
			t.Errorf("source lacks %s", want)
		}
	}
}

func TestWithPreload(t *testing.T) {
	got := withPreload([]string{"A=1", "LD_PRELOAD=/x.so", "B=2"}, "/lib.so")
	want := []string{"A=1", "B=2", "LD_PRELOAD=/lib.so:/x.so"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("withPreload = %v, want %v", got, want)
	}
	got = withPreload([]string{"A=1"}, "/lib.so")
	want = []string{"A=1", "LD_PRELOAD=/lib.so"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("withPreload = %v, want %v", got, want)
	}
}
