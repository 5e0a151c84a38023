package record

import "github.com/durabench/durabench/syscalls/trace"

// legacyCall finds nothing on arm64: it has only the *at path calls.
func legacyCall(c *trace.Call) (pathCall, bool) { return pathCall{}, false }
