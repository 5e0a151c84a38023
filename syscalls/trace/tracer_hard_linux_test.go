//go:build linux && (amd64 || arm64)

package trace

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ackHook records the acknowledgements a run reports, and the fsyncs it
// sees enter, in order.
type ackHook struct {
	events []string
	onAck  func(n uint64)
}

func (h *ackHook) Enter(c *Call) {}
func (h *ackHook) Exit(c *Call) {
	if !c.Compat && c.Nr == unix.SYS_FSYNC && c.Ret == 0 {
		h.events = append(h.events, "fsync")
	}
}
func (h *ackHook) Ack(pid int, n uint64) {
	h.events = append(h.events, fmt.Sprintf("ack %d", n))
	if h.onAck != nil {
		h.onAck(n)
	}
}

func TestAckMarks(t *testing.T) {
	h := &ackHook{}
	c, err := Run(selfCommand(t, "ack", filepath.Join(t.TempDir(), "data"), "3"), Options{Hook: h})
	if err != nil {
		t.Fatal(err)
	}
	want := "fsync,ack 1,fsync,ack 2,fsync,ack 3"
	if got := strings.Join(h.events, ","); got != want {
		t.Errorf("hook saw %s, want %s", got, want)
	}
	if c.Acks != 3 || c.Syscalls["write"] != 0 || c.Syscalls["fsync"] != 3 {
		t.Errorf("acks %d, writes %d, fsyncs %d; want 3, 0 (marks are not writes), 3", c.Acks, c.Syscalls["write"], c.Syscalls["fsync"])
	}
}

func TestParseAck(t *testing.T) {
	for _, tc := range []struct {
		text string
		n    uint64
		ok   bool
	}{
		{MarkAckText(0), 0, true},
		{MarkAckText(17), 17, true},
		{MarkAckText(1<<64 - 1), 1<<64 - 1, true},
		{"durabench-trace: ack 17", 0, false},
		{"durabench-trace: ack \n", 0, false},
		{"durabench-trace: ack 017\n", 0, false},
		{"durabench-trace: ack -1\n", 0, false},
		{"durabench-trace: ack 18446744073709551616\n", 0, false},
		{MarkStartText, 0, false},
	} {
		n, ok := parseAck([]byte(tc.text))
		if n != tc.n || ok != tc.ok {
			t.Errorf("parseAck(%q) = %d, %v; want %d, %v", tc.text, n, ok, tc.n, tc.ok)
		}
	}
	if len(MarkAckText(1<<64-1)) != maxMarkLen {
		t.Errorf("maxMarkLen %d, longest ack text %d", maxMarkLen, len(MarkAckText(1<<64-1)))
	}
}

// TestRegisterFallback traces the same program with the registers read
// directly (as on kernels without PTRACE_GET_SYSCALL_INFO) and checks the
// counts are the same as with it.
func TestRegisterFallback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	with, err := Run(selfCommand(t, "exec", path, "3", "4"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	useSyscallInfo = false
	defer func() { useSyscallInfo = true }()
	without, err := Run(selfCommand(t, "exec", path, "3", "4"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(with.Syscalls) != fmt.Sprint(without.Syscalls) || with.Syscalls["fsync"] != 7 {
		t.Errorf("with PTRACE_GET_SYSCALL_INFO %v, with registers %v; want the same, 7 fsyncs", with.Syscalls, without.Syscalls)
	}
	for _, n := range with.Notes {
		if strings.Contains(n, "PTRACE_GET_SYSCALL_INFO") {
			t.Errorf("note %q on kernel 5.3 or later", n)
		}
	}
}

// TestLateForkEvent replays the order that made wait4 fail with ECHILD: a
// child's first stop and its death are reported before its parent's fork
// event. The late event must not add a task that will never report again.
func TestLateForkEvent(t *testing.T) {
	tr := &tracer{tasks: map[int]*task{}, gone: map[int]bool{}, live: map[int]bool{}}
	tr.addTask(100).announced = true // the command
	// Child 101: first stop, then death, then the parent's event.
	tr.addTask(101)
	tr.ended(101)
	tr.born(101)
	// Child 102: killed before its first stop, then the parent's event.
	tr.ended(102)
	tr.born(102)
	// Child 103: the ordinary order.
	tr.born(103)
	tr.ended(103)
	if len(tr.tasks) != 1 || tr.tasks[100] == nil || len(tr.gone) != 0 || len(tr.live) != 1 {
		t.Errorf("tasks %v, gone %v, live %v; want only the command left", tr.tasks, tr.gone, tr.live)
	}
}

// TestManyShortChildren is the load under which the late fork event showed:
// many children that end at once, several runs at a time.
func TestManyShortChildren(t *testing.T) {
	need(t, "sh")
	const runs = 4
	errs := make(chan error, runs)
	for range runs {
		go func() {
			cmd := exec.Command("sh", "-c", `for i in $(seq 200); do /bin/true & done; wait`)
			_, err := Run(cmd, Options{})
			errs <- err
		}()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestStopKillsDaemon checks that Stop ends a run whose command left a
// daemon (a new session, out of reach of the terminal's Ctrl-C) behind.
func TestStopKillsDaemon(t *testing.T) {
	need(t, "python3")
	script := `import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        try:
            os.write(-1, b"` + strings.TrimSuffix(MarkAckText(1), "\n") + `\n")
        except OSError:
            pass
        time.sleep(600)
    os._exit(0)
`
	stop := make(chan struct{})
	h := &ackHook{onAck: func(uint64) { close(stop) }}
	done := make(chan error, 1)
	var c *Counts
	go func() {
		var err error
		c, err = Run(exec.Command("python3", "-c", script), Options{Hook: h, Stop: stop})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("Run still waiting 2 minutes after Stop was closed: the daemon was not killed")
	}
	if c.Acks != 1 || !strings.Contains(strings.Join(c.Notes, "\n"), "every traced task was killed") {
		t.Errorf("acks %d, notes %q; want 1 and the stop note", c.Acks, c.Notes)
	}
}

// TestInt0x80 traces a 64-bit program that makes 32-bit system calls with
// int 0x80 (the code segment is the 64-bit one: only
// PTRACE_GET_SYSCALL_INFO's arch tells them apart), and requires them to be
// counted by the i386 table.
func TestInt0x80(t *testing.T) {
	if compatTable == nil {
		t.Skip("no 32-bit table on this architecture")
	}
	need(t, "cc")
	dir := t.TempDir()
	src := filepath.Join(dir, "int80.c")
	const prog = `#include <fcntl.h>
#include <stdio.h>
int main(int argc, char **argv) {
	int fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0) { perror("open"); return 1; }
	for (int i = 0; i < 5; i++) {
		long ret;
		__asm__ volatile ("int $0x80" : "=a"(ret) : "a"(118), "b"(fd) : "memory"); /* i386 fsync */
		if (ret != 0) { fprintf(stderr, "fsync: %ld\n", ret); return 1; }
	}
	long ret;
	__asm__ volatile ("int $0x80" : "=a"(ret) : "a"(148), "b"(fd) : "memory"); /* i386 fdatasync */
	return ret != 0;
}
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "int80")
	if out, err := exec.Command("cc", "-O1", "-o", exe, src).CombinedOutput(); err != nil {
		t.Skipf("cannot build the int 0x80 program: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	c, err := Run(exec.Command(exe, data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Exit != (ExitStatus{}) {
		t.Fatalf("int80 program: %v", c.Exit)
	}
	f := c.ByPath[data]
	if c.Syscalls["fsync"] != 5 || c.Syscalls["fdatasync"] != 1 || f == nil || f.Calls["fsync"] != 5 {
		t.Errorf("fsync %d, fdatasync %d, by path %+v; want 5 and 1 on %s", c.Syscalls["fsync"], c.Syscalls["fdatasync"], f, data)
	}
	if !strings.Contains(strings.Join(c.Notes, "\n"), "6 32-bit system calls") {
		t.Errorf("notes %q; want one saying 6 32-bit system calls were counted", c.Notes)
	}
}
