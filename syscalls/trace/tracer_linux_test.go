//go:build linux && (amd64 || arm64)

package trace

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// childEnv switches the test binary into one of the child programs below
// when it is re-executed as a traced command (see TestMain).
const childEnv = "DURABENCH_TRACE_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		if err := child(mode, os.Args[1:]); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child runs one of the traced programs:
//
//	sync PATH N           os.File.Sync N times, from one goroutine
//	sync-threads PATH N   N os.File.Syncs spread over goroutines on several threads
//	window PATH A B C D   A syncs, MarkStart, B syncs, MarkStop, C syncs, MarkStart, D syncs
//	kill PATH N           N syncs, then SIGKILL to itself
//	exec PATH N M         N syncs, then execve from a thread other than the
//	                      leader, into "sync PATH M"
//	ack PATH N            N syncs, each followed by MarkAck(i) for i = 1..N
func child(mode string, args []string) error {
	f, err := os.OpenFile(args[0], os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	n := make([]int, len(args)-1)
	for i, a := range args[1:] {
		if n[i], err = strconv.Atoi(a); err != nil {
			return err
		}
	}
	syncs := func(k int) error {
		for range k {
			if err := f.Sync(); err != nil {
				return err
			}
		}
		return nil
	}
	switch mode {
	case "sync":
		return syncs(n[0])
	case "sync-threads":
		const workers = 4
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Each worker gets its own thread: os.File.Sync is a
				// blocking call, and the locked thread guarantees it.
				runtime.LockOSThread()
				share := n[0] / workers
				if w == 0 {
					share += n[0] % workers
				}
				errs[w] = syncs(share)
			}()
		}
		wg.Wait()
		return errors.Join(errs...)
	case "window":
		for i, k := range n {
			switch i {
			case 1, 3:
				MarkStart()
			case 2:
				MarkStop()
			}
			if err := syncs(k); err != nil {
				return err
			}
		}
		return nil
	case "ack":
		for i := range n[0] {
			if err := syncs(1); err != nil {
				return err
			}
			MarkAck(uint64(i + 1))
		}
		return nil
	case "kill":
		if err := syncs(n[0]); err != nil {
			return err
		}
		return unix.Kill(os.Getpid(), unix.SIGKILL)
	case "exec":
		if err := syncs(n[0]); err != nil {
			return err
		}
		// With the main goroutine holding the main thread, the goroutine
		// below runs on another one: the kernel then gives the exec'ing
		// thread the leader's id, which the tracer must follow.
		runtime.LockOSThread()
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, childEnv+"=") {
				env = append(env, kv)
			}
		}
		env = append(env, childEnv+"=sync")
		errc := make(chan error)
		go func() {
			runtime.LockOSThread()
			errc <- syscall.Exec(exe, []string{exe, args[0], args[2]}, env)
		}()
		return <-errc
	}
	return fmt.Errorf("unknown mode %q", mode)
}

// selfCommand returns a command that re-executes the test binary as child
// program mode.
func selfCommand(t *testing.T, mode string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"="+mode)
	cmd.Stderr = os.Stderr
	return cmd
}

// need skips the test when a program it runs is not installed.
func need(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed: %v", p, err)
		}
	}
}

// countedNames lists every system call the tracer counts, by strace's names.
func countedNames() []string {
	var names []string
	for _, s := range syscallTable {
		if s != nil {
			names = append(names, s.name)
		}
	}
	sort.Strings(names)
	return names
}

// straceCounts runs cmd under `strace -f -c` limited to the calls the tracer
// counts, and returns strace's calls column by syscall name.
func straceCounts(t *testing.T, cmd *exec.Cmd) map[string]uint64 {
	t.Helper()
	out := filepath.Join(t.TempDir(), "strace.out")
	args := append([]string{"-f", "-c", "-o", out, "-e", "trace=" + strings.Join(countedNames(), ","), "--", cmd.Path}, cmd.Args[1:]...)
	s := exec.Command("strace", args...)
	s.Env, s.Dir, s.Stdin, s.Stdout, s.Stderr = cmd.Env, cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr
	if err := s.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("strace: %v", err)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return parseStraceSummary(t, bufio.NewScanner(f))
}

// parseStraceSummary reads strace -c's table:
//
//	% time     seconds  usecs/call     calls    errors syscall
//	------ ----------- ----------- --------- --------- ----------------
//	 62.07    0.000036           0       800           fcntl
func parseStraceSummary(t *testing.T, sc *bufio.Scanner) map[string]uint64 {
	t.Helper()
	counts := map[string]uint64{}
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || fields[0] == "%" || strings.HasPrefix(fields[0], "-") {
			continue
		}
		name := fields[len(fields)-1]
		if name == "total" {
			continue
		}
		n, err := strconv.ParseUint(fields[3], 10, 64)
		if err != nil {
			t.Fatalf("strace summary line %q: %v", sc.Text(), err)
		}
		counts[name] = n
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return counts
}

// compareWithStrace traces two identical commands, one with Run and one with
// strace, and requires the same count for every call.
func compareWithStrace(t *testing.T, makeCmd func() *exec.Cmd) *Counts {
	t.Helper()
	need(t, "strace")
	c, err := Run(makeCmd(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := straceCounts(t, makeCmd())
	for _, name := range countedNames() {
		if got := c.Total(name); got != want[name] {
			t.Errorf("%s: traced %d calls, strace counted %d", name, got, want[name])
		}
	}
	t.Logf("strace -f -c: %v", want)
	t.Logf("tracer:       %v", c.Syscalls)
	return c
}

func TestGoSyncMatchesStrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	c := compareWithStrace(t, func() *exec.Cmd { return selfCommand(t, "sync", path, "137") })
	if got := c.Syscalls["fsync"]; got != 137 {
		t.Errorf("fsync calls = %d, want 137 (os.File.Sync is fsync on Linux)", got)
	}
	if f := c.ByPath[path]; f == nil || f.Calls["fsync"] != 137 || f.Class != ClassOther {
		t.Errorf("ByPath[%s] = %+v, want 137 fsyncs in class other", path, f)
	}
	if c.Exit != (ExitStatus{}) {
		t.Errorf("exit = %v, want exit status 0", c.Exit)
	}
}

func TestGoSyncFromManyThreads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	c, err := Run(selfCommand(t, "sync-threads", path, "137"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.ByFile[ClassDB]["fsync"]; got != 137 {
		t.Errorf("fsyncs on the db file = %d, want 137; counts %v", got, c.Syscalls)
	}
}

func TestPythonFsyncMatchesStrace(t *testing.T) {
	need(t, "python3", "sh")
	dir := t.TempDir()
	path := filepath.Join(dir, "data")
	// sh forks python3 (through pyenv's shim, a bash script, where present):
	// the counts must follow every child.
	script := fmt.Sprintf(`import os
fd = os.open(%q, os.O_WRONLY | os.O_CREAT | os.O_DSYNC, 0o644)
os.write(fd, b"x" * 1000)
for _ in range(50):
    os.fsync(fd)
`, path)
	c := compareWithStrace(t, func() *exec.Cmd {
		return exec.Command("sh", "-c", `python3 -c "$1"; exit $?`, "sh", script)
	})
	if got := c.ByPath[path]; got == nil || got.Calls["fsync"] != 50 || got.Calls["O_DSYNC"] != 1 || got.WriteBytes != 1000 {
		t.Errorf("ByPath[%s] = %+v, want 50 fsyncs, 1 O_DSYNC open, 1000 bytes", path, got)
	}
	if c.OpenFlags["O_DSYNC"] != 1 {
		t.Errorf("OpenFlags = %v, want one O_DSYNC open", c.OpenFlags)
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

// sqliteCommand returns a command that runs script in the sqlite3 shell on a
// new database in a new directory.
func sqliteCommand(t *testing.T, script string) *exec.Cmd {
	cmd := exec.Command("sqlite3", filepath.Join(t.TempDir(), "test.db"))
	cmd.Stdin = strings.NewReader(script)
	return cmd
}

func TestSQLiteShellMatchesStrace(t *testing.T) {
	need(t, "sqlite3")
	const commits = 200
	for _, tc := range []struct {
		journal string
		// synced lists the files each commit must sync at least once.
		synced []Class
	}{
		{"WAL", []Class{ClassWAL}},
		{"DELETE", []Class{ClassJournal, ClassDirectory, ClassDB}},
	} {
		t.Run(tc.journal+"/FULL", func(t *testing.T) {
			script := sqliteScript(tc.journal, "FULL", commits)
			c := compareWithStrace(t, func() *exec.Cmd { return sqliteCommand(t, script) })
			for _, class := range tc.synced {
				syncs := c.ByFile[class]["fsync"] + c.ByFile[class]["fdatasync"]
				if syncs < commits {
					t.Errorf("%s: %d syncs for %d commits; by file: %v", class, syncs, commits, c.ByFile)
				}
			}
			if c.Total("fcntl") == 0 {
				t.Errorf("no fcntl calls: SQLite locks with fcntl")
			}
			t.Logf("by file: %v", c.ByFile)
		})
	}
}

func TestWindow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	args := []string{path, "3", "5", "7", "2"}

	c, err := Run(selfCommand(t, "window", args...), Options{Window: true})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Windowed {
		t.Errorf("Windowed = false, want true")
	}
	// Only the 5 syncs between the first start and stop, and the 2 after the
	// second start, are inside a window; the open came before.
	want := map[string]uint64{"fsync": 5 + 2}
	if fmt.Sprint(c.Syscalls) != fmt.Sprint(want) {
		t.Errorf("windowed counts = %v, want %v", c.Syscalls, want)
	}

	c, err = Run(selfCommand(t, "window", args...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Windowed || c.Syscalls["fsync"] != 3+5+7+2 {
		t.Errorf("unwindowed: Windowed %v, fsyncs %d, want false and 17", c.Windowed, c.Syscalls["fsync"])
	}
	if n := c.Syscalls["write"]; n != 0 {
		t.Errorf("marks counted as %d writes, want 0", n)
	}
}

func TestWindowWithoutMarks(t *testing.T) {
	c, err := Run(selfCommand(t, "sync", filepath.Join(t.TempDir(), "data"), "4"), Options{Window: true})
	if err != nil {
		t.Fatal(err)
	}
	if c.Windowed || len(c.Syscalls) != 0 {
		t.Errorf("Windowed %v, counts %v; want false and nothing counted", c.Windowed, c.Syscalls)
	}
}

func TestKilledChildKeepsCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	c, err := Run(selfCommand(t, "kill", path, "4"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Syscalls["fsync"] != 4 || c.Exit.Signal != "SIGKILL" || c.Exit.Code != -1 {
		t.Errorf("fsyncs %d, exit %v; want 4 and killed by SIGKILL", c.Syscalls["fsync"], c.Exit)
	}
}

func TestCrashedChildKeepsCounts(t *testing.T) {
	need(t, "python3")
	path := filepath.Join(t.TempDir(), "data")
	script := fmt.Sprintf(`import ctypes, os
fd = os.open(%q, os.O_WRONLY | os.O_CREAT, 0o644)
for _ in range(3):
    os.fsync(fd)
ctypes.string_at(0)
`, path)
	cmd := exec.Command("python3", "-c", script)
	c, err := Run(cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.ByPath[path] == nil || c.ByPath[path].Calls["fsync"] != 3 || c.Exit.Signal != "SIGSEGV" {
		t.Errorf("ByPath %v, exit %v; want 3 fsyncs on %s and killed by SIGSEGV", c.ByPath, c.Exit, path)
	}
}

func TestExecFromThread(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	c, err := Run(selfCommand(t, "exec", path, "3", "4"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Syscalls["fsync"] != 3+4 || c.Exit != (ExitStatus{}) {
		t.Errorf("fsyncs %d, exit %v; want 7 and exit status 0", c.Syscalls["fsync"], c.Exit)
	}
}

// TestStopSignal checks that a program stopping itself is restarted rather
// than left stopped for ever (the tracer cannot keep a group-stop without
// PTRACE_SEIZE).
func TestStopSignal(t *testing.T) {
	need(t, "python3")
	path := filepath.Join(t.TempDir(), "data")
	script := fmt.Sprintf(`import os, signal
fd = os.open(%q, os.O_WRONLY | os.O_CREAT, 0o644)
os.kill(os.getpid(), signal.SIGSTOP)
os.fsync(fd)
`, path)
	c, err := Run(exec.Command("python3", "-c", script), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.ByPath[path] == nil || c.ByPath[path].Calls["fsync"] != 1 || c.Exit != (ExitStatus{}) {
		t.Errorf("ByPath %v, exit %v; want one fsync on %s and exit status 0", c.ByPath, c.Exit, path)
	}
}

// TestCapturedOutput checks that exec.Cmd's own plumbing still works when
// Run reaps the command: output copied through a pipe arrives whole.
func TestCapturedOutput(t *testing.T) {
	need(t, "sh")
	var out strings.Builder
	cmd := exec.Command("sh", "-c", "echo hello; echo world >&2; exit 5")
	cmd.Stdout, cmd.Stderr = &out, &out
	c, err := Run(cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "hello\nworld\n" || c.Exit.Code != 5 || c.Syscalls["write"] != 2 || c.WriteBytes != 12 {
		t.Errorf("output %q, exit %v, writes %d of %d bytes; want hello, world, exit status 5, 2 writes of 12 bytes",
			out.String(), c.Exit, c.Syscalls["write"], c.WriteBytes)
	}
}

func TestMissingProgram(t *testing.T) {
	_, err := Run(exec.Command("nosuch"), Options{})
	const want = `trace: run "nosuch": executable file not found in $PATH`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	if !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("errors.Is(err, exec.ErrNotFound) = false")
	}
}

func TestConcurrentRuns(t *testing.T) {
	// Each Run has its own tracer thread; their waits must not take each
	// other's tracees (nor children started by other goroutines).
	dir := t.TempDir()
	const runs = 3
	var wg sync.WaitGroup
	results := make([]*Counts, runs)
	errs := make([]error, runs)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = Run(selfCommand(t, "sync", filepath.Join(dir, strconv.Itoa(i)), strconv.Itoa(10+i)), Options{})
		}()
	}
	// An untraced child of this process, waited for by os/exec meanwhile.
	if out, err := exec.Command("true").CombinedOutput(); err != nil {
		t.Errorf("untraced child: %v %s", err, out)
	}
	wg.Wait()
	for i := range runs {
		if errs[i] != nil {
			t.Fatalf("run %d: %v", i, errs[i])
		}
		if got := results[i].Syscalls["fsync"]; got != uint64(10+i) {
			t.Errorf("run %d: %d fsyncs, want %d", i, got, 10+i)
		}
	}
}
