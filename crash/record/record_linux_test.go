//go:build linux && (amd64 || arm64)

package record

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/syscalls/trace"
)

// childEnv switches the test binary into the recorded program (TestMain).
const childEnv = "DURABENCH_RECORD_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		if err := knownOps(os.Args[1]); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// knownOps makes a known sequence of file operations under root, its
// working directory, with the raw system calls so that each one is exactly
// one call.
func knownOps(root string) (err error) {
	must := func(e error) {
		if e != nil && err == nil {
			err = e
		}
	}
	fd := func(n int, e error) int { must(e); return n }
	write := func(f int, s string) { _, e := unix.Write(f, []byte(s)); must(e) }

	must(unix.Mkdir("sub", 0o755))
	a := fd(unix.Open("a", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644))
	write(a, "hello")
	_, e := unix.Pwrite(a, []byte("XY"), 10)
	must(e)
	_, e = unix.Writev(a, [][]byte{[]byte("ab"), []byte("cd")})
	must(e)
	must(unix.Fsync(a))
	must(unix.Fdatasync(a))
	d := fd(unix.Open(filepath.Join(root, "d"), unix.O_CREAT|unix.O_WRONLY|unix.O_DSYNC|unix.O_CLOEXEC, 0o644))
	write(d, "sync")
	must(unix.Ftruncate(a, 4))
	must(unix.Fallocate(a, unix.FALLOC_FL_KEEP_SIZE, 0, 4096))
	must(unix.Fallocate(a, 0, 0, 8192))
	dir := fd(unix.Open(".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0))
	must(unix.Fsync(dir))
	must(unix.Rename("a", "sub/b"))
	trace.MarkAck(1)
	must(unix.Unlink("d"))
	must(unix.Mkdir("sub2", 0o755))
	must(unix.Unlinkat(unix.AT_FDCWD, "sub2", unix.AT_REMOVEDIR))
	b := fd(unix.Open("sub/b", unix.O_WRONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0))
	must(unix.SyncFileRange(b, 0, 0, unix.SYNC_FILE_RANGE_WRITE))
	must(unix.Syncfs(b))
	e2 := fd(unix.Open("e", unix.O_CREAT|unix.O_WRONLY|unix.O_APPEND|unix.O_CLOEXEC, 0o644))
	write(e2, "12")
	write(e2, "34")
	in := fd(unix.Open("init", unix.O_RDWR|unix.O_CLOEXEC, 0))
	_, e = unix.Seek(in, 3, 0)
	must(e)
	write(in, "Z")
	m, e := unix.Mmap(in, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	must(e)
	if e == nil {
		must(unix.Munmap(m))
	}
	write(1, "outside the root\n") // not recorded
	trace.MarkAck(2)
	return err
}

// show prints an event the way the test's table reads.
func show(e crash.Event) string {
	s := fmt.Sprintf("%s %s", e.Op, e.Path)
	if e.NewPath != "" {
		s += " -> " + e.NewPath
	}
	s += fmt.Sprintf(" i%d", e.Inode)
	switch e.Op {
	case crash.OpWrite:
		s += fmt.Sprintf(" %q@%d", e.Data, e.Off)
		if e.Durable {
			s += " durable"
		}
	case crash.OpTruncate:
		s += fmt.Sprintf(" size %d", e.Size)
	case crash.OpFallocate:
		s += fmt.Sprintf(" %d+%d keep=%v", e.Off, e.Size, e.KeepSize)
	case crash.OpSync:
		s += " " + e.Sync.String()
	case crash.OpAck:
		s = fmt.Sprintf("ack %d", e.Ack)
	}
	if e.Dir {
		s += " dir"
	}
	return s
}

func TestRecordKnownOps(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "init"), []byte("start"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, root)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stderr = os.Stderr
	log, counts, err := Record(cmd, root)
	if err != nil {
		t.Fatal(err)
	}
	if counts.Exit != (trace.ExitStatus{}) {
		t.Fatalf("child: %v", counts.Exit)
	}
	want := []string{
		"mkdir sub i3",
		"create a i4",
		`write a i4 "hello"@0`,
		`write a i4 "XY"@10`,
		`write a i4 "abcd"@5`,
		"sync a i4 fsync",
		"sync a i4 fdatasync",
		"create d i5",
		`write d i5 "sync"@0 durable`,
		"truncate a i4 size 4",
		"fallocate a i4 0+4096 keep=true",
		"fallocate a i4 0+8192 keep=false",
		"sync . i1 fsync dir",
		"rename a -> sub/b i4",
		"ack 1",
		"unlink d i5",
		"mkdir sub2 i6",
		"unlink sub2 i6 dir",
		"truncate sub/b i4 size 0",
		"sync sub/b i4 sync_file_range",
		"sync sub/b i4 syncfs",
		"create e i7",
		`write e i7 "12"@0`,
		`write e i7 "34"@2`,
		`write init i2 "Z"@3`,
		"ack 2",
	}
	var got []string
	for _, e := range log.Events {
		got = append(got, show(e))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if string(log.Initial["init"]) != "start" || len(log.Initial) != 1 {
		t.Errorf("initial %q, want only init = start", log.Initial)
	}
	if fmt.Sprint(log.Inodes) != "map[.:1 init:2]" {
		t.Errorf("inodes %v, want . 1 and init 2", log.Inodes)
	}
	if len(log.Notes) != 1 || !strings.Contains(log.Notes[0], "init is mapped shared and writable") {
		t.Errorf("notes %q, want one on init's shared mapping", log.Notes)
	}
	// The log's syncs and the tracer's counts come from the same run by
	// different code: they must agree.
	if n := countSyncs(log, crash.SyncFsync); n != counts.Syscalls["fsync"] {
		t.Errorf("log has %d fsyncs, the tracer counted %d", n, counts.Syscalls["fsync"])
	}
	if _, err := json.Marshal(log); err != nil {
		t.Error(err)
	}
}

func countSyncs(log *crash.Log, kind crash.SyncKind) uint64 {
	var n uint64
	for _, e := range log.Events {
		if e.Op == crash.OpSync && e.Sync == kind {
			n++
		}
	}
	return n
}

func TestRecordBadRoot(t *testing.T) {
	_, _, err := Record(exec.Command("true"), filepath.Join(t.TempDir(), "nosuch"))
	if err == nil || !strings.Contains(err.Error(), "record: root") {
		t.Errorf("err = %v, want one naming the root", err)
	}
}

// TestRecordSQLiteShell records the sqlite3 shell making single-row commits
// in DELETE mode and checks the log against the tracer's own counts and
// against what each commit must do: create the journal, sync it, sync the
// directory, sync the database, and unlink the journal.
func TestRecordSQLiteShell(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skipf("sqlite3 is not installed: %v", err)
	}
	const commits = 20
	root := t.TempDir()
	var script strings.Builder
	script.WriteString("PRAGMA journal_mode=DELETE;\nPRAGMA synchronous=FULL;\nCREATE TABLE t(x);\n")
	for i := range commits {
		fmt.Fprintf(&script, "INSERT INTO t VALUES(%d);\n", i)
	}
	cmd := exec.Command("sqlite3", filepath.Join(root, "test.db"))
	cmd.Stdin = strings.NewReader(script.String())
	log, counts, err := Record(cmd, root)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]int{}
	for _, e := range log.Events {
		key := e.Op.String()
		if e.Op == crash.OpSync {
			key += " " + e.Sync.String()
			if e.Dir {
				key += " dir"
			}
		}
		if e.Op == crash.OpCreate || e.Op == crash.OpUnlink {
			key += " " + e.Path
		}
		ops[key]++
	}
	syncs := countSyncs(log, crash.SyncFsync) + countSyncs(log, crash.SyncFdatasync)
	if want := counts.Syscalls["fsync"] + counts.Syscalls["fdatasync"]; syncs != want {
		t.Errorf("log has %d syncs, the tracer counted %d", syncs, want)
	}
	// The table's creation is one more commit.
	if ops["create test.db-journal"] < commits+1 || ops["unlink test.db-journal"] != ops["create test.db-journal"] {
		t.Errorf("journal created %d times, unlinked %d; want %d each", ops["create test.db-journal"], ops["unlink test.db-journal"], commits+1)
	}
	if syncs < 4*commits {
		t.Errorf("%d syncs for %d DELETE/FULL commits, want at least 4 each", syncs, commits)
	}
	t.Logf("ops: %v", ops)
}

// TestRecordIsRepeatable records the sqlite3 shell twice in WAL mode
// (random WAL salts, random journal nonce): with the random stream fixed,
// both logs are the same, byte for byte.
func TestRecordIsRepeatable(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skipf("sqlite3 is not installed: %v", err)
	}
	script := "PRAGMA journal_mode=WAL;\nCREATE TABLE t(x);\nINSERT INTO t VALUES(1);\nINSERT INTO t VALUES(2);\n"
	var logs [2][]byte
	for i := range logs {
		root := t.TempDir()
		cmd := exec.Command("sqlite3", "test.db")
		cmd.Dir = root
		cmd.Stdin = strings.NewReader(script)
		log, _, err := Record(cmd, root)
		if err != nil {
			t.Fatal(err)
		}
		if logs[i], err = json.Marshal(log); err != nil {
			t.Fatal(err)
		}
	}
	if string(logs[0]) != string(logs[1]) {
		t.Errorf("two recordings differ:\n%s\n%s", logs[0], logs[1])
	}
}
