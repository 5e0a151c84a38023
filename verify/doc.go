// Package verify is durabench checking itself on the user's disk: it runs
// small versions of what the benchmarks do and checks each result against
// something other than the code that produced it — the file's size and
// contents read back, the tracer's count of system calls, the device's flush
// counter, FIEMAP's map of the file, the log's own replay, the file system's
// listing. Each check is one line that passes or fails, or says why it does
// not apply here ("n/a: ...").
//
// The checks are small and take seconds. They write only inside a new run
// directory in the given directory and remove it at the end; the last check
// is that it is gone.
package verify
