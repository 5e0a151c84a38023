package trace

import "golang.org/x/sys/unix"

// readRegs reads the system call state of a stopped tracee. On amd64 the
// number is in orig_rax (rax holds -ENOSYS at entry, the result at exit) and
// the arguments in rdi, rsi, rdx, r10, r8, r9.
func (t *tracer) readRegs(pid int, r *regs) error {
	p := &t.archRegs
	if err := unix.PtraceGetRegs(pid, p); err != nil {
		return err
	}
	r.nr = p.Orig_rax
	r.ret = int64(p.Rax)
	// A 32-bit process runs with the compat code segment (0x23) and uses
	// i386 system call numbers and argument registers. (An int 0x80 from a
	// 64-bit process runs with the 64-bit segment: only
	// PTRACE_GET_SYSCALL_INFO tells it apart.)
	r.compat = p.Cs == 0x23
	if r.compat {
		r.args = [6]uint64{p.Rbx, p.Rcx, p.Rdx, p.Rsi, p.Rdi, p.Rbp}
		r.ret = int64(int32(p.Rax))
	} else {
		r.args = [6]uint64{p.Rdi, p.Rsi, p.Rdx, p.R10, p.R8, p.R9}
	}
	return nil
}

// nativeArch is the AUDIT_ARCH_* value PTRACE_GET_SYSCALL_INFO gives a
// 64-bit call; any other (AUDIT_ARCH_I386) is a 32-bit one.
const nativeArch = unix.AUDIT_ARCH_X86_64

// compatSyscalls are the counted calls by their i386 numbers
// (arch/x86/entry/syscalls/syscall_32.tbl), named as strace names them in
// 32-bit mode. fcntl64 and ftruncate64 count as fcntl and ftruncate, so
// that the totals read the same whatever the mode.
var compatSyscalls = []sysInfo{
	{nr: 4, name: "write", kind: kindWrite},
	{nr: 5, name: "open", kind: kindOpen, flagArg: 1},
	{nr: 36, name: "sync", kind: kindNoFd},
	{nr: 55, name: "fcntl", kind: kindFcntl},
	{nr: 93, name: "ftruncate", kind: kindFd},
	{nr: 118, name: "fsync", kind: kindFd},
	{nr: 144, name: "msync", kind: kindNoFd},
	{nr: 146, name: "writev", kind: kindWrite},
	{nr: 148, name: "fdatasync", kind: kindFd},
	{nr: 181, name: "pwrite64", kind: kindWrite},
	{nr: 194, name: "ftruncate", kind: kindFd},
	{nr: 221, name: "fcntl", kind: kindFcntl},
	{nr: 295, name: "openat", kind: kindOpen, flagArg: 2},
	{nr: 314, name: "sync_file_range", kind: kindFd},
	{nr: 324, name: "fallocate", kind: kindFd},
	{nr: 334, name: "pwritev", kind: kindWrite},
	{nr: 344, name: "syncfs", kind: kindFd},
	{nr: 379, name: "pwritev2", kind: kindWrite},
	{nr: 425, name: "io_uring_setup", kind: kindUring},
	{nr: 426, name: "io_uring_enter", kind: kindUring},
	{nr: 427, name: "io_uring_register", kind: kindUring},
	{nr: 437, name: "openat2", kind: kindOpenat2},
}

// compatFcntl maps an i386 fcntl command to the amd64 one: only the 64-bit
// lock commands differ (F_GETLK64, F_SETLK64, F_SETLKW64 are 12, 13, 14 on
// i386, and the same as F_GETLK, F_SETLK, F_SETLKW on amd64).
func compatFcntl(cmd uint64) uint64 {
	switch cmd {
	case 12, 13, 14:
		return cmd - 7
	}
	return cmd
}

// archRegs is the register block readRegs fills, kept in the tracer so that
// reading registers does not allocate.
type archRegs = unix.PtraceRegs

// archSyscalls are the counted calls that only amd64 has (arm64 has only
// openat).
var archSyscalls = []sysInfo{
	{nr: unix.SYS_OPEN, name: "open", kind: kindOpen, flagArg: 1},
}
