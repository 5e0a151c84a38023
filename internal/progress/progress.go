// Package progress shows how far a command has got: on a terminal, one
// line rewritten in place (step i/N, what runs now, elapsed time and an
// estimate of the time left); elsewhere, a few plain lines, at most a set
// number; with Quiet, nothing.
//
// Why not a library: schollz/progressbar shows elapsed and remaining time
// as an unlabelled "[0s:1s]" pair and redraws only when a step ends, so a
// long step freezes its clock; vbauerster/mpb redraws with cursor movement
// meant for several bars and brings a dependency tree for one line. The
// line here is a carriage return, the text and an erase-to-end-of-line.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"
)

// Invariants:
//   - In Terminal mode every draw is "\r" + text + "\x1b[K" and no draw
//     ends a line, until Done clears it: the command leaves one line of
//     progress, rewritten.
//   - In Plain mode at most Lines lines are written for Total steps (phase
//     lines aside), spread evenly over the steps.
//   - A Quiet meter writes nothing.
//   - All methods are safe for concurrent use; Done stops the redraws.

// Mode is how a meter shows progress.
type Mode int

const (
	// Plain writes occasional whole lines: for logs and pipes.
	Plain Mode = iota
	// Terminal rewrites one line in place, redrawn as time passes.
	Terminal
	// Quiet writes nothing.
	Quiet
)

// Meter follows a command through its steps.
type Meter struct {
	mu      sync.Mutex
	w       io.Writer
	mode    Mode
	title   string
	phase   string
	label   string
	total   int
	lines   int
	step    int
	printed int
	width   int
	start   time.Time
	now     func() time.Time
	stop    chan struct{}
	stopped bool
}

// Options are a meter's settings beyond its writer and mode.
type Options struct {
	// Title opens every line, e.g. "durabench sqlite".
	Title string
	// Total is the number of steps the command will take.
	Total int
	// Lines caps the plain lines written over all steps (e.g. one per
	// case when each case runs several rounds); 0 means Total.
	Lines int
	// Width is the terminal's width in columns; lines are cut to fit.
	// 0 means 80.
	Width int
	// Tick is how often a terminal line is redrawn between steps, so that
	// the elapsed time moves; 0 means every 500 ms.
	Tick time.Duration
	// Now is the clock, for tests; nil means time.Now.
	Now func() time.Time
}

// New starts a meter writing to w in the given mode.
func New(w io.Writer, mode Mode, o Options) *Meter {
	m := &Meter{w: w, mode: mode, title: o.Title, total: o.Total, lines: o.Lines, width: o.Width, now: o.Now}
	if m.now == nil {
		m.now = time.Now
	}
	if m.lines <= 0 || m.lines > m.total {
		m.lines = m.total
	}
	if m.width <= 0 {
		m.width = 80
	}
	m.start = m.now()
	if mode == Terminal {
		tick := o.Tick
		if tick <= 0 {
			tick = 500 * time.Millisecond
		}
		m.stop = make(chan struct{})
		go m.tick(tick)
	}
	return m
}

func (m *Meter) tick(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.mu.Lock()
			if !m.stopped && m.step > 0 {
				m.draw()
			}
			m.mu.Unlock()
		}
	}
}

// Phase names the part of the command now running (a part of the suite);
// in Plain mode it is written as a line of its own.
func (m *Meter) Phase(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.phase, m.label = name, ""
	if m.mode == Plain && !m.stopped {
		fmt.Fprintf(m.w, "%s: %s\n", m.title, name)
	}
}

// Step says that the next step begins, doing label.
func (m *Meter) Step(label string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return
	}
	m.step++
	m.label = label
	switch m.mode {
	case Terminal:
		m.draw()
	case Plain:
		if m.total <= 0 || m.printed < m.lines && m.slot(m.step) != m.slot(m.step-1) {
			m.printed++
			fmt.Fprintln(m.w, m.text())
		}
	}
}

// slot is the plain line a step falls in: steps 1..Total spread over
// Lines slots; slot(0) is -1 so the first step always prints.
func (m *Meter) slot(step int) int {
	if step <= 0 {
		return -1
	}
	return (step - 1) * m.lines / m.total
}

// Println writes a line that stays (a note or warning) without breaking
// the progress line: on a terminal, the line is cleared, the note written,
// and the progress redrawn below it.
func (m *Meter) Println(line string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mode == Quiet {
		return
	}
	if m.mode == Terminal && !m.stopped && m.step > 0 {
		fmt.Fprintf(m.w, "\r\x1b[K%s\n", line)
		m.draw()
		return
	}
	fmt.Fprintln(m.w, line)
}

// Done stops the meter and, on a terminal, clears its line. It is safe to
// call more than once.
func (m *Meter) Done() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return
	}
	m.stopped = true
	if m.mode == Terminal {
		close(m.stop)
		if m.step > 0 {
			fmt.Fprint(m.w, "\r\x1b[K")
		}
	}
}

// draw rewrites the terminal line; m.mu is held.
func (m *Meter) draw() {
	fmt.Fprintf(m.w, "\r%s\x1b[K", cut(m.text(), m.width-1))
}

// text is the progress line: "title [i/N] phase: label · 0:14 elapsed · ETA 0:41".
func (m *Meter) text() string {
	elapsed := m.now().Sub(m.start)
	s := m.title
	if m.total > 0 {
		s += fmt.Sprintf(" [%d/%d]", m.step, m.total)
	}
	if m.phase != "" {
		s += " " + m.phase + ":"
	}
	if m.label != "" {
		s += " " + m.label
	}
	s += " · " + clock(elapsed) + " elapsed · ETA " + m.eta(elapsed)
	return s
}

// eta estimates the time left from the steps finished so far (all before
// the current one), or says it cannot yet.
func (m *Meter) eta(elapsed time.Duration) string {
	done := m.step - 1
	if done <= 0 || m.total <= 0 {
		return "--:--"
	}
	left := max(m.total-done, 0)
	return clock(elapsed * time.Duration(left) / time.Duration(done))
}

// clock formats d as m:ss, or h:mm:ss from an hour on.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// cut shortens s to at most n characters, marking the cut with "…".
func cut(s string, n int) string {
	if n <= 1 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
