package interpose

import (
	"os"
	"os/exec"
)

// procPath reports that macOS has no /proc: the counters file keeps its
// name until Run returns.
func procPath(*os.File) (string, bool) { return "", false }

// dieWithParent does nothing: macOS has no parent-death signal, so a caller
// stops cmd through RunContext's context.
func dieWithParent(*exec.Cmd) {}
