package wal

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
)

// segmentFile is what the writer needs of an open segment. *syscalls.File
// has it; tests wrap it to watch the writes and to make them fail.
type segmentFile interface {
	Pwrite(b []byte, off int64) error
	Sync(m syscalls.Method) error
	Close() error
}

var _ segmentFile = (*syscalls.File)(nil)

// createSegment makes the segment whose first record will be first, in the
// options' layout, and opens it for writing. fixtures.Create syncs the new
// file and its directory, so the segment's name is durable before any record
// in it can be acknowledged.
func createSegment(o Options, first uint64) (segmentFile, error) {
	path := filepath.Join(o.Dir, SegmentName(first))
	if err := fixtures.Create(path, o.Layout, o.SegmentSize); err != nil {
		return nil, fmt.Errorf("wal: new segment: %w", err)
	}
	f, err := openSegment(path, o)
	if err != nil {
		return nil, err
	}
	if o.wrap != nil {
		return o.wrap(f), nil
	}
	return f, nil
}

// openSegment opens an existing segment for writing in the options' I/O
// mode. For direct I/O it checks the alignment against what the file system
// asks for, so that a misaligned configuration is refused before any write.
func openSegment(path string, o Options) (*syscalls.File, error) {
	flag := os.O_WRONLY
	if o.IOMode == Direct {
		flag |= syscalls.DirectOpenFlag
	}
	f, err := syscalls.OpenFile(path, flag, 0)
	if err != nil {
		return nil, fmt.Errorf("wal: open segment for %s I/O (does this file system support it?): %w", o.IOMode, err)
	}
	if o.IOMode == Direct {
		if err := setDirect(f, o.Alignment); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// setDirect turns off caching where that is done after open (darwin) and
// refuses an alignment below what the file system needs for direct I/O.
func setDirect(f *syscalls.File, align int) error {
	if err := syscalls.SetDirect(f); err != nil {
		return fmt.Errorf("wal: %w", err)
	}
	mem, off, err := syscalls.DirectIOAlignment(f)
	if err != nil {
		return fmt.Errorf("wal: %w", err)
	}
	return checkDirectAlignment(f.Name(), align, mem, off)
}

// checkDirectAlignment refuses an alignment that is not a multiple of the
// file system's direct-I/O alignment for buffer addresses (mem) or for file
// offsets and lengths (off); zero means no requirement is known.
func checkDirectAlignment(path string, align, mem, off int) error {
	for _, need := range []struct {
		n    int
		what string
	}{{mem, "buffer addresses"}, {off, "file offsets and lengths"}} {
		if need.n > 0 && align%need.n != 0 {
			return fmt.Errorf("%w: direct I/O on %s needs %s aligned to %d bytes, and alignment %d is not a multiple of that: use an alignment of %d",
				ErrOptions, path, need.what, need.n, align, max(need.n, DefaultAlignment))
		}
	}
	return nil
}
