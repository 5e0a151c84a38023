package crash

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// The check protocol of `durabench crash run`: any program can judge a
// state.
//
// The check command is run once per state, in the state's directory, with
// the directory and the acknowledged count substituted for {dir} and
// {acked} in its arguments (or appended as its last two arguments when
// neither appears), and in the environment as DURABENCH_CRASH_DIR and
// DURABENCH_CRASH_ACKED. It may read and change the directory. It answers
// with its exit status and, optionally, lines on standard output:
//
//	exit 0        the state is good (unless it prints "lost N")
//	exit 1        the state is bad: "lost N" says N acknowledged commits
//	              are missing, "corrupt WHY" that the data cannot be read;
//	              with neither line, the state counts as corrupt and the
//	              reason is the first line of standard output, or else the
//	              last line of standard error (where a traceback ends)
//	other status  the check itself failed: exploring stops with its output
//
// "lost N" and "corrupt WHY" are whole lines; other lines are ignored.

// CommandChecker judges states by running a program (the protocol above).
type CommandChecker struct {
	// Argv is the check command and its arguments, {dir} and {acked}
	// placeholders included.
	Argv []string
	// Env is added to the environment the command inherits.
	Env []string
	// Timeout bounds one check; 0 means a minute.
	Timeout time.Duration
}

var _ Checker = CommandChecker{}

// Check runs the command on one state.
func (c CommandChecker) Check(dir string, acked uint64) Verdict {
	if len(c.Argv) == 0 {
		return Verdict{Err: errors.New("crash: no check command")}
	}
	n := strconv.FormatUint(acked, 10)
	args := make([]string, 0, len(c.Argv)+2)
	placed := false
	for _, a := range c.Argv[1:] {
		b := strings.ReplaceAll(strings.ReplaceAll(a, "{dir}", dir), "{acked}", n)
		placed = placed || b != a
		args = append(args, b)
	}
	if !placed {
		args = append(args, dir, n)
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Argv[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), c.Env...), "DURABENCH_CRASH_DIR="+dir, "DURABENCH_CRASH_ACKED="+n)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ctx.Err() == nil:
		status = ee.ExitCode()
	case ctx.Err() != nil:
		return Verdict{Err: fmt.Errorf("check command %q did not finish within %v on state %s", c.Argv[0], timeout, dir)}
	case err != nil:
		return Verdict{Err: fmt.Errorf("check command: %w", err)}
	}
	if status > 1 || status < 0 {
		return Verdict{Err: fmt.Errorf("check command %q failed (exit status %d) on state %s: %s", c.Argv[0], status,
			dir, strings.TrimSpace(errOut.String()+" "+out.String()))}
	}
	return parseCheckOutput(status, out.Bytes(), errOut.Bytes())
}

// parseCheckOutput reads a check command's verdict from its exit status
// (0 or 1) and its output lines.
func parseCheckOutput(status int, stdout, stderr []byte) Verdict {
	var v Verdict
	var first string
	var said []string
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if first == "" && line != "" {
			first = line
		}
		switch {
		case strings.HasPrefix(line, "lost "):
			if n, err := strconv.ParseUint(strings.TrimSpace(line[5:]), 10, 64); err == nil {
				v.LostAcked = max(v.LostAcked, n)
				said = append(said, line)
			}
		case line == "corrupt" || strings.HasPrefix(line, "corrupt "):
			v.Corrupt = true
			said = append(said, line)
		}
	}
	v.Detail = strings.Join(said, "; ")
	if status == 1 && v.LostAcked == 0 && !v.Corrupt {
		v.Corrupt = true
		v.Detail = first
		if v.Detail == "" {
			v.Detail = lastLine(stderr) // a traceback ends with the error
		}
		if v.Detail == "" {
			v.Detail = "check command exited 1"
		}
	}
	return v
}

// lastLine returns the last non-blank line of b, trimmed.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
