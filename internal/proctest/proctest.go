// Package proctest holds what tests of process lifetimes share: waiting for
// a program to write its PID, and (on Linux) telling whether a process has
// ended and waiting for it to. It is for tests only.
package proctest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// PIDFile waits up to within for a program to write its PID and a newline
// to path (as `echo $$ > path` does) and returns the PID. It fails if path
// holds no whole line by then, or a line that is not a number.
func PIDFile(path string, within time.Duration) (int, error) {
	for deadline := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				return 0, fmt.Errorf("%s holds %q, not a PID", path, b)
			}
			return pid, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("no PID in %s after %v: the program never started", path, within)
		}
	}
}
