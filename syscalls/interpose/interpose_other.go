//go:build !linux && !darwin

package interpose

import (
	"errors"
	"os/exec"

	"github.com/durabench/durabench/syscalls/trace"
)

// Options adjust an interposed run; on this OS there is none.
type Options struct {
	Window   bool
	Classify trace.Classifier
	CC       string
	CacheDir string
}

// ErrUnsupported is returned where no interposition method exists.
var ErrUnsupported = errors.New("interpose: library interposition needs Linux (LD_PRELOAD) or macOS (DYLD_INSERT_LIBRARIES)")

// Build returns ErrUnsupported on this OS.
func Build(opts Options) (string, error) { return "", ErrUnsupported }

// Run returns ErrUnsupported on this OS without starting cmd.
func Run(cmd *exec.Cmd, opts Options) (*trace.Counts, error) { return nil, ErrUnsupported }
