package sqlitebench

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/syscount"
)

// CheckpointDefault, as a checkpoint_fullfsync value, means "leave it as
// the engine has it": the pragma is not set, and the engine's value is
// reported.
const CheckpointDefault = "default"

// The values each flag accepts, in their normal form and canonical order.
var (
	JournalModes         = []string{"delete", "truncate", "persist", "wal", "memory", "off"}
	SynchronousLevels    = []string{"off", "normal", "full", "extra"}
	FullFsyncValues      = []string{"0", "1"}
	CheckpointFullFsyncs = []string{CheckpointDefault, "0", "1"}
)

// Config is one durabench sqlite run.
type Config struct {
	// Engines are the engines to run, by drivers name, in report order.
	// Each must be available (see SelectEngines).
	Engines []string
	// Skipped are the engines left out of a default engine list because
	// this build or machine cannot run them, with the reason; the report
	// lists them.
	Skipped []drivers.Status
	// SystemLib is the library the system engine loads ("" for the
	// platform's own), as drivers.Options.SystemLib.
	SystemLib string

	JournalModes        []string // from JournalModes
	Synchronous         []string // from SynchronousLevels
	FullFsync           []string // from FullFsyncValues
	CheckpointFullFsync []string // from CheckpointFullFsyncs

	Commits       int // measured commits per case and round
	Warmup        int // unmeasured commits before them, on the same connection
	Rounds        int // fresh database per case and round; percentiles pool the rounds
	RowsPerCommit int // inserts per transaction
	RowBytes      int // payload of each row, a blob

	// Marks, if set, is told where each round's timed commits start and
	// end, just outside the timed interval. Only counting passes set it.
	Marks syscount.Marker `json:"-"`
}

// ErrConfig is wrapped by every error Validate and the Parse functions
// return: the input is refused.
var ErrConfig = errors.New("invalid configuration")

// maxRowBytes is SQLite's default SQLITE_MAX_LENGTH, the largest blob a
// default build stores.
const maxRowBytes = 1_000_000_000

// Validate checks everything that can be checked without loading an engine
// or touching a file.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("sqlitebench: %w: "+format, append([]any{ErrConfig}, args...)...)
	}
	for _, l := range []struct {
		flag   string
		values []string
		valid  []string
	}{
		{"--engines", c.Engines, drivers.Names()},
		{"--journal-modes", c.JournalModes, JournalModes},
		{"--synchronous", c.Synchronous, SynchronousLevels},
		{"--fullfsync", c.FullFsync, FullFsyncValues},
		{"--checkpoint-fullfsync", c.CheckpointFullFsync, CheckpointFullFsyncs},
	} {
		if len(l.values) == 0 {
			return bad("%s: nothing given: use one or more of %s", l.flag, strings.Join(l.valid, ", "))
		}
		for i, v := range l.values {
			if !slices.Contains(l.valid, v) {
				return bad("%s %q: use one or more of %s", l.flag, v, strings.Join(l.valid, ", "))
			}
			if slices.Contains(l.values[:i], v) {
				return bad("%s: %s given twice", l.flag, v)
			}
		}
	}
	switch {
	case c.Commits < 1:
		return bad("--commits %d: need at least one measured commit", c.Commits)
	case c.Warmup < 0:
		return bad("--warmup %d: must be 0 or more", c.Warmup)
	case c.Rounds < 1:
		return bad("--rounds %d: need at least one round", c.Rounds)
	case c.RowsPerCommit < 1:
		return bad("--rows-per-commit %d: need at least one row per commit", c.RowsPerCommit)
	case c.RowBytes < 0 || c.RowBytes > maxRowBytes:
		return bad("--row-bytes %d: use 0 to %d (SQLite's default maximum blob)", c.RowBytes, maxRowBytes)
	}
	return c.checkLimits()
}

// ParseEngines parses a comma-separated list of engine names.
func ParseEngines(csv string) ([]string, error) {
	return parseList("--engines", csv, drivers.Names(), func(s string) string { return s })
}

// ParseJournalModes parses a comma-separated list of journal modes, in any
// case.
func ParseJournalModes(csv string) ([]string, error) {
	return parseList("--journal-modes", csv, JournalModes, func(s string) string { return drivers.Normalize("journal_mode", s) })
}

// ParseSynchronous parses a comma-separated list of synchronous levels, by
// name or number (0 to 3), in any case.
func ParseSynchronous(csv string) ([]string, error) {
	return parseList("--synchronous", csv, SynchronousLevels, func(s string) string { return drivers.Normalize("synchronous", s) })
}

// ParseFullFsync parses a comma-separated list of fullfsync values: 0 or 1
// (also off/on, false/true, no/yes).
func ParseFullFsync(csv string) ([]string, error) {
	return parseList("--fullfsync", csv, FullFsyncValues, func(s string) string { return drivers.Normalize("fullfsync", s) })
}

// ParseCheckpointFullFsync parses a comma-separated list of
// checkpoint_fullfsync values: default, 0 or 1 (also off/on, ...).
func ParseCheckpointFullFsync(csv string) ([]string, error) {
	return parseList("--checkpoint-fullfsync", csv, CheckpointFullFsyncs, func(s string) string {
		return drivers.Normalize("checkpoint_fullfsync", s)
	})
}

// parseList splits csv, normalizes each value and refuses one that is not
// in valid, or given twice.
func parseList(flag, csv string, valid []string, normalize func(string) string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(csv, ",") {
		raw := strings.TrimSpace(part)
		if raw == "" {
			continue
		}
		v := normalize(strings.ToLower(raw))
		if !slices.Contains(valid, v) {
			return nil, fmt.Errorf("sqlitebench: %w: %s %q: use one or more of %s", ErrConfig, flag, raw, strings.Join(valid, ", "))
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("sqlitebench: %w: %s: %s given twice", ErrConfig, flag, v)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("sqlitebench: %w: %s: nothing given: use one or more of %s", ErrConfig, flag, strings.Join(valid, ", "))
	}
	return out, nil
}
