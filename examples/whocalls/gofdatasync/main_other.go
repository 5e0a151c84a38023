//go:build !linux

// Command gofdatasync is Linux-only: x/sys/unix has no Fdatasync for this OS.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "gofdatasync: fdatasync is Linux-only in golang.org/x/sys/unix; on macOS use gosync (F_FULLFSYNC) instead")
	os.Exit(2)
}
