// Package walbench is the benchmark of package wal (durabench wal): it times
// the log writer over file layouts, I/O modes, sync methods, record sizes,
// group-commit batches and writer counts, reads every record back after each
// round, and counts the system calls of a commit in a separate traced pass.
package walbench
