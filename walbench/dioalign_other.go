//go:build !linux

package walbench

import "github.com/durabench/durabench/syscalls"

// dioAlignment returns zeros: darwin's F_NOCACHE puts no alignment rule on
// buffers or offsets, and other systems are not asked.
func dioAlignment(f *syscalls.File) (mem, off int, err error) { return 0, 0, nil }
