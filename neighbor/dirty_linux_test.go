//go:build linux

package neighbor

import (
	"strings"
	"testing"
)

func TestParseMeminfoDirty(t *testing.T) {
	const meminfo = `MemTotal:       24570216 kB
MemFree:        22187420 kB
Dirty:            107368 kB
Writeback:          2048 kB
AnonPages:        399580 kB
WritebackTmp:          0 kB
`
	got, err := parseMeminfoDirty(strings.NewReader(meminfo))
	if want := int64(107368+2048) << 10; err != nil || got != want {
		t.Errorf("parseMeminfoDirty = %d, %v; want %d", got, err, want)
	}
	if _, err := parseMeminfoDirty(strings.NewReader("Dirty: 12 kB\n")); err == nil || !strings.Contains(err.Error(), "1 of the Dirty and Writeback lines") {
		t.Errorf("a listing without Writeback: %v", err)
	}
	if _, err := parseMeminfoDirty(strings.NewReader("Dirty: 12 pages\nWriteback: 0 kB\n")); err == nil {
		t.Error("a line in unknown units was accepted")
	}
	if d, err := dirtyBytes(); err != nil || d < 0 {
		t.Errorf("this machine's dirty bytes: %d, %v", d, err)
	}
}
