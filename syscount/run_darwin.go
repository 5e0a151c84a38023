//go:build darwin

package syscount

import (
	"os/exec"

	"github.com/durabench/durabench/syscalls/interpose"
	"github.com/durabench/durabench/syscalls/trace"
)

// runCounted runs cmd with the interposer inserted, counting only inside its
// marked windows. Go on macOS makes its system calls through libSystem, so
// the interposer sees the child's syncs, fcntls, writes and window marks; it
// does not see a call made through syscall(2), such as durabench's own
// fdatasync method.
func runCounted(cmd *exec.Cmd, classify trace.Classifier) (*trace.Counts, error) {
	return interpose.Run(cmd, interpose.Options{Window: true, Classify: classify})
}
