package neighbor

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestChildArgsRoundTrip(t *testing.T) {
	for _, c := range []childConfig{
		{Mode: modeBacklog, Dir: "/d/neighbor-001", Bytes: 1 << 30, Timeout: 10 * time.Minute},
		{Mode: modeStream, Dir: "/d/a dir with spaces", Rate: RateMax, FileSize: 1 << 30, Timeout: 90 * time.Second},
		{Mode: modeStream, Dir: "/d/x", Rate: 100 << 20, FileSize: 4 << 20, Timeout: time.Hour},
	} {
		got, err := parseChildArgs(c.args())
		if err != nil {
			t.Fatalf("parseChildArgs(%q): %v", c.args(), err)
		}
		if got != c {
			t.Errorf("round trip of %+v gave %+v", c, got)
		}
	}
}

func TestParseChildArgsRefuses(t *testing.T) {
	ok := childConfig{Mode: modeStream, Dir: "/d", Rate: 1 << 20, FileSize: 1 << 20, Timeout: time.Minute}
	for _, tt := range []struct {
		change func(c *childConfig)
		want   string
	}{
		{func(c *childConfig) { c.Mode = "copy" }, `mode "copy"`},
		{func(c *childConfig) { c.Dir = "" }, "no directory given"},
		{func(c *childConfig) { c.Timeout = 0 }, "time limit 0s"},
		{func(c *childConfig) { c.FileSize = 4096 }, "file size 4096"},
		{func(c *childConfig) { c.Rate = -7 }, "rate -7"},
		{func(c *childConfig) { c.Mode, c.Bytes = modeBacklog, -1 }, "backlog of -1 bytes"},
	} {
		c := ok
		tt.change(&c)
		if _, err := parseChildArgs(c.args()); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseChildArgs(%q) = %v, want an error containing %q", c.args(), err, tt.want)
		}
	}
	if _, err := parseChildArgs(append(ok.args(), "extra")); err == nil || !strings.Contains(err.Error(), "unexpected") {
		t.Errorf("a stray argument gave %v", err)
	}
}

func TestMessages(t *testing.T) {
	var buf bytes.Buffer
	if err := writeMsg(&buf, msgStopped, 1<<30, 5_000_000_123); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "stopped 1073741824 5000000123\n" {
		t.Errorf("wrote %q", buf.String())
	}
	vals, err := parseReply(strings.TrimSpace(buf.String()), msgStopped)
	if err != nil || !slices.Equal(vals, []int64{1 << 30, 5_000_000_123}) {
		t.Errorf("parseReply = %v, %v", vals, err)
	}
	for _, tt := range []struct{ line, want, err string }{
		{"ready 12", msgSynced, `want "synced"`},
		{"ready", msgReady, "carries 0 numbers, want 1"},
		{"ready 1 2", msgReady, "carries 2 numbers, want 1"},
		{"synced 1e6", msgSynced, `"1e6" is not an integer`},
		{"", msgReady, `got ""`},
	} {
		_, err := parseReply(tt.line, tt.want)
		if !errors.Is(err, errProtocol) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("parseReply(%q, %q) = %v, want a protocol error containing %q", tt.line, tt.want, err, tt.err)
		}
	}
}
