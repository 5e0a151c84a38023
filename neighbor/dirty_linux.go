//go:build linux

package neighbor

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// dirtyBytes returns the page cache's data not yet on the device: Dirty plus
// Writeback from /proc/meminfo, for the whole machine.
func dirtyBytes() (int64, error) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, fmt.Errorf("neighbor: %w", err)
	}
	defer f.Close()
	return parseMeminfoDirty(f)
}

// parseMeminfoDirty sums the "Dirty:" and "Writeback:" lines (in kB) of a
// /proc/meminfo listing, in bytes.
func parseMeminfoDirty(r io.Reader) (int64, error) {
	var sum int64
	found := 0
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "Dirty" && key != "Writeback") {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("neighbor: meminfo line %q: want \"<n> kB\"", sc.Text())
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("neighbor: meminfo line %q: %w", sc.Text(), err)
		}
		sum += kb << 10
		found++
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("neighbor: reading meminfo: %w", err)
	}
	if found != 2 {
		return 0, fmt.Errorf("neighbor: meminfo has %d of the Dirty and Writeback lines", found)
	}
	return sum, nil
}
