// Package walbench is a write-ahead log writer, its recovery reader and the
// benchmark that measures it (durabench wal).
//
// The Writer frames records (length, sequence number, CRC-32C) into an
// aligned buffer and writes them, buffered or with direct I/O, into
// fixed-size segments; Append returns once a record is durable, and
// concurrent callers share syncs (group commit). Replay reads a log back,
// stops cleanly at a torn tail and refuses a log damaged in the middle. Run
// times the writer over file layouts, I/O modes, sync methods, record sizes
// and writer counts.
//
// format.go documents the on-disk format; writer.go the group-commit
// protocol; replay.go the recovery rule.
package walbench
