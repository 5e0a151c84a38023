package syscount

import (
	"strconv"
	"strings"

	"github.com/durabench/durabench/syscalls/trace"
)

// Marker is told where the measured operations of a counting pass begin
// and end, so that the tracer counts only them. A benchmark calls it just
// outside its timed loop, never inside the timed interval; *Window is one,
// and a nil *Window does nothing.
type Marker interface {
	Start()
	Stop(ops int)
}

var _ Marker = (*Window)(nil)

// darwin's fcntl command numbers for its two sync commands. x/sys defines
// F_FULLFSYNC and F_BARRIERFSYNC only in its darwin files, so they are
// repeated here for every OS; calls_darwin_test.go checks them.
const (
	darwinFullFsync    = 51
	darwinBarrierFsync = 85
)

// The names under which trace.Counts keeps darwin's fcntl sync commands,
// "fcntl(F_FULLFSYNC)" and "fcntl(F_BARRIERFSYNC)". No Linux program makes
// them; tables keep their columns so that a macOS count fills them.
var (
	FullFsyncCall    = trace.FcntlCall("darwin", darwinFullFsync)
	BarrierFsyncCall = trace.FcntlCall("darwin", darwinBarrierFsync)
)

// SyncCalls are the calls that write a file back to its device, by the
// names trace.Counts keeps them under, in the order tables show them.
var SyncCalls = []string{"fsync", "fdatasync", FullFsyncCall, BarrierFsyncCall}

// WriteCalls are the calls that write to a file.
var WriteCalls = []string{"write", "pwrite64", "writev", "pwritev", "pwritev2"}

// PerOpOn returns the calls named names made on files of class, per
// operation.
func (r Result) PerOpOn(class trace.Class, names ...string) float64 {
	var n uint64
	for _, name := range names {
		n += r.Counts.ByFile[class][name]
	}
	return float64(n) / float64(r.Ops)
}

// BytesPerOpOn returns the bytes written to files of class per operation.
func (r Result) BytesPerOpOn(class trace.Class) float64 {
	return float64(r.Counts.WriteBytesByFile[class]) / float64(r.Ops)
}

// FormatPerOp writes a count per operation for a table: whole numbers
// without decimals ("4"), others with three significant figures ("0.25",
// "0.00417"), so that a rare call (a checkpoint every few hundred commits)
// never reads as zero.
func FormatPerOp(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// ColumnName names a call for a table's column: the command alone for an
// fcntl ("F_FULLFSYNC"), the call's name otherwise.
func ColumnName(call string) string {
	if cmd, ok := strings.CutPrefix(call, "fcntl("); ok {
		return strings.TrimSuffix(cmd, ")")
	}
	return call
}
