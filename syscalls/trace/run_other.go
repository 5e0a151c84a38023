//go:build !linux || !(amd64 || arm64)

package trace

import "os/exec"

// Run would trace cmd with ptrace; on this OS or architecture it returns
// ErrUnsupported without starting cmd.
func Run(cmd *exec.Cmd, opts Options) (*Counts, error) {
	return nil, ErrUnsupported
}
