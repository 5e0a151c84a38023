//go:build !linux && !darwin

package interpose

import (
	"context"
	"errors"
	"os/exec"

	"github.com/durabench/durabench/syscalls/trace"
)

// Options adjust an interposed run; on this OS there is none. The fields
// are those of Linux and macOS, so that callers build everywhere.
type Options struct {
	// Window limits counting to the windows the program marks.
	Window bool
	// Classify puts each file in a class; nil means trace.ClassifyPath.
	Classify trace.Classifier
	// CC is the C compiler command; empty means $CC, or cc.
	CC string
	// CacheDir holds built libraries.
	CacheDir string
}

// ErrUnsupported is returned where no interposition method exists.
var ErrUnsupported = errors.New("interpose: library interposition needs Linux (LD_PRELOAD) or macOS (DYLD_INSERT_LIBRARIES)")

// Build returns ErrUnsupported on this OS.
func Build(opts Options) (string, error) { return "", ErrUnsupported }

// Run returns ErrUnsupported on this OS without starting cmd.
func Run(cmd *exec.Cmd, opts Options) (*trace.Counts, error) { return nil, ErrUnsupported }

// RunContext returns ErrUnsupported on this OS without starting cmd.
func RunContext(ctx context.Context, cmd *exec.Cmd, opts Options) (*trace.Counts, error) {
	return nil, ErrUnsupported
}
