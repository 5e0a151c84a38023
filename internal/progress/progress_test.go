package progress

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock advances by step at every reading.
type fakeClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// syncBuffer is a bytes.Buffer safe for the ticker's writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestTerminalRewritesOneLine(t *testing.T) {
	var out syncBuffer
	clk := &fakeClock{t: time.Unix(0, 0), step: 10 * time.Second}
	m := New(&out, Terminal, Options{Title: "durabench sqlite", Total: 4, Width: 200, Tick: time.Hour, Now: clk.now})
	for i := range 4 {
		m.Step(fmt.Sprintf("case %d", i+1))
	}
	m.Println("durabench sqlite: a note that stays")
	m.Done()
	got := out.String()
	if n := strings.Count(got, "\n"); n != 1 {
		t.Errorf("%d line ends on the terminal, want 1 (the note's): %q", n, got)
	}
	if n := strings.Count(got, "\r"); n < 5 {
		t.Errorf("%d carriage returns, want one per draw (5) and the clearing: %q", n, got)
	}
	// New read the clock at 10 s; step 3 draws at 40 s with 2 steps done:
	// 30 s for 2, so 30 s for the other 2.
	for _, want := range []string{
		"\rdurabench sqlite [1/4] case 1 · 0:10 elapsed · ETA --:--\x1b[K",
		"\rdurabench sqlite [3/4] case 3 · 0:30 elapsed · ETA 0:30\x1b[K",
		"\r\x1b[Kdurabench sqlite: a note that stays\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%q", want, got)
		}
	}
	if !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("Done did not clear the line: %q", got)
	}
}

func TestTerminalTicksBetweenSteps(t *testing.T) {
	var out syncBuffer
	m := New(&out, Terminal, Options{Title: "t", Total: 2, Tick: time.Millisecond})
	m.Step("slow case")
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "\r") < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	m.Done()
	if n := strings.Count(out.String(), "\r"); n < 3 {
		t.Errorf("the line was drawn %d times during one step, want redraws as time passes", n)
	}
}

func TestPlainWritesAtMostLines(t *testing.T) {
	for _, tc := range []struct{ total, lines, want int }{
		{48, 16, 16}, // 16 cases × 3 rounds: one line per case
		{10, 0, 10},
		{7, 3, 3},
		{3, 5, 3},
	} {
		var out bytes.Buffer
		m := New(&out, Plain, Options{Title: "durabench sync", Total: tc.total, Lines: tc.lines})
		for i := range tc.total {
			m.Step(fmt.Sprintf("step %d", i+1))
		}
		m.Done()
		got := strings.Count(out.String(), "\n")
		if got != tc.want || strings.Contains(out.String(), "\r") {
			t.Errorf("total %d, lines %d: wrote %d lines (want %d), no carriage returns:\n%s", tc.total, tc.lines, got, tc.want, out.String())
		}
		if !strings.HasPrefix(out.String(), "durabench sync [1/") {
			t.Errorf("the first step was not written: %q", out.String())
		}
	}
}

func TestQuietWritesNothing(t *testing.T) {
	var out bytes.Buffer
	m := New(&out, Quiet, Options{Title: "x", Total: 3})
	m.Phase("part")
	m.Step("a")
	m.Println("note")
	m.Done()
	if out.Len() != 0 {
		t.Errorf("a quiet meter wrote %q", out.String())
	}
}

func TestCutAndClock(t *testing.T) {
	if got := cut("abcdef", 4); got != "abc…" {
		t.Errorf("cut = %q", got)
	}
	if got := cut("µs µs", 10); got != "µs µs" {
		t.Errorf("cut = %q", got)
	}
	for d, want := range map[time.Duration]string{0: "0:00", 61 * time.Second: "1:01", 3725 * time.Second: "1:02:05"} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}
