//go:build !linux || !(amd64 || arm64)

package record

import (
	"os/exec"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/syscalls/trace"
)

// Record would run cmd and record what it does under root; on this OS it
// returns ErrUnsupported without starting cmd.
func Record(cmd *exec.Cmd, root string) (*crash.Log, *trace.Counts, error) {
	return nil, nil, ErrUnsupported
}
