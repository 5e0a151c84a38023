package neighbor

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/durabench/durabench/syscalls"
)

func TestParseRatesAndBacklogs(t *testing.T) {
	rates, err := ParseRates(" 0, 100M ,500MiB,MAX")
	if err != nil {
		t.Fatal(err)
	}
	if want := []Rate{0, 100 << 20, 500 << 20, RateMax}; !slices.Equal(rates, want) {
		t.Errorf("rates = %v, want %v", rates, want)
	}
	var labels []string
	for _, r := range rates {
		labels = append(labels, r.String())
	}
	if got := strings.Join(labels, ","); got != "0,100M,500M,max" {
		t.Errorf("rate labels %q", got)
	}
	backlogs, err := ParseBacklogs("0,256M,1G")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{0, 256 << 20, 1 << 30}; !slices.Equal(backlogs, want) {
		t.Errorf("backlogs = %v, want %v", backlogs, want)
	}
	for _, tt := range []struct {
		parse func() error
		want  string
	}{
		{func() error { _, err := ParseRates("fast"); return err }, `rate "fast"`},
		{func() error { _, err := ParseRates(" , "); return err }, "no rate"},
		{func() error { _, err := ParseBacklogs("1X"); return err }, `unknown unit "x"`},
		{func() error { _, err := ParseBacklogs(""); return err }, "no backlog"},
	} {
		if err := tt.parse(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want one containing %q", err, tt.want)
		}
	}
}

func TestValidateRefuses(t *testing.T) {
	okBacklog := BacklogConfig{Config: testConfig(syscalls.Fsync), Backlogs: []int64{0, 1 << 20}, Trials: 1}
	okStream := StreamConfig{Config: testConfig(syscalls.Fsync), Rates: []Rate{0, RateMax}, Passes: 2,
		Duration: time.Second, FileSize: 4 << 20, MaxSamples: 10}
	if err := okBacklog.Validate(); err != nil {
		t.Fatalf("valid backlog config refused: %v", err)
	}
	if err := okStream.Validate(); err != nil {
		t.Fatalf("valid stream config refused: %v", err)
	}
	backlog := func(f func(*BacklogConfig)) error { c := okBacklog; f(&c); return c.Validate() }
	stream := func(f func(*StreamConfig)) error { c := okStream; f(&c); return c.Validate() }
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"no methods", backlog(func(c *BacklogConfig) { c.Methods = nil }), "no sync method"},
		{"twice", backlog(func(c *BacklogConfig) { c.Methods = []syscalls.Method{syscalls.Fsync, syscalls.Fsync} }), "listed twice"},
		{"not here", backlog(func(c *BacklogConfig) { c.Methods = []syscalls.Method{syscalls.Full} }), "not available on this OS"},
		{"no timeout", backlog(func(c *BacklogConfig) { c.Timeout = 0 }), "time limit 0s"},
		{"no program", backlog(func(c *BacklogConfig) { c.Launch = Launch{} }), "no program"},
		{"no backlogs", backlog(func(c *BacklogConfig) { c.Backlogs = nil }), "no backlog"},
		{"negative backlog", backlog(func(c *BacklogConfig) { c.Backlogs = []int64{-1} }), "backlog -1"},
		{"no trials", backlog(func(c *BacklogConfig) { c.Trials = 0 }), "0 trials"},
		{"no rates", stream(func(c *StreamConfig) { c.Rates = nil }), "no rate"},
		{"bad rate", stream(func(c *StreamConfig) { c.Rates = []Rate{-5} }), "rate -5"},
		{"no passes", stream(func(c *StreamConfig) { c.Passes = 0 }), "0 passes"},
		{"no duration", stream(func(c *StreamConfig) { c.Duration = 0 }), "duration 0s"},
		{"tiny file", stream(func(c *StreamConfig) { c.FileSize = 4096 }), "stream file size 4K"},
		{"no samples", stream(func(c *StreamConfig) { c.MaxSamples = 0 }), "room for 0 samples"},
		{"timeout below duration", stream(func(c *StreamConfig) { c.Timeout = time.Second }), "not longer than the duration"},
	} {
		if !errors.Is(tt.err, ErrConfig) || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("%s: error %v, want ErrConfig containing %q", tt.name, tt.err, tt.want)
		}
	}
}
