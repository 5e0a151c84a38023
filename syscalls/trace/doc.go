// Package trace counts the durability-related system calls a program makes:
// fsync, fdatasync, sync_file_range, msync, syncfs, sync, fcntl by command,
// io_uring set-ups, writes (calls and bytes) and the open flags that change
// durability (O_DSYNC, O_SYNC, O_DIRECT), each attributed to its file and the
// file's role (database, journal, WAL, WAL index, directory, other).
//
// Run traces a command with ptrace on Linux (amd64 and arm64). It sees every
// system call, including those of pure-Go programs, which make them without
// libc. The Counts type is shared with package interpose, the method for
// macOS, so both methods report in the same shape and the same names.
//
// A traced run measures counts, not time: tracing stops the program twice per
// system call.
package trace
