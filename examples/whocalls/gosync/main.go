// Command gosync writes 4 KiB and calls os.File.Sync on it N times (default
// 200): Go's standard way to make a file durable. On Linux that is fsync(2);
// on darwin, fcntl(F_FULLFSYNC).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	n := 200
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil || v < 1 {
			fmt.Fprintf(os.Stderr, "gosync: %q is not a positive count\nusage: gosync [N]\n", os.Args[1])
			os.Exit(2)
		}
		n = v
	}
	dir, err := os.MkdirTemp("", "gosync-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gosync:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	f, err := os.Create(filepath.Join(dir, "data"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gosync:", err)
		os.Exit(1)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for range n {
		if _, err := f.WriteAt(block, 0); err != nil {
			fmt.Fprintln(os.Stderr, "gosync:", err)
			os.Exit(1)
		}
		if err := f.Sync(); err != nil {
			fmt.Fprintln(os.Stderr, "gosync:", err)
			os.Exit(1)
		}
	}
}
