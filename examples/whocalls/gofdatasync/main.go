//go:build linux

// Command gofdatasync writes 4 KiB and calls unix.Fdatasync on it N times
// (default 200): what a Go program gets when it asks for fdatasync(2) by
// name, as etcd's WAL does on Linux.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

func main() {
	n := 200
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil || v < 1 {
			fmt.Fprintf(os.Stderr, "gofdatasync: %q is not a positive count\nusage: gofdatasync [N]\n", os.Args[1])
			os.Exit(2)
		}
		n = v
	}
	dir, err := os.MkdirTemp("", "gofdatasync-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gofdatasync:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	f, err := os.Create(filepath.Join(dir, "data"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gofdatasync:", err)
		os.Exit(1)
	}
	defer f.Close()
	fd := int(f.Fd())
	block := make([]byte, 4096)
	for range n {
		if _, err := unix.Pwrite(fd, block, 0); err != nil {
			fmt.Fprintln(os.Stderr, "gofdatasync:", err)
			os.Exit(1)
		}
		if err := unix.Fdatasync(fd); err != nil {
			fmt.Fprintln(os.Stderr, "gofdatasync:", err)
			os.Exit(1)
		}
	}
}
