package sqlitebench

import (
	"fmt"

	"github.com/durabench/durabench/drivers"
)

// pragmaFields are the durability pragmas in the order they are set
// (drivers.DurabilityPragmas: journal_mode first, so that switching to WAL
// cannot change a synchronous level set after it), each with its field of
// drivers.Settings.
var pragmaFields = []struct {
	name  string
	field func(*drivers.Settings) *string
}{
	{"journal_mode", func(s *drivers.Settings) *string { return &s.JournalMode }},
	{"synchronous", func(s *drivers.Settings) *string { return &s.Synchronous }},
	{"fullfsync", func(s *drivers.Settings) *string { return &s.FullFsync }},
	{"checkpoint_fullfsync", func(s *drivers.Settings) *string { return &s.CheckpointFullFsync }},
}

// Mismatch is a pragma that did not take the value asked for.
type Mismatch struct{ Pragma, Asked, Got string }

// String says what was asked and what SQLite reported.
func (m Mismatch) String() string {
	return fmt.Sprintf("asked %s=%s, got %s", m.Pragma, m.Asked, m.Got)
}

// mismatches compares what a case asked for with what its connection
// reports. A checkpoint_fullfsync asked as CheckpointDefault takes any
// value.
func mismatches(asked, got drivers.Settings) []Mismatch {
	var out []Mismatch
	for _, p := range pragmaFields {
		a, g := *p.field(&asked), *p.field(&got)
		if a == CheckpointDefault || a == g {
			continue
		}
		out = append(out, Mismatch{p.name, a, g})
	}
	return out
}

// applyPragmas sets the asked pragmas on c in order, leaving a
// checkpoint_fullfsync of CheckpointDefault alone, and returns each value
// as read back right after it was set (the engine's own value for one left
// alone).
func applyPragmas(c conn, asked drivers.Settings) (drivers.Settings, error) {
	var got drivers.Settings
	for _, p := range pragmaFields {
		value := *p.field(&asked)
		var err error
		if value == CheckpointDefault {
			*p.field(&got), err = c.Pragma(p.name)
		} else {
			*p.field(&got), err = c.SetPragma(p.name, value)
		}
		if err != nil {
			return got, err
		}
	}
	return got, nil
}
