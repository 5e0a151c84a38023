package trace

import "golang.org/x/sys/unix"

// readRegs reads the system call state of a stopped tracee. arm64 has no
// PTRACE_GETREGS: the registers come from PTRACE_GETREGSET(NT_PRSTATUS). The
// number is in x8, the arguments in x0–x5, and at exit x0 holds the result.
func (t *tracer) readRegs(pid int, r *regs) error {
	p := &t.archRegs
	// An AArch32 task's NT_PRSTATUS is 18 32-bit words: shorter than the
	// arm64 block, it leaves Pc as set here, and no arm64 task stops in a
	// system call at address 0.
	p.Pc = 0
	if err := unix.PtraceGetRegSetArm64(pid, unix.NT_PRSTATUS, p); err != nil {
		return err
	}
	r.nr = p.Regs[8]
	r.args = [6]uint64{p.Regs[0], p.Regs[1], p.Regs[2], p.Regs[3], p.Regs[4], p.Regs[5]}
	r.ret = int64(p.Regs[0])
	// AArch32 tasks use arm's system call numbers, which the table below
	// does not describe.
	r.compat = p.Pc == 0
	return nil
}

// archRegs is the register block readRegs fills, kept in the tracer so that
// reading registers does not allocate.
type archRegs = unix.PtraceRegsArm64

// archSyscalls are the counted calls that only arm64 has: none (it has no
// open(2), only openat).
var archSyscalls []sysInfo

// nativeArch is the AUDIT_ARCH_* value PTRACE_GET_SYSCALL_INFO gives an
// arm64 call; any other (AUDIT_ARCH_ARM) is a 32-bit one.
const nativeArch = unix.AUDIT_ARCH_AARCH64

// compatSyscalls is empty on arm64: AArch32 calls are not counted (a note
// says how many there were).
var compatSyscalls []sysInfo

// compatFcntl is never called on arm64 (no compat table).
func compatFcntl(cmd uint64) uint64 { return cmd }
