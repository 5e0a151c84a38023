package runner

import (
	"errors"
	"fmt"
	"strings"
)

// ConfigError is a configuration a runner refuses. Fields are the names of
// the configuration's fields at fault, as the Go struct spells them
// ("Iterations", "SyncEvery"), so that a command line can name its own
// flags for them; Msg says what is wrong and what to do, in the runner's
// terms. Its Error is Base's text and Msg, and it unwraps to Base (the
// runner's ErrConfig sentinel).
type ConfigError struct {
	Base   error
	Fields []string
	Msg    string
}

// Error returns Base's text, a colon and Msg.
func (e *ConfigError) Error() string {
	if e.Base == nil {
		return e.Msg
	}
	return e.Base.Error() + ": " + e.Msg
}

// Unwrap returns Base, so errors.Is(err, ErrConfig) holds.
func (e *ConfigError) Unwrap() error { return e.Base }

// Refuse returns a *ConfigError wrapping base for the comma-separated Go
// field names in fields (none: the configuration as a whole), with the
// message format and args.
func Refuse(base error, fields, format string, args ...any) error {
	var fs []string
	for f := range strings.SplitSeq(fields, ",") {
		if f = strings.TrimSpace(f); f != "" {
			fs = append(fs, f)
		}
	}
	return &ConfigError{Base: base, Fields: fs, Msg: fmt.Sprintf(format, args...)}
}

// FieldsOf returns the fields and message of the *ConfigError in err's
// chain, and whether there is one.
func FieldsOf(err error) (fields []string, msg string, ok bool) {
	var ce *ConfigError
	if !errors.As(err, &ce) {
		return nil, "", false
	}
	return ce.Fields, ce.Msg, true
}
