package trace

// A program marks a counting window by writing MarkStartText, and later
// MarkStopText, to file descriptor -1. The write fails at once with EBADF,
// so an untraced program pays one cheap system call; a tracer recognises the
// mark unambiguously (no real write goes to descriptor -1, and the bytes
// must match) and does not count it. Programs in other languages can mark
// windows the same way, e.g. in C write(-1, text, strlen(text)), in Python
// os.write(-1, text) inside a try block that ignores the OSError.
const (
	// MarkStartText is the text of a window's start mark.
	MarkStartText = "durabench-trace: window start\n"
	// MarkStopText is the text of a window's stop mark.
	MarkStopText = "durabench-trace: window stop\n"
)

var (
	markStart = []byte(MarkStartText)
	markStop  = []byte(MarkStopText)
)
