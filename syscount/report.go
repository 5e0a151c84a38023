package syscount

import "fmt"

// What every runner's counting report says the same way.

// CapOps returns the measured operations of a counting pass: n, at most
// most (tracing slows every call, and counts per operation do not need
// thousands), in whole batches of batch, and at least one batch.
func CapOps(n, most, batch int) int {
	return max(batch, min(n, most)/batch*batch)
}

// FlushesText returns the device's flushes per operation as a table cell:
// FormatPerOp's figure, or "unknown" where the counter could not be read.
func (r Result) FlushesText() string {
	if f := r.FlushesPerOp(); f >= 0 {
		return FormatPerOp(f)
	}
	return "unknown"
}

// FlushesFootnote is the note under a count table about what the device's
// flush counter includes; ops names the counted operations ("writes",
// "commits").
func FlushesFootnote(ops string) string {
	return fmt.Sprintf("(Device flushes are the disk's own counter, /proc/diskstats, read at the edges of the counted %s: other processes' flushes on the same disk add to them.)", ops)
}

// The two readings of device flushes that disagree with the syncs a case
// made, as a count warning ends.
const (
	// NoFlushReason explains syncs that sent no flush to the device.
	NoFlushReason = "its cache may be write-through, or a layer below (a VM, a file system option) drops flushes"
	// OtherFlushReason explains flushes the case's own syncs do not.
	OtherFlushReason = "another process on the same disk may be syncing"
)

// Metrics returns the metrics a case's pooled record carries from its
// counting pass: counted_ops, calls_per_op.NAME for each of calls the pass
// made, and device_flushes_per_op where the counter was read.
func (r Result) Metrics(calls []string) map[string]float64 {
	m := map[string]float64{"counted_ops": float64(r.Ops)}
	for _, name := range calls {
		if n := r.Counts.Total(name); n > 0 {
			m["calls_per_op."+name] = r.PerOp(name)
		}
	}
	if f := r.FlushesPerOp(); f >= 0 {
		m["device_flushes_per_op"] = f
	}
	return m
}

// FlushMismatch says where the device's flushes disagree with what a case's
// syncs should send, per operation per ("write", "commit"). flushing, if
// not empty, is the case as one whose syncs must reach the device ("x
// promises stable storage"): under half a flush per operation is a
// mismatch. quiet, if not empty, is the case as one that sends none ("x
// made no sync call"): half a flush or more is a mismatch. It returns the
// warning, or "" where they agree or the counter was not read.
func (r Result) FlushMismatch(flushing, quiet, per string) string {
	f := r.FlushesPerOp()
	switch {
	case f < 0:
		return ""
	case flushing != "" && f < 0.5:
		return fmt.Sprintf("%s but sent %s flushes per %s to the device: %s", flushing, FormatPerOp(f), per, NoFlushReason)
	case quiet != "" && f >= 0.5:
		return fmt.Sprintf("%s yet the device saw %s flushes per %s: %s", quiet, FormatPerOp(f), per, OtherFlushReason)
	}
	return ""
}
