package neighbor

import (
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
)

// CheckSpace checks, before anything is written, that the run leaves the
// margin free on the file system holding dir (see fixtures.CheckSpace).
func (c BacklogConfig) CheckSpace(dir string) error {
	return fixtures.CheckSpace(dir, c.need(), "the largest backlog, "+units.FormatSize(maxOf(c.Backlogs))+",", c.hooks.freeSpace)
}

// CheckSpace checks, before anything is written, that the run leaves the
// margin free on the file system holding dir (see fixtures.CheckSpace).
func (c StreamConfig) CheckSpace(dir string) error {
	return fixtures.CheckSpace(dir, c.need(), "a stream file of "+units.FormatSize(c.FileSize), c.hooks.freeSpace)
}

// need returns the most bytes the backlog run holds on disk at once: the
// largest backlog (neighbors run one at a time and remove their files) and
// one probe file.
func (c BacklogConfig) need() int64 { return maxOf(c.Backlogs) + ProbeFileSize }

// need returns the most bytes the stream run holds on disk at once: one
// neighbor file and one probe file.
func (c StreamConfig) need() int64 { return c.FileSize + ProbeFileSize }

func maxOf(xs []int64) int64 {
	var m int64
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
