// Package wal is a write-ahead log: a Writer that frames records into
// fixed-size segment files and makes them durable with group commit, and
// Replay, which reads a log back after a crash.
//
// Append returns once its record is durable; concurrent callers share one
// sync (group commit). Bytes reach the file buffered or with direct I/O
// (O_DIRECT on Linux, F_NOCACHE on darwin), and new segments are created
// empty, preallocated or written through with zeros (fixtures.State).
// Replay returns every record in log order, stops cleanly at a torn tail and
// refuses a log whose durable part is damaged.
//
// format.go documents the on-disk format; writer.go the group-commit
// protocol; replay.go the recovery rule.
//
// # What the package assumes of the storage
//
//   - A sync method the Options name (fsync, fdatasync, or darwin's
//     F_FULLFSYNC) makes every byte written to the file before it durable,
//     and the file's size with it. F_BARRIERFSYNC and plain fsync on darwin
//     do not: with them a record is acknowledged before it is on stable
//     storage.
//   - Sector writes are not atomic and a torn write may leave any mix of old
//     and new bytes in the sectors it touched, but it does not damage
//     sectors it did not touch. Records are padded to 8 bytes, so that no
//     8-byte word of a header straddles two sectors, and every record carries
//     a CRC-32C.
//   - Unwritten space reads back as zeros (preallocated extents, the end of
//     a file): an all-zero header ends a log.
//   - A new segment's name is durable once its directory has been synced:
//     the Writer creates each segment (and preallocates or initializes it)
//     and syncs the directory before any record in it is acknowledged.
package wal
