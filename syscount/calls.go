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

// WriteCalls are the calls that write to a file ("pwrite" is macOS's name
// for what Linux calls pwrite64).
var WriteCalls = []string{"write", "pwrite64", "pwrite", "writev", "pwritev", "pwritev2"}

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
// without decimals ("4"); others never so rounded that they read as whole
// or as zero, so that a checkpoint every thousand commits shows, below one
// as three significant figures ("0.0938", "0.003"), above as up to four
// decimals ("1.002", "1.0833"), from 100 on with one ("16408.5").
func FormatPerOp(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	var s string
	switch {
	case v < 1:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case v < 100:
		s = strings.TrimRight(strconv.FormatFloat(v, 'f', 4, 64), "0")
	default:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	}
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, ".0") {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return s
}

// ColumnName names a call for a table's column: the command alone for an
// fcntl ("F_FULLFSYNC"), the call's name otherwise.
func ColumnName(call string) string {
	if cmd, ok := strings.CutPrefix(call, "fcntl("); ok {
		return strings.TrimSuffix(cmd, ")")
	}
	return call
}
