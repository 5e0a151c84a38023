package envinfo

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Columns of a /proc/diskstats line, counted from 0: major, minor and name,
// then the statistics of the kernel's Documentation/admin-guide/iostats.rst,
// whose "Field N" is column N+2.
const (
	colName             = 2
	colWritesCompleted  = 7  // Field 5: writes completed successfully
	colSectorsWritten   = 9  // Field 7: sectors written
	colFlushesCompleted = 18 // Field 16: flush requests completed successfully (Linux 5.5+)
)

// parseDiskstats returns the counters of device name from the text of
// /proc/diskstats. It fails if the device is missing or if the kernel's
// line is too short to hold a flush counter.
func parseDiskstats(r io.Reader, name string) (DeviceStats, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) <= colName || f[colName] != name {
			continue
		}
		if len(f) <= colFlushesCompleted {
			return DeviceStats{}, fmt.Errorf("/proc/diskstats has %d columns for %s, "+
				"too few for a flush counter (it needs %d, Linux 5.5 or later)", len(f), name, colFlushesCompleted+1)
		}
		s := DeviceStats{Device: name}
		for _, c := range []struct {
			col int
			dst *uint64
		}{
			{colWritesCompleted, &s.WritesCompleted},
			{colSectorsWritten, &s.SectorsWritten},
			{colFlushesCompleted, &s.FlushesCompleted},
		} {
			v, err := strconv.ParseUint(f[c.col], 10, 64)
			if err != nil {
				return DeviceStats{}, fmt.Errorf("/proc/diskstats column %d for %s: %w", c.col+1, name, err)
			}
			*c.dst = v
		}
		return s, nil
	}
	if err := sc.Err(); err != nil {
		return DeviceStats{}, fmt.Errorf("read /proc/diskstats: %w", err)
	}
	return DeviceStats{}, fmt.Errorf("device %s not in /proc/diskstats", name)
}
