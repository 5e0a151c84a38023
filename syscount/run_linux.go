//go:build linux

package syscount

import (
	"os/exec"

	"github.com/durabench/durabench/syscalls/trace"
)

// runCounted runs cmd under ptrace, counting only inside its marked windows.
func runCounted(cmd *exec.Cmd, classify trace.Classifier) (*trace.Counts, error) {
	return trace.Run(cmd, trace.Options{Window: true, Classify: classify})
}
