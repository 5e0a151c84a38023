// Package record records what a program does to the files under a root
// directory, as a crash.Log: every write with its bytes and offset, every
// sync by kind, every create, mkdir, rename, unlink, truncation and
// fallocation, and the program's acknowledgement marks (trace.MarkAck). It
// runs the program under the ptrace tracer of package trace (Linux, amd64 and
// arm64); elsewhere Record says it cannot.
//
// What it assumes and what it cannot see:
//   - One traced process tree changes the files under root; nothing else
//     does while it runs.
//   - A write's offset is read at its exit: pwrite's from its argument,
//     write's from the descriptor's position (/proc/PID/fdinfo) less the
//     bytes written. Two threads writing through one shared descriptor at
//     once could make that position wrong.
//   - Paths are resolved with the task's working directory or directory
//     descriptor, as the kernel reports them; a path reaching root through
//     a symbolic link is followed only where its directory exists.
//   - Stores into a file mapped MAP_SHARED and writable make no system
//     call: the log notes the mapping (SQLite's -shm, rebuilt on open, is
//     the usual one) and records nothing of its contents. io_uring,
//     copy_file_range, sendfile, hard and symbolic links and
//     RENAME_EXCHANGE are noted, not recorded.
//   - 32-bit system calls are not recorded: a note says so.
//   - Recording changes one thing in the program: the bytes getrandom(2)
//     and reads of /dev/urandom return are replaced with a fixed stream, so
//     that recording the same program again gives the same log (SQLite's
//     journal nonce and WAL salts are random) and a state found in one
//     recording can be rebuilt from another.
package record

import "errors"

// ErrUnsupported is returned by Record where there is no ptrace tracer.
var ErrUnsupported = errors.New("record: recording needs the ptrace tracer, which is Linux-only (amd64 and arm64): not on this OS")
