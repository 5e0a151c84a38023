//go:build !unix

package trace

// MarkStart does nothing on this OS: there is no tracer for it to signal.
func MarkStart() {}

// MarkStop does nothing on this OS: there is no tracer for it to signal.
func MarkStop() {}

// MarkAck does nothing on this OS: there is no tracer for it to signal.
func MarkAck(n uint64) {}
