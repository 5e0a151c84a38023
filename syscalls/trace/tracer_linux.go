//go:build linux && (amd64 || arm64)

package trace

// How the tracer works, and the rules it keeps:
//
//   - ptrace ties a tracee to one thread, its tracer: every ptrace request,
//     and the wait that reports the tracee's stops, must come from that
//     thread. Run therefore starts the command from a goroutine locked to its
//     OS thread and makes every ptrace call there. It never unlocks it: when
//     the goroutine returns, the runtime ends the thread, and
//     PTRACE_O_EXITKILL kills any tracee still attached (after an error).
//   - The command starts under PTRACE_TRACEME (SysProcAttr.Ptrace) and stops
//     with SIGTRAP once its execve succeeds. The tracer then sets its options
//     and resumes it with PTRACE_SYSCALL, which stops it again at the entry
//     and at the exit of every system call.
//   - PTRACE_O_TRACECLONE, TRACEFORK and TRACEVFORK attach every new thread
//     and child automatically. A new task's first stop is a SIGSTOP that the
//     kernel queued for the attachment: it is swallowed. It may be reported
//     before its parent's fork or clone event, so a stop from an unknown pid
//     is a new task. Such a task may even run to its end (or be killed
//     before its first stop) before the parent's event is seen: its death is
//     remembered, so that the late event does not add a task that will never
//     report again (wait4 would then fail with ECHILD while the tracer still
//     waited for it).
//   - One wait4(-1, __WALL|__WNOTHREAD) loop serves every task. __WALL
//     reports threads as well as processes; __WNOTHREAD restricts the wait
//     to this thread's children and tracees, so that the loop never reaps a
//     child that another goroutine started (and Go's os/exec waits for).
//   - A syscall-stop is an entry or an exit. PTRACE_GET_SYSCALL_INFO (Linux
//     5.3) says which, with the call's number, arguments and mode (native or
//     32-bit); where the kernel lacks it (EIO on the first try), the
//     registers are read instead and each task alternates, starting outside
//     a call (a new task's first syscall-stop is an entry, and execve's
//     entry and exit stay paired around its PTRACE_EVENT_EXEC stop).
//   - A 32-bit call (a -m32 program, or int 0x80 from a 64-bit one) has its
//     own numbers. On amd64 they are counted with the i386 table; where no
//     table exists they are counted as uncounted, and a note says how many.
//   - Calls are counted at entry, so that a call the task dies in is
//     counted; results (bytes written, the descriptor an open returned) are
//     read at exit. A task that dies still has everything up to its death
//     counted, because the counts live in the tracer.
//   - Every other stop is a signal for the tracee: it is passed on when the
//     task is restarted, except the group-stop that follows a stop signal
//     (told apart by PTRACE_GETSIGINFO failing). Without PTRACE_SEIZE a
//     tracer cannot leave a task in group-stop and still see SIGCONT, so, as
//     strace does, it restarts the task.

import (
	"bytes"
	"fmt"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ptraceOptions asks for syscall-stops marked SIGTRAP|0x80, automatic
// attachment to new threads and processes, an event at execve, and the death
// of every tracee if the tracer goes away.
const ptraceOptions = unix.PTRACE_O_TRACESYSGOOD |
	unix.PTRACE_O_TRACECLONE | unix.PTRACE_O_TRACEFORK | unix.PTRACE_O_TRACEVFORK |
	unix.PTRACE_O_TRACEEXEC | unix.PTRACE_O_EXITKILL

// syscallTrap is the stop signal of a syscall-stop under PTRACE_O_TRACESYSGOOD.
const syscallTrap = unix.SIGTRAP | 0x80

// Run starts cmd under ptrace, follows every thread and child process it
// creates, and returns the calls they made once all of them have exited.
//
// cmd must not have been started; Run sets SysProcAttr.Ptrace and waits for
// cmd itself (cmd.Wait afterwards returns an error). A command that crashes
// or is killed is not an error: its counts up to that point are returned,
// with Counts.Exit saying how it ended. A command that cannot be started
// yields an error naming it, e.g.
// `trace: run "nosuch": executable file not found in $PATH`.
//
// Programs that leave children running keep Run waiting until those exit
// too. Run can be called from several goroutines at once.
func Run(cmd *exec.Cmd, opts Options) (*Counts, error) {
	type result struct {
		c   *Counts
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: see the top of this file
		c, err := run(cmd, opts)
		done <- result{c, err}
	}()
	r := <-done
	return r.c, r.err
}

// run traces cmd from the current, locked, thread.
func run(cmd *exec.Cmd, opts Options) (*Counts, error) {
	attr := syscall.SysProcAttr{}
	if cmd.SysProcAttr != nil {
		attr = *cmd.SysProcAttr
	}
	attr.Ptrace = true
	cmd.SysProcAttr = &attr
	if err := cmd.Start(); err != nil {
		return nil, RunError("trace", cmd, err)
	}

	t := newTracer(cmd, opts)
	if opts.Stop != nil {
		finished := make(chan struct{})
		defer close(finished)
		go func() {
			select {
			case <-opts.Stop:
				t.stop()
			case <-finished:
			}
		}()
	}
	err := t.loop()
	if err != nil {
		t.killAll()
	}
	// The loop reaped the command, so Wait fails (ECHILD); it is called to
	// wait for exec.Cmd's copying goroutines and close its pipes.
	_ = cmd.Wait()
	if err != nil {
		return nil, err
	}
	t.finish()
	return t.c, nil
}

// sysKind says how a counted system call is counted.
type sysKind uint8

const (
	kindFd      sysKind = iota + 1 // attributed to the descriptor in the first argument
	kindNoFd                       // no descriptor: sync, msync
	kindFcntl                      // counted by command, attributed to the descriptor
	kindWrite                      // attributed to the descriptor; bytes from the result
	kindOpen                       // open flags in argument flagArg
	kindOpenat2                    // open flags in the struct open_how that argument 2 points to
	kindUring                      // io_uring: counted, with a note that rings hide their I/O
)

// sysInfo describes one counted system call.
type sysInfo struct {
	nr      uint64
	name    string // as strace names it
	kind    sysKind
	flagArg uint8 // kindOpen: which argument holds the flags
}

// commonSyscalls are the counted calls; unix.SYS_* are the numbers of the
// architecture being built, archSyscalls adds those only one of them has.
var commonSyscalls = []sysInfo{
	{nr: unix.SYS_FSYNC, name: "fsync", kind: kindFd},
	{nr: unix.SYS_FDATASYNC, name: "fdatasync", kind: kindFd},
	{nr: unix.SYS_SYNC_FILE_RANGE, name: "sync_file_range", kind: kindFd},
	{nr: unix.SYS_SYNCFS, name: "syncfs", kind: kindFd},
	{nr: unix.SYS_SYNC, name: "sync", kind: kindNoFd},
	{nr: unix.SYS_MSYNC, name: "msync", kind: kindNoFd},
	{nr: unix.SYS_FCNTL, name: "fcntl", kind: kindFcntl},
	{nr: unix.SYS_FTRUNCATE, name: "ftruncate", kind: kindFd},
	{nr: unix.SYS_FALLOCATE, name: "fallocate", kind: kindFd},
	{nr: unix.SYS_WRITE, name: "write", kind: kindWrite},
	{nr: unix.SYS_PWRITE64, name: "pwrite64", kind: kindWrite},
	{nr: unix.SYS_WRITEV, name: "writev", kind: kindWrite},
	{nr: unix.SYS_PWRITEV, name: "pwritev", kind: kindWrite},
	{nr: unix.SYS_PWRITEV2, name: "pwritev2", kind: kindWrite},
	{nr: unix.SYS_OPENAT, name: "openat", kind: kindOpen, flagArg: 2},
	{nr: unix.SYS_OPENAT2, name: "openat2", kind: kindOpenat2},
	{nr: unix.SYS_IO_URING_SETUP, name: "io_uring_setup", kind: kindUring},
	{nr: unix.SYS_IO_URING_ENTER, name: "io_uring_enter", kind: kindUring},
	{nr: unix.SYS_IO_URING_REGISTER, name: "io_uring_register", kind: kindUring},
}

// syscallTable maps a system call number to its sysInfo, nil if not counted.
var syscallTable = func() []*sysInfo {
	all := append(append([]sysInfo(nil), commonSyscalls...), archSyscalls...)
	var top uint64
	for _, s := range all {
		top = max(top, s.nr)
	}
	table := make([]*sysInfo, top+1)
	for i := range all {
		table[all[i].nr] = &all[i]
	}
	return table
}()

// compatTable is syscallTable for 32-bit calls, nil where there is none.
var compatTable = func() []*sysInfo {
	if compatSyscalls == nil {
		return nil
	}
	var top uint64
	for _, s := range compatSyscalls {
		top = max(top, s.nr)
	}
	table := make([]*sysInfo, top+1)
	for i := range compatSyscalls {
		table[compatSyscalls[i].nr] = &compatSyscalls[i]
	}
	return table
}()

// regs is the architecture-neutral view of a syscall-stop.
type regs struct {
	nr     uint64
	args   [6]uint64
	ret    int64 // meaningful at exit only
	compat bool  // a 32-bit call: its numbers are the 32-bit mode's
}

// task is what the tracer knows of one traced thread.
type task struct {
	pid       int
	fresh     bool     // attached automatically; its initial SIGSTOP is still due
	announced bool     // its parent's fork or clone event was seen (or it is the command)
	inSyscall bool     // between a syscall-entry stop and its exit stop
	call      *sysInfo // the counted call in progress, nil if none
	file      *fileRef // the file that call was attributed to, nil if none
	openFlags uint64   // the durability flags of the open in progress
	hooked    bool     // the Hook saw the entry of the call in progress
	entry     Call     // the call in progress, for the Hook's Exit
}

// fileRef is a file the tracer has attributed calls to.
type fileRef struct {
	path  string
	class Class
}

// tracer holds the state of one traced run. Only the locked thread uses it,
// except mu, live and stopping, which stop uses from another goroutine.
type tracer struct {
	c        *Counts
	opts     Options
	classify Classifier
	pid      int           // the command's process
	tasks    map[int]*task // by thread id
	// gone holds the tasks that ended before their parent's fork or clone
	// event was seen, so that the event does not add them again.
	gone map[int]bool
	hook Hook

	// noSysInfo is set when PTRACE_GET_SYSCALL_INFO is missing: registers
	// are read instead.
	noSysInfo bool
	sysInfo   syscallInfo
	compat    uint64 // 32-bit calls seen
	uncounted uint64 // 32-bit calls that no table describes

	// live mirrors the keys of tasks for stop, which runs on another
	// goroutine; stopping tells the loop to kill whatever still reports.
	mu         sync.Mutex
	live       map[int]bool
	stopping   atomic.Bool
	files      map[string]*fileRef
	fcntlNames map[uint64]string
	windowOpen bool

	regs     regs
	archRegs archRegs
	linkBuf  [unix.PathMax]byte
	memBuf   [maxMarkLen]byte
	noted    map[string]bool
}

func newTracer(cmd *exec.Cmd, opts Options) *tracer {
	t := &tracer{
		c:          NewCounts("ptrace", cmd.Args),
		opts:       opts,
		classify:   opts.Classify,
		pid:        cmd.Process.Pid,
		tasks:      map[int]*task{},
		gone:       map[int]bool{},
		live:       map[int]bool{},
		hook:       opts.Hook,
		noSysInfo:  !useSyscallInfo,
		files:      map[string]*fileRef{},
		fcntlNames: map[uint64]string{},
		noted:      map[string]bool{},
	}
	t.c.Window = opts.Window
	if t.classify == nil {
		t.classify = ClassifyPath
	}
	return t
}

// loop follows the command and its descendants until all have exited.
func (t *tracer) loop() error {
	// The command's first stop: SIGTRAP after its execve.
	var ws unix.WaitStatus
	if _, err := wait4(t.pid, &ws); err != nil {
		return fmt.Errorf("trace: wait for %d to start: %w", t.pid, err)
	}
	if !ws.Stopped() {
		t.c.Exit = exitStatus(ws)
		return nil
	}
	if err := unix.PtraceSetOptions(t.pid, ptraceOptions); err != nil {
		return fmt.Errorf("trace: set ptrace options on %d: %w", t.pid, err)
	}
	t.addTask(t.pid).announced = true
	t.tasks[t.pid].fresh = false
	if err := t.resume(t.pid, 0); err != nil {
		return err
	}

	for len(t.tasks) > 0 {
		pid, err := wait4(-1, &ws)
		if err != nil {
			return fmt.Errorf("trace: wait with %d tasks traced: %w", len(t.tasks), err)
		}
		if err := t.handle(pid, ws); err != nil {
			return err
		}
	}
	return nil
}

// wait4 waits for a stop or the death of pid (or of any tracee, for -1),
// restarting on EINTR.
func wait4(pid int, ws *unix.WaitStatus) (int, error) {
	for {
		wpid, err := unix.Wait4(pid, ws, unix.WALL|unix.WNOTHREAD, nil)
		if err != unix.EINTR {
			return wpid, err
		}
	}
}

// handle deals with one report from wait4 and restarts the task if it
// stopped.
func (t *tracer) handle(pid int, ws unix.WaitStatus) error {
	if ws.Exited() || ws.Signaled() {
		if pid == t.pid {
			t.c.Exit = exitStatus(ws)
		}
		t.ended(pid)
		return nil
	}
	if !ws.Stopped() {
		return nil
	}
	k := t.tasks[pid]
	if k == nil {
		// A new task whose first stop came before its parent's event.
		k = t.addTask(pid)
	}
	if t.stopping.Load() {
		// Stop was asked for: whatever reports is killed, new tasks too.
		// SIGKILL ends a task even in a ptrace stop; its death comes next.
		_ = unix.Kill(pid, unix.SIGKILL)
		return nil
	}

	inject := 0
	switch sig := ws.StopSignal(); {
	case sig == syscallTrap:
		if err := t.syscallStop(k); err != nil {
			return err
		}
	case sig == unix.SIGTRAP && ws.TrapCause() > 0:
		t.event(k, ws.TrapCause())
	case sig == unix.SIGSTOP && k.fresh:
		// The SIGSTOP that comes with automatic attachment: swallow it.
	default:
		inject = t.signalStop(pid, sig)
	}
	k.fresh = false
	return t.resume(pid, inject)
}

// resume restarts a stopped task until its next syscall-stop, delivering
// signal sig if it is not 0. A task that was killed while stopped (ESRCH)
// is not an error: wait4 reports its death next.
func (t *tracer) resume(pid, sig int) error {
	if err := unix.PtraceSyscall(pid, sig); err != nil && err != unix.ESRCH {
		return fmt.Errorf("trace: restart task %d: %w", pid, err)
	}
	return nil
}

func (t *tracer) addTask(pid int) *task {
	k := &task{pid: pid, fresh: true}
	t.tasks[pid] = k
	t.mu.Lock()
	t.live[pid] = true
	t.mu.Unlock()
	return k
}

// ended forgets a task that died. A task whose parent's event has not been
// seen yet (it may even die before its first stop) is remembered in gone,
// for born to find.
func (t *tracer) ended(pid int) {
	if k := t.tasks[pid]; k == nil || !k.announced {
		t.gone[pid] = true
	}
	delete(t.tasks, pid)
	t.mu.Lock()
	delete(t.live, pid)
	t.mu.Unlock()
}

// born handles a parent's fork, vfork or clone event for child: the child
// is traced already (its first stop came first), or it has already ended,
// or it is new.
func (t *tracer) born(child int) {
	switch {
	case t.tasks[child] != nil:
		t.tasks[child].announced = true
	case t.gone[child]:
		delete(t.gone, child)
	default:
		t.addTask(child).announced = true
	}
}

// event handles a PTRACE_EVENT stop.
func (t *tracer) event(k *task, ev int) {
	switch ev {
	case unix.PTRACE_EVENT_FORK, unix.PTRACE_EVENT_VFORK, unix.PTRACE_EVENT_CLONE:
		if child, err := unix.PtraceGetEventMsg(k.pid); err == nil {
			t.born(int(child))
		}
	case unix.PTRACE_EVENT_EXEC:
		// When a thread other than the leader calls execve, the kernel
		// ends the other threads and gives the caller the leader's id; the
		// event message is its old id. Its state (in execve) moves over.
		former, err := unix.PtraceGetEventMsg(k.pid)
		if err == nil && int(former) != k.pid {
			if old := t.tasks[int(former)]; old != nil {
				t.ended(int(former))
				old.pid = k.pid
				old.announced = true
				t.tasks[k.pid] = old
			}
		}
	}
}

// signalStop returns the signal to deliver to a task that stopped with sig.
func (t *tracer) signalStop(pid int, sig syscall.Signal) int {
	switch sig {
	case unix.SIGSTOP, unix.SIGTSTP, unix.SIGTTIN, unix.SIGTTOU:
		// A stop signal is seen twice: when it is delivered (pass it on)
		// and when it has stopped the group (group-stop, no siginfo).
		var info [128]byte // siginfo_t
		_, _, errno := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_GETSIGINFO,
			uintptr(pid), 0, uintptr(unsafe.Pointer(&info)), 0, 0)
		if errno == unix.EINVAL {
			return 0
		}
	}
	return int(sig)
}

// syscallStop handles a syscall-entry or syscall-exit stop.
func (t *tracer) syscallStop(k *task) error {
	r := &t.regs
	entry, ok, err := t.readSyscallInfo(k.pid, r)
	if !ok && err == nil {
		err = t.readRegs(k.pid, r)
		entry = !k.inSyscall
	}
	if err != nil {
		if err == unix.ESRCH {
			return nil // killed while stopped; its death is reported next
		}
		return fmt.Errorf("trace: read the system call of task %d: %w", k.pid, err)
	}
	k.inSyscall = entry
	if entry {
		t.enter(k, r)
	} else {
		t.exit(k, r)
	}
	return nil
}

// useSyscallInfo is false in tests that check the fallback on registers.
var useSyscallInfo = true

// syscallInfo is struct ptrace_syscall_info (linux/ptrace.h): op, arch and
// two pointers, then either the entry's number and arguments or the exit's
// result.
type syscallInfo struct {
	op    uint8
	_     [3]uint8
	arch  uint32
	ip    uint64
	sp    uint64
	nrRet uint64    // entry: nr; exit: rval
	args  [6]uint64 // entry: args; exit: is_error in the first byte
	_     uint64    // seccomp's ret_data and padding
}

// readSyscallInfo fills r from PTRACE_GET_SYSCALL_INFO and says whether the
// stop is an entry. ok is false, with no error, where the kernel does not
// have the request (or does not say which stop this is): the caller then
// reads the registers.
func (t *tracer) readSyscallInfo(pid int, r *regs) (entry, ok bool, err error) {
	if t.noSysInfo {
		return false, false, nil
	}
	si := &t.sysInfo
	_, _, errno := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_GET_SYSCALL_INFO,
		uintptr(pid), unsafe.Sizeof(*si), uintptr(unsafe.Pointer(si)), 0, 0)
	switch {
	case errno == unix.ESRCH:
		return false, false, errno
	case errno != 0:
		t.noSysInfo = true // EIO: older than Linux 5.3
		return false, false, nil
	}
	switch si.op {
	case unix.PTRACE_SYSCALL_INFO_ENTRY:
		r.nr, r.args, r.ret = si.nrRet, si.args, 0
		r.compat = si.arch != nativeArch
		return true, true, nil
	case unix.PTRACE_SYSCALL_INFO_EXIT:
		r.ret = int64(si.nrRet)
		return false, true, nil
	}
	return false, false, nil
}

// enter counts a call at its entry.
func (t *tracer) enter(k *task, r *regs) {
	k.call, k.file, k.openFlags, k.hooked = nil, nil, 0, false
	table := syscallTable
	if r.compat {
		t.compat++
		if table = compatTable; table == nil {
			t.uncounted++
			return
		}
	}
	var info *sysInfo
	if r.nr < uint64(len(table)) {
		info = table[r.nr]
	}
	if info != nil && info.kind == kindWrite && int32(r.args[0]) == -1 && t.mark(k.pid, r) {
		return
	}
	if t.hook != nil {
		k.hooked = true
		k.entry = Call{Pid: k.pid, Nr: r.nr, Args: r.args, Compat: r.compat}
		t.hook.Enter(&k.entry)
	}
	if info == nil {
		return
	}
	if t.opts.Window && !t.windowOpen {
		return
	}

	name := info.name
	switch info.kind {
	case kindFcntl:
		cmd := r.args[1]
		if r.compat {
			cmd = compatFcntl(cmd)
		}
		name = t.fcntlName(cmd)
	case kindOpen:
		k.openFlags = r.args[info.flagArg] & durabilityFlags
	case kindOpenat2:
		// struct open_how begins with the 64-bit flags.
		if flags, ok := t.readUint64(k.pid, r.args[2]); ok {
			k.openFlags = flags & durabilityFlags
		}
	case kindUring:
		t.note("io_uring in use: I/O submitted through a ring makes no system call and is not counted")
	}
	k.call = info
	t.c.Syscalls[name]++
	for _, flag := range openFlagNames(k.openFlags) {
		t.c.OpenFlags[flag]++
	}
	switch info.kind {
	case kindFd, kindFcntl, kindWrite:
		if k.file = t.resolve(k.pid, r.args[0]); k.file != nil {
			t.c.AddFileCall(k.file.path, k.file.class, name, 1)
		}
	}
}

// exit reads the result of a counted call.
func (t *tracer) exit(k *task, r *regs) {
	if k.hooked {
		k.hooked = false
		k.entry.Ret = r.ret
		t.hook.Exit(&k.entry)
	}
	info := k.call
	k.call = nil
	if info == nil || r.ret < 0 {
		return
	}
	switch info.kind {
	case kindWrite:
		t.c.WriteBytes += uint64(r.ret)
		if k.file != nil {
			t.c.AddFileBytes(k.file.path, k.file.class, uint64(r.ret))
		}
	case kindOpen, kindOpenat2:
		if k.openFlags == 0 {
			return
		}
		if f := t.resolve(k.pid, uint64(r.ret)); f != nil {
			for _, flag := range openFlagNames(k.openFlags) {
				t.c.AddFileCall(f.path, f.class, flag, 1)
			}
		}
	}
}

// mark reports whether the write(-1, ...) at this entry is a mark, and
// opens or closes the window, or passes on the acknowledgement, if it is.
func (t *tracer) mark(pid int, r *regs) bool {
	n := r.args[2]
	if n == 0 || n > uint64(len(t.memBuf)) {
		return false
	}
	buf := t.memBuf[:n]
	if !t.readMem(pid, r.args[1], buf) {
		return false
	}
	switch {
	case bytes.Equal(buf, markStart):
		t.windowOpen = true
		t.c.Windowed = t.opts.Window
	case bytes.Equal(buf, markStop):
		t.windowOpen = false
	default:
		ack, ok := parseAck(buf)
		if !ok {
			return false
		}
		t.c.Acks++
		if t.hook != nil {
			t.hook.Ack(pid, ack)
		}
	}
	return true
}

// readMem copies len(buf) bytes at addr in pid's memory into buf.
func (t *tracer) readMem(pid int, addr uint64, buf []byte) bool {
	return ReadMem(pid, addr, buf) == nil
}

// ReadMem copies len(buf) bytes at addr in the memory of traced task pid
// into buf (with process_vm_readv), for a Hook. A short read is an error.
func ReadMem(pid int, addr uint64, buf []byte) error {
	if len(buf) == 0 {
		return nil
	}
	local := []unix.Iovec{{Base: &buf[0], Len: uint64(len(buf))}}
	remote := []unix.RemoteIovec{{Base: uintptr(addr), Len: len(buf)}}
	n, err := unix.ProcessVMReadv(pid, local, remote, 0)
	if err != nil {
		return fmt.Errorf("trace: read %d bytes at %#x in task %d: %w", len(buf), addr, pid, err)
	}
	if n != len(buf) {
		return fmt.Errorf("trace: read %d bytes at %#x in task %d: only %d readable", len(buf), addr, pid, n)
	}
	return nil
}

func (t *tracer) readUint64(pid int, addr uint64) (uint64, bool) {
	buf := t.memBuf[:8]
	if !t.readMem(pid, addr, buf) {
		return 0, false
	}
	return *(*uint64)(unsafe.Pointer(&buf[0])), true
}

// resolve finds the file behind descriptor fd of task pid, through
// /proc/PID/fd/FD, at the moment of the call. Reading the link on every call
// costs one readlink; it cannot go stale, which a cache keyed by descriptor
// would (descriptors are closed, duplicated over, shared between processes
// and closed on exec). Files are cached by path: each path is classified
// once. A descriptor that does not resolve (a bad one) gives nil.
func (t *tracer) resolve(pid int, fd uint64) *fileRef {
	if int32(fd) < 0 {
		return nil
	}
	link := "/proc/" + strconv.Itoa(pid) + "/fd/" + strconv.Itoa(int(int32(fd)))
	n, err := unix.Readlink(link, t.linkBuf[:])
	if err != nil {
		return nil
	}
	// An unlinked file (a deleted rollback journal) still has its name.
	name := bytes.TrimSuffix(t.linkBuf[:n], []byte(" (deleted)"))
	if f, ok := t.files[string(name)]; ok {
		return f
	}
	var st unix.Stat_t
	isDir := unix.Stat(link, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR
	f := &fileRef{path: string(name)}
	f.class = t.classify(f.path, isDir)
	t.files[f.path] = f
	return f
}

// fcntlName returns the Counts key of fcntl command cmd, made once per
// command.
func (t *tracer) fcntlName(cmd uint64) string {
	name, ok := t.fcntlNames[cmd]
	if !ok {
		name = FcntlCall("linux", int(int32(cmd)))
		t.fcntlNames[cmd] = name
	}
	return name
}

// note adds a note to the counts once.
func (t *tracer) note(s string) {
	if !t.noted[s] {
		t.noted[s] = true
		t.c.Notes = append(t.c.Notes, s)
	}
}

// killAll kills every task still traced, after an error, so that nothing is
// left stopped (and cmd.Wait returns).
func (t *tracer) killAll() {
	for pid := range t.tasks {
		_ = unix.Kill(pid, unix.SIGKILL)
	}
}

// stop ends the run from another goroutine (Options.Stop): it kills every
// task traced now, and the loop kills any that reports later (a child
// forked meanwhile).
func (t *tracer) stop() {
	t.stopping.Store(true)
	t.mu.Lock()
	defer t.mu.Unlock()
	for pid := range t.live {
		_ = unix.Kill(pid, unix.SIGKILL)
	}
}

// finish adds the notes that sum up the run.
func (t *tracer) finish() {
	if t.stopping.Load() {
		t.note("stopped before the command ended: every traced task was killed")
	}
	switch {
	case t.uncounted > 0:
		t.note(fmt.Sprintf("%d 32-bit system calls were not counted: there is no table of this architecture's 32-bit calls", t.uncounted))
	case t.compat > 0:
		t.note(fmt.Sprintf("%d 32-bit system calls (a -m32 program or int 0x80) were counted by the i386 table", t.compat))
	}
	if t.noSysInfo && useSyscallInfo {
		t.note("PTRACE_GET_SYSCALL_INFO is missing (Linux older than 5.3): entries and exits were told apart by alternation")
	}
}

// durabilityFlags are the open flags counted: O_SYNC includes O_DSYNC's bit.
const durabilityFlags = unix.O_DSYNC | unix.O_SYNC | unix.O_DIRECT

// openFlagNames names the durability flags in flags. The slices are shared:
// callers must not change them.
func openFlagNames(flags uint64) []string {
	switch {
	case flags == 0:
		return nil
	case flags&unix.O_SYNC == unix.O_SYNC && flags&unix.O_DIRECT != 0:
		return namesSyncDirect
	case flags&unix.O_SYNC == unix.O_SYNC:
		return namesSync
	case flags&unix.O_DSYNC != 0 && flags&unix.O_DIRECT != 0:
		return namesDsyncDirect
	case flags&unix.O_DSYNC != 0:
		return namesDsync
	default:
		return namesDirect
	}
}

var (
	namesSync        = []string{"O_SYNC"}
	namesDsync       = []string{"O_DSYNC"}
	namesDirect      = []string{"O_DIRECT"}
	namesSyncDirect  = []string{"O_SYNC", "O_DIRECT"}
	namesDsyncDirect = []string{"O_DSYNC", "O_DIRECT"}
)

// exitStatus describes how a task ended.
func exitStatus(ws unix.WaitStatus) ExitStatus {
	if ws.Signaled() {
		return ExitStatus{Code: -1, Signal: unix.SignalName(ws.Signal()), CoreDumped: ws.CoreDump()}
	}
	return ExitStatus{Code: ws.ExitStatus()}
}
