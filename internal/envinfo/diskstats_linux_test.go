package envinfo

import (
	"os"
	"strings"
	"testing"
)

func TestParseDiskstats(t *testing.T) {
	text, err := os.ReadFile("testdata/diskstats")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want DeviceStats
		err  string
	}{
		{"vda", DeviceStats{Device: "vda", WritesCompleted: 1759, SectorsWritten: 1532104, FlushesCompleted: 4}, ""},
		{"vda1", DeviceStats{Device: "vda1", WritesCompleted: 20, SectorsWritten: 160}, ""},
		{"sda", DeviceStats{}, "has 14 columns for sda, too few for a flush counter (it needs 19, Linux 5.5 or later)"},
		{"sdb", DeviceStats{}, `column 19 for sdb: strconv.ParseUint: parsing "x": invalid syntax`},
		{"nvme0n1", DeviceStats{}, "device nvme0n1 not in /proc/diskstats"},
	} {
		got, err := parseDiskstats(strings.NewReader(string(text)), tc.name)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: got error %v, want one containing %q", tc.name, err, tc.err)
		case got != tc.want:
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
