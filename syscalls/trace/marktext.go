package trace

import "strconv"

// A program marks a counting window by writing MarkStartText, and later
// MarkStopText, to file descriptor -1. The write fails at once with EBADF,
// so an untraced program pays one cheap system call; a tracer recognises the
// mark unambiguously (no real write goes to descriptor -1, and the bytes
// must match) and does not count it. Programs in other languages can mark
// windows the same way, e.g. in C write(-1, text, strlen(text)), in Python
// os.write(-1, text) inside a try block that ignores the OSError.
//
// An acknowledgement mark says that the program's commit number n has
// returned: the text is MarkAckPrefix, n in decimal, and a newline, e.g.
// "durabench-trace: ack 17\n", written to descriptor -1 the same way. A
// recorder turns it into an acknowledgement event at that point of the
// program's history.
const (
	// MarkStartText is the text of a window's start mark.
	MarkStartText = "durabench-trace: window start\n"
	// MarkStopText is the text of a window's stop mark.
	MarkStopText = "durabench-trace: window stop\n"
	// MarkAckPrefix begins an acknowledgement mark.
	MarkAckPrefix = "durabench-trace: ack "
)

// maxMarkLen is the longest mark text: an acknowledgement of the largest
// uint64.
const maxMarkLen = len(MarkAckPrefix) + 20 + 1

// MarkAckText returns the text of the acknowledgement mark for commit n.
func MarkAckText(n uint64) string {
	return MarkAckPrefix + strconv.FormatUint(n, 10) + "\n"
}

// parseAck returns the commit number of an acknowledgement mark's text.
func parseAck(b []byte) (uint64, bool) {
	if len(b) < len(MarkAckPrefix)+2 || string(b[:len(MarkAckPrefix)]) != MarkAckPrefix || b[len(b)-1] != '\n' {
		return 0, false
	}
	digits := b[len(MarkAckPrefix) : len(b)-1]
	if len(digits) > 1 && digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(digits), 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

var (
	markStart = []byte(MarkStartText)
	markStop  = []byte(MarkStopText)
)
