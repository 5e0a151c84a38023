package neighbor

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
)

// Sizes the run uses, fixed so that every cell is alike.
const (
	// ProbeWrite is the size of the probe's timed write.
	ProbeWrite = 4 << 10
	// ProbeFileSize is the size of the probe's initialized file; the stream
	// probe's writes walk through it and wrap.
	ProbeFileSize = 1 << 20
	// chunk is the neighbor's write size, in backlog and stream mode.
	chunk = 1 << 20
)

// DefaultTimeout is how long a neighbor lives at most unless told otherwise.
const DefaultTimeout = 10 * time.Minute

// Config is what both modes share.
type Config struct {
	// Methods are the probe's sync methods, in the order of even trials.
	Methods []syscalls.Method
	// PreSync runs the flawed variant: one untimed sync of the probe's file
	// after the neighbor is ready and before the clock starts.
	PreSync bool
	// Timeout bounds each neighbor's life; it removes its files and exits
	// when it runs out.
	Timeout time.Duration
	// Launch says how to start a neighbor process.
	Launch Launch

	hooks hooks
}

// hooks let tests watch and replace what the run does at its boundaries.
type hooks struct {
	sync      syncFunc               // the probe's sync; nil: f.Sync(m)
	freeSpace fixtures.FreeSpaceFunc // nil: syscalls.FreeSpace
	event     func(name string)      // told of each step of a cell; nil: nothing
}

// BacklogConfig is one backlog-mode run.
type BacklogConfig struct {
	Config
	// Backlogs are the neighbor's buffered bytes per cell; 0 starts a
	// neighbor that writes nothing.
	Backlogs []int64
	// Trials is the number of times every (backlog, method) cell runs.
	Trials int
}

// StreamConfig is one stream-mode run.
type StreamConfig struct {
	Config
	// Rates are the neighbor's target rates, in the order of even passes.
	Rates []Rate
	// Passes is the number of passes over the rates; odd passes reverse the
	// order of rates and methods.
	Passes int
	// Duration is how long the probe loops write + sync per cell.
	Duration time.Duration
	// FileSize bounds the neighbor's file; it rewrites from offset 0 when
	// the next block would pass it.
	FileSize int64
	// MaxSamples caps the probe's samples per cell (its buffer is allocated
	// before the clock starts); the loop ends early when it is full.
	MaxSamples int
}

// ErrConfig is wrapped by every error the Validate methods return.
var ErrConfig = errors.New("invalid neighbor configuration")

// bad returns a *runner.ConfigError wrapping ErrConfig for fields.
func bad(fields, format string, args ...any) error {
	return runner.Refuse(ErrConfig, fields, format, args...)
}

// Validate checks what both modes need before anything is touched.
func (c Config) Validate() error {
	switch {
	case len(c.Methods) == 0:
		return bad("Methods", "no sync method")
	case c.Timeout <= 0:
		return bad("Timeout", "time limit %v: must be positive", c.Timeout)
	case c.Launch.Path == "":
		return bad("Launch", "no program to start the neighbor with")
	}
	for i, m := range c.Methods {
		if !m.Available() {
			return bad("Methods", "sync method %s is not available on this OS", m)
		}
		if slices.Contains(c.Methods[:i], m) {
			return bad("Methods", "sync method %s is listed twice", m)
		}
	}
	return nil
}

// Validate checks a backlog run before anything is touched.
func (c BacklogConfig) Validate() error {
	if err := c.Config.Validate(); err != nil {
		return err
	}
	switch {
	case len(c.Backlogs) == 0:
		return bad("Backlogs", "no backlog: give some, e.g. 0,256M,1G")
	case c.Trials < 1:
		return bad("Trials", "%d trials: need at least one", c.Trials)
	}
	for _, b := range c.Backlogs {
		if b < 0 {
			return bad("Backlogs", "backlog %d: must be 0 or more bytes", b)
		}
	}
	return c.checkLimits()
}

// Validate checks a stream run before anything is touched.
func (c StreamConfig) Validate() error {
	if err := c.Config.Validate(); err != nil {
		return err
	}
	switch {
	case len(c.Rates) == 0:
		return bad("Rates", "no rate: give some, e.g. 0,100M,500M,max")
	case c.Passes < 1:
		return bad("Passes", "%d passes: need at least one", c.Passes)
	case c.Duration <= 0:
		return bad("Duration", "duration %v: must be positive", c.Duration)
	case c.FileSize < chunk:
		return bad("FileSize", "stream file size %s: the neighbor's file must hold at least one %s write",
			units.FormatSize(c.FileSize), units.FormatSize(chunk))
	case c.MaxSamples < 1:
		return bad("MaxSamples", "room for %d samples: need room for at least one", c.MaxSamples)
	case c.Timeout <= c.Duration:
		return bad("Timeout,Duration", "time limit %v is not longer than the duration %v: the neighbor would quit mid-cell", c.Timeout, c.Duration)
	}
	for _, r := range c.Rates {
		if r < 0 && r != RateMax {
			return bad("Rates", "rate %d: must be 0, a positive number of bytes per second, or max", int64(r))
		}
	}
	return c.checkLimits()
}

// Rate is a neighbor's target write rate in bytes per second.
type Rate int64

const (
	// RateIdle starts a neighbor that writes nothing: the baseline.
	RateIdle Rate = 0
	// RateMax writes as fast as the neighbor can.
	RateMax Rate = -1
)

// String returns the rate as the flag takes it: "0", "100M", "max".
func (r Rate) String() string {
	switch r {
	case RateMax:
		return "max"
	case RateIdle:
		return "0"
	}
	return units.FormatSize(int64(r))
}

// ParseRate parses one rate in bytes per second: a size ("100M"), "0"
// for an idle neighbor, or "max" for as fast as it can write.
func ParseRate(s string) (Rate, error) {
	p := strings.ToLower(strings.TrimSpace(s))
	if p == "max" {
		return RateMax, nil
	}
	n, err := parseSizeOrZero(p)
	if err != nil {
		return 0, fmt.Errorf("rate %q: %w; or use max", s, err)
	}
	return Rate(n), nil
}

// ParseRates parses a comma-separated list of rates (see ParseRate).
func ParseRates(csv string) ([]Rate, error) {
	return runner.ParseList(csv, "rate", "use e.g. 0,100M,500M,max", ParseRate)
}

// ParseBacklogs parses a comma-separated list of backlog sizes, "0"
// included (a neighbor that writes nothing, the baseline).
func ParseBacklogs(csv string) ([]int64, error) {
	return runner.ParseList(csv, "backlog", "use e.g. 0,256M,1G", parseSizeOrZero)
}

// parseSizeOrZero is units.ParseSize that also takes "0".
func parseSizeOrZero(s string) (int64, error) {
	if strings.TrimSpace(s) == "0" {
		return 0, nil
	}
	return units.ParseSize(s)
}

// DefaultMethods returns the methods the run uses unless told otherwise:
// fsync and fdatasync, and on darwin also barrier and full, the methods the
// macOS article "On a Mac, a full fsync of 4 KB waits for everyone else's
// writes" compared.
func DefaultMethods() []syscalls.Method {
	var ms []syscalls.Method
	for _, m := range []syscalls.Method{syscalls.Fsync, syscalls.Fdatasync, syscalls.Barrier, syscalls.Full} {
		if m.Available() {
			ms = append(ms, m)
		}
	}
	return ms
}
