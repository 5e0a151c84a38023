package neighbor

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Invariants:
//   - A message is one line: a word, then zero or more decimal integers,
//     separated by single spaces. Replies carry exactly the numbers their
//     kind needs (replyFields); anything else is a protocol error.
//   - childConfig.args and parseChildArgs are inverses: the parent encodes
//     what the neighbor parses, and nothing else crosses the exec.

// Commands, parent to neighbor.
const (
	cmdSync = "sync" // backlog: time a full sync of your file
	cmdStop = "stop" // stream: stop writing and report
)

// Replies, neighbor to parent.
const (
	msgReady   = "ready"   // ready <bytes written>
	msgSynced  = "synced"  // synced <ns>
	msgStopped = "stopped" // stopped <bytes> <ns>
)

// replyFields is the number of integers each reply carries.
var replyFields = map[string]int{msgReady: 1, msgSynced: 1, msgStopped: 2}

// errProtocol is wrapped by every malformed or unexpected message.
var errProtocol = errors.New("neighbor protocol error")

// writeMsg writes one message line.
func writeMsg(w io.Writer, kind string, vals ...int64) error {
	var sb strings.Builder
	sb.WriteString(kind)
	for _, v := range vals {
		sb.WriteByte(' ')
		sb.WriteString(strconv.FormatInt(v, 10))
	}
	sb.WriteByte('\n')
	_, err := io.WriteString(w, sb.String())
	return err
}

// parseReply parses a reply line and checks that it is of kind want with
// the right number of integers.
func parseReply(line, want string) ([]int64, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != want {
		return nil, fmt.Errorf("%w: got %q, want %q", errProtocol, line, want)
	}
	if n := replyFields[want]; len(fields)-1 != n {
		return nil, fmt.Errorf("%w: %q carries %d numbers, want %d", errProtocol, line, len(fields)-1, n)
	}
	vals := make([]int64, len(fields)-1)
	for i, f := range fields[1:] {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %q is not an integer", errProtocol, line, f)
		}
		vals[i] = v
	}
	return vals, nil
}

// childMode is what a neighbor does.
type childMode string

const (
	modeBacklog childMode = "backlog"
	modeStream  childMode = "stream"
)

// childConfig is one neighbor's task, as its command line carries it.
type childConfig struct {
	Mode     childMode
	Dir      string        // created by the neighbor, must not exist; removed on exit
	Bytes    int64         // backlog: bytes to write
	Rate     Rate          // stream: target rate
	FileSize int64         // stream: bound of the file
	Timeout  time.Duration // the neighbor exits after this long
}

// args encodes c as the neighbor's flags.
func (c childConfig) args() []string {
	return []string{
		"--mode", string(c.Mode),
		"--dir", c.Dir,
		"--bytes", strconv.FormatInt(c.Bytes, 10),
		"--rate", strconv.FormatInt(int64(c.Rate), 10),
		"--file-size", strconv.FormatInt(c.FileSize, 10),
		"--timeout", c.Timeout.String(),
	}
}

// parseChildArgs decodes the flags args wrote and checks them.
func parseChildArgs(args []string) (childConfig, error) {
	var c childConfig
	var mode string
	var rate int64
	fs := flag.NewFlagSet("neighbor "+ChildRole, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&mode, "mode", "", "backlog or stream")
	fs.StringVar(&c.Dir, "dir", "", "new directory for the neighbor's file")
	fs.Int64Var(&c.Bytes, "bytes", 0, "backlog bytes")
	fs.Int64Var(&rate, "rate", 0, "stream rate in bytes per second, -1 for max")
	fs.Int64Var(&c.FileSize, "file-size", 0, "stream file bound")
	fs.DurationVar(&c.Timeout, "timeout", 0, "life bound")
	if err := fs.Parse(args); err != nil {
		return c, fmt.Errorf("neighbor arguments: %w", err)
	}
	c.Mode, c.Rate = childMode(mode), Rate(rate)
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("neighbor arguments: unexpected %q", fs.Args())
	case c.Mode != modeBacklog && c.Mode != modeStream:
		return c, fmt.Errorf("neighbor arguments: mode %q: want backlog or stream", mode)
	case c.Dir == "":
		return c, errors.New("neighbor arguments: no directory given")
	case c.Timeout <= 0:
		return c, fmt.Errorf("neighbor arguments: time limit %v: must be positive", c.Timeout)
	case c.Mode == modeBacklog && c.Bytes < 0:
		return c, fmt.Errorf("neighbor arguments: backlog of %d bytes: must be 0 or more", c.Bytes)
	case c.Mode == modeStream && c.FileSize < chunk:
		return c, fmt.Errorf("neighbor arguments: file size %d: must hold one %d-byte write", c.FileSize, chunk)
	case c.Mode == modeStream && c.Rate < 0 && c.Rate != RateMax:
		return c, fmt.Errorf("neighbor arguments: rate %d: want 0, a positive rate or -1 (max)", rate)
	}
	return c, nil
}

// need is the most bytes the neighbor puts on disk.
func (c childConfig) need() int64 {
	if c.Mode == modeStream {
		return c.FileSize
	}
	return c.Bytes
}
