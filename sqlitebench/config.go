package sqlitebench

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/runner"
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

	Commits int // measured commits per case and round
	// WALCommits are the measured commits per round of the cases asked
	// for journal_mode=wal; 0 means Commits. A WAL checkpoint (and at
	// synchronous=normal the only sync) comes once the WAL holds
	// wal_autocheckpoint pages, 1,000 by default, about one page per small
	// commit: WAL rounds need more commits than the others to hold one.
	WALCommits    int
	Warmup        int // unmeasured commits before them, on the same connection
	Rounds        int // fresh database per case and round; percentiles pool the rounds
	RowsPerCommit int // inserts per transaction
	RowBytes      int // payload of each row, a blob

	// Marks, if set, is told where each round's timed commits start and
	// end, just outside the timed interval. Only counting passes set it.
	Marks syscount.Marker `json:"-"`
}

// ErrConfig is wrapped by every error Validate and SelectEngines return:
// the configuration is refused.
var ErrConfig = errors.New("invalid configuration")

// maxRowBytes is SQLite's default SQLITE_MAX_LENGTH, the largest blob a
// default build stores.
const maxRowBytes = 1_000_000_000

// lists are the configuration's value lists: each field's name, what one
// value is called, and the values it may take.
func (c Config) lists() []struct {
	field, what   string
	values, valid []string
} {
	return []struct {
		field, what   string
		values, valid []string
	}{
		{"Engines", "engine", c.Engines, drivers.Names()},
		{"JournalModes", "journal mode", c.JournalModes, JournalModes},
		{"Synchronous", "synchronous level", c.Synchronous, SynchronousLevels},
		{"FullFsync", "fullfsync value", c.FullFsync, FullFsyncValues},
		{"CheckpointFullFsync", "checkpoint_fullfsync value", c.CheckpointFullFsync, CheckpointFullFsyncs},
	}
}

// Validate checks everything that can be checked without loading an engine
// or touching a file. Its errors are *runner.ConfigError values naming the
// fields at fault.
func (c Config) Validate() error {
	bad := func(field, format string, args ...any) error {
		return runner.Refuse(ErrConfig, field, format, args...)
	}
	for _, l := range c.lists() {
		if len(l.values) == 0 {
			return bad(l.field, "no %s given: use one or more of %s", l.what, strings.Join(l.valid, ", "))
		}
		for i, v := range l.values {
			if !slices.Contains(l.valid, v) {
				return bad(l.field, "%s %q: use one or more of %s", l.what, v, strings.Join(l.valid, ", "))
			}
			if slices.Contains(l.values[:i], v) {
				return bad(l.field, "%s %q is given twice: give each once", l.what, v)
			}
		}
	}
	switch {
	case c.Commits < 1:
		return bad("Commits", "%d measured commits: need at least one", c.Commits)
	case c.WALCommits < 0:
		return bad("WALCommits", "%d measured WAL commits: must be 0 (as many as the others) or more", c.WALCommits)
	case c.Warmup < 0:
		return bad("Warmup", "%d warm-up commits: must be 0 or more", c.Warmup)
	case c.Rounds < 1:
		return bad("Rounds", "%d rounds: need at least one", c.Rounds)
	case c.RowsPerCommit < 1:
		return bad("RowsPerCommit", "%d rows per commit: need at least one", c.RowsPerCommit)
	case c.RowBytes < 0 || c.RowBytes > maxRowBytes:
		return bad("RowBytes", "rows of %d bytes: use 0 to %d (SQLite's default maximum blob)", c.RowBytes, maxRowBytes)
	}
	return c.checkLimits()
}

// ParseEngines parses a comma-separated list of engine names.
func ParseEngines(csv string) ([]string, error) {
	return parseList(csv, "engine", drivers.Names(), func(s string) string { return s })
}

// ParseJournalModes parses a comma-separated list of journal modes, in any
// case.
func ParseJournalModes(csv string) ([]string, error) {
	return parseList(csv, "journal mode", JournalModes, func(s string) string { return drivers.Normalize("journal_mode", s) })
}

// ParseSynchronous parses a comma-separated list of synchronous levels, by
// name or number (0 to 3), in any case.
func ParseSynchronous(csv string) ([]string, error) {
	return parseList(csv, "synchronous level", SynchronousLevels, func(s string) string { return drivers.Normalize("synchronous", s) })
}

// ParseFullFsync parses a comma-separated list of fullfsync values: 0 or 1
// (also off/on, false/true, no/yes).
func ParseFullFsync(csv string) ([]string, error) {
	return parseList(csv, "fullfsync value", FullFsyncValues, func(s string) string { return drivers.Normalize("fullfsync", s) })
}

// ParseCheckpointFullFsync parses a comma-separated list of
// checkpoint_fullfsync values: default, 0 or 1 (also off/on, ...).
func ParseCheckpointFullFsync(csv string) ([]string, error) {
	return parseList(csv, "checkpoint_fullfsync value", CheckpointFullFsyncs, func(s string) string {
		return drivers.Normalize("checkpoint_fullfsync", s)
	})
}

// parseList parses csv with runner.ParseList, each value normalized and
// checked against valid.
func parseList(csv, what string, valid []string, normalize func(string) string) ([]string, error) {
	hint := "use one or more of " + strings.Join(valid, ", ")
	return runner.ParseList(csv, what, hint, func(raw string) (string, error) {
		if v := normalize(strings.ToLower(raw)); slices.Contains(valid, v) {
			return v, nil
		}
		return "", fmt.Errorf("%s %q: %s", what, raw, hint)
	})
}

// CommitsFor returns the measured commits per round of case cs:
// WALCommits for a case asked for journal_mode=wal (when set), Commits
// otherwise.
func (c Config) CommitsFor(cs Case) int {
	if cs.Asked.JournalMode == "wal" && c.WALCommits > 0 {
		return c.WALCommits
	}
	return c.Commits
}
