// Package neighbor measures what a small sync costs while another process has
// unsynced data of its own: durabench neighbor.
//
// Two processes take part. The probe (this process) times one 4 KiB write +
// sync of its own file, in its own directory. The neighbor is durabench
// itself in a hidden role (ServeChild), started afresh for every cell, which
// writes into a directory of its own:
//
//   - backlog mode: it writes B bytes with plain buffered writes, syncs
//     nothing, keeps the file open and says "ready". After the probe's one
//     timed write + sync, the parent asks it to time a full sync of its own
//     file (fsync(2) on Linux, F_FULLFSYNC on darwin): what that sync still
//     has to do shows how much of the backlog the probe's sync left behind.
//   - stream mode: it writes 1 MiB blocks at a fixed rate (a token bucket),
//     wrapping within a bounded file, while the probe loops write + sync for
//     a fixed duration; on "stop" it reports the rate it really achieved.
//
// # Invariants
//
//   - Nothing syncs untimed between the neighbor starting to write and the
//     probe's clock starting: the probe's file is created and synced before
//     the neighbor is started. The only exception is Config.PreSync, the
//     flawed variant kept on purpose to show the trap (an untimed sync right
//     before the clock absorbs the very cost being measured).
//   - Every (backlog, method, trial) and every (rate, method, pass) gets a
//     fresh neighbor and a fresh probe file: a sync can drain a backlog, so
//     no cell inherits another's state.
//   - The neighbor is bounded: by the bytes asked (backlog) or its file size
//     (stream), by free space less a margin (checked by the parent before
//     anything is written, and again by the neighbor), and by a timeout.
//   - The neighbor removes its directory on every exit path: normal end, a
//     closed command pipe (its parent is gone), SIGTERM/SIGINT/SIGHUP (on
//     Linux the kernel sends SIGTERM when the parent dies), SIGPIPE, and its
//     own timeout. The parent checks the directory is gone after each cell.
//
// # Protocol
//
// The parent writes commands to the neighbor's standard input and reads
// replies from its standard output, one line each (see protocol.go):
//
//	neighbor → parent   ready <bytes written>
//	parent → neighbor   sync                      (backlog)
//	neighbor → parent   synced <ns>
//	parent → neighbor   stop                      (stream)
//	neighbor → parent   stopped <bytes> <ns>
//
// After its last reply the neighbor removes its files and exits; end of
// input at any time means the parent is gone, and it does the same.
//
// # What is assumed about the storage
//
// Nothing about whether file systems entangle unrelated files' data in one
// sync: that is what is measured. The neighbor's buffered data counts as
// "unwritten" only while it is dirty in the page cache; the run records how
// much dirty data the kernel held when the probe's clock started (Linux) and
// how much the device wrote while the probe synced, so a reader can tell a
// backlog that was still there from one the kernel had already written back.
package neighbor
