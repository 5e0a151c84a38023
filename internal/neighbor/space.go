package neighbor

import (
	"errors"
	"fmt"

	"github.com/durabench/durabench/internal/units"
)

// Invariants:
//   - A run never asks for more than the free space under its directory less
//     SpaceMargin: the larger of MinSpaceMargin and a tenth of the free space.
//   - The check runs before anything is written: by the parent for the run as
//     a whole, and by each neighbour for its own file.

// MinSpaceMargin is the least space a run leaves free.
const MinSpaceMargin = 1 << 30

// ErrNoSpace is wrapped when a run would leave less free space than the
// margin.
var ErrNoSpace = errors.New("not enough free space")

// FreeSpaceFunc returns the bytes an unprivileged user may still write on the
// file system holding dir.
type FreeSpaceFunc func(dir string) (uint64, error)

// FreeSpace returns the bytes available to unprivileged users on the file
// system holding dir (statfs f_bavail × f_bsize).
func FreeSpace(dir string) (uint64, error) { return freeSpace(dir) }

// SpaceMargin returns the space a run leaves free when free bytes are
// available: the larger of MinSpaceMargin and a tenth of free.
func SpaceMargin(free uint64) uint64 { return max(MinSpaceMargin, free/10) }

// CheckSpace returns an error wrapping ErrNoSpace, with what to do, if need
// bytes would leave less than the margin free under dir. what names the
// flag that asked for the bytes. A nil free uses FreeSpace.
func CheckSpace(dir string, need int64, what string, free FreeSpaceFunc) error {
	if free == nil {
		free = FreeSpace
	}
	avail, err := free(dir)
	if err != nil {
		return fmt.Errorf("neighbor: free space under %s: %w", dir, err)
	}
	margin := SpaceMargin(avail)
	var allowed uint64
	if avail > margin {
		allowed = avail - margin
	}
	if need < 0 || uint64(need) > allowed {
		return fmt.Errorf("%w under %s: %s needs %s, but %s are free and the run leaves %s of them untouched (at most %s may be used); ask for less or free space",
			ErrNoSpace, dir, what, formatBytes(uint64(max(need, 0))), formatBytes(avail), formatBytes(margin), formatBytes(allowed))
	}
	return nil
}

// formatBytes prints a byte count readably, rounded to MiB or GiB.
func formatBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// CheckSpace checks, before anything is written, that the run leaves the
// margin free on the file system holding dir (see the package CheckSpace).
func (c BacklogConfig) CheckSpace(dir string) error {
	return CheckSpace(dir, c.need(), "--backlogs "+units.FormatSize(maxOf(c.Backlogs)), c.hooks.freeSpace)
}

// CheckSpace checks, before anything is written, that the run leaves the
// margin free on the file system holding dir (see the package CheckSpace).
func (c StreamConfig) CheckSpace(dir string) error {
	return CheckSpace(dir, c.need(), "--stream-size "+units.FormatSize(c.FileSize), c.hooks.freeSpace)
}

// need returns the most bytes the backlog run holds on disk at once: the
// largest backlog (neighbours run one at a time and remove their files) and
// one probe file.
func (c BacklogConfig) need() int64 { return maxOf(c.Backlogs) + ProbeFileSize }

// need returns the most bytes the stream run holds on disk at once: one
// neighbour file and one probe file.
func (c StreamConfig) need() int64 { return c.FileSize + ProbeFileSize }

func maxOf(xs []int64) int64 {
	var m int64
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
