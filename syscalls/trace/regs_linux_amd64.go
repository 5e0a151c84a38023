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
	r.args = [6]uint64{p.Rdi, p.Rsi, p.Rdx, p.R10, p.R8, p.R9}
	r.ret = int64(p.Rax)
	// A 32-bit process runs with the compat code segment (0x23) and uses
	// i386 system call numbers, which the table below does not describe.
	r.compat = p.Cs == 0x23
	return nil
}

// archRegs is the register block readRegs fills, kept in the tracer so that
// reading registers does not allocate.
type archRegs = unix.PtraceRegs

// archSyscalls are the counted calls that only amd64 has (arm64 has only
// openat).
var archSyscalls = []sysInfo{
	{nr: unix.SYS_OPEN, name: "open", kind: kindOpen, flagArg: 1},
}
