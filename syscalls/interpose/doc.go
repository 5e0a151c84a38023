// Package interpose counts a program's durability-related libc calls with a
// library loaded into it: LD_PRELOAD on Linux, DYLD_INSERT_LIBRARIES on
// macOS, where it is the only counting method (ptrace there cannot follow
// system calls).
//
// The library is C, embedded in the binary (Source) and built at run time
// with the system C compiler into the user's cache directory (Build). It
// counts fsync, fdatasync, fcntl by command (F_FULLFSYNC and F_BARRIERFSYNC
// on macOS), sync_file_range, syncfs, sync, msync, writes, ftruncate,
// fallocate, and opens asking for O_DSYNC, O_SYNC or O_DIRECT, each by the
// file behind its descriptor, into a shared file updated on every call: the counts survive programs that
// exit without running library destructors (Go) or crash.
//
// It sees only calls that go through libc's exported functions: the sqlite3
// shell, Python, the system libsqlite3, cgo code such as mattn/go-sqlite3,
// and on macOS Go itself (Go calls libSystem there); not pure-Go programs
// on Linux, which make system calls directly (use package trace), and not
// libc's internal calls. Results are reported as trace.Counts, in the same
// names as the ptrace tracer.
//
// The Go side uses no cgo: it runs the compiler as a command.
package interpose
