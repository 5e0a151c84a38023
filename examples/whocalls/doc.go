// Package whocalls holds the "who calls what" examples: small programs that
// write 4 KiB and sync it N times with one language's standard call, to be
// run under durabench trace. The test in this directory traces each of them,
// and the same programs in Python, Node and the sqlite3 shell, and checks the
// counts docs/results/2026-11-30-trace.md quotes.
//
//	go build -o /tmp/gosync ./examples/whocalls/gosync
//	durabench trace -- /tmp/gosync 200        # 200 fsync: os.File.Sync is fsync(2) on Linux
package whocalls
