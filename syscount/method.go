package syscount

import (
	"errors"
	"fmt"
)

// ErrNoCounting is wrapped where this OS has no way to count a child's
// calls.
var ErrNoCounting = errors.New("syscount: no way to count system calls here")

// methodFor names how a counting pass sees a child's calls on goos/goarch:
// ptrace on Linux (amd64, arm64), where it sees every call, pure Go included;
// the interposer on macOS, where Go makes its system calls through libc, so
// a library inserted with DYLD_INSERT_LIBRARIES sees them too.
func methodFor(goos, goarch string) (string, error) {
	switch {
	case goos == "linux" && (goarch == "amd64" || goarch == "arm64"):
		return "ptrace", nil
	case goos == "darwin":
		return "interpose", nil
	}
	return "", fmt.Errorf("%w: durabench counts with ptrace on Linux (amd64, arm64) and with its interposer on macOS, not on %s/%s", ErrNoCounting, goos, goarch)
}
