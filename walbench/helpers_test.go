package walbench

import (
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
)

var layouts = []fixtures.State{fixtures.Append, fixtures.Fallocate, fixtures.Initialized}

// openTestWriter opens a writer on a new directory with fdatasync and the
// given segment size, layout and I/O mode.
func openTestWriter(t *testing.T, size int64, layout fixtures.State, io wal.IOMode) *wal.Writer {
	t.Helper()
	w, err := wal.Open(wal.Options{Dir: t.TempDir(), SegmentSize: size, Layout: layout, Method: syscalls.Fdatasync, IOMode: io})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// entries counts the files and directories under dir, recursively.
func entries(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
