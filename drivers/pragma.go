package drivers

import (
	"errors"
	"fmt"
	"strings"
)

// SQLite accepts any value for a pragma it knows and silently ignores a
// pragma it does not: "PRAGMA synchronous=ful" sets NORMAL, and
// "PRAGMA fulfsync=1" does nothing. So the durability pragmas' values are
// checked here before they reach SQLite, and every value is read back after
// it is set.

// ErrBadPragma is wrapped by the error for a pragma name or value that is
// refused before it reaches SQLite: a usage error.
var ErrBadPragma = errors.New("bad pragma")

// DurabilityPragmas are the pragmas that decide what a commit syncs, in the
// order a benchmark sets them.
var DurabilityPragmas = []string{"journal_mode", "synchronous", "fullfsync", "checkpoint_fullfsync"}

// pragmaValues lists the values CheckPragma accepts for the durability
// pragmas, their normal forms first.
var pragmaValues = map[string][]string{
	"journal_mode":         {"delete", "truncate", "persist", "memory", "wal", "off"},
	"synchronous":          {"off", "normal", "full", "extra", "0", "1", "2", "3"},
	"fullfsync":            {"0", "1", "off", "on", "false", "true", "no", "yes"},
	"checkpoint_fullfsync": {"0", "1", "off", "on", "false", "true", "no", "yes"},
}

// CheckPragma refuses a pragma name that is not an identifier (optionally
// schema-qualified: main.journal_mode), a value that is not a plain word or
// number, and for the DurabilityPragmas any value SQLite would not take as
// meant.
func CheckPragma(name, value string) error {
	if !isPragmaName(name) {
		return badPragmaName(name)
	}
	if !isPragmaWord(value) {
		return fmt.Errorf("drivers: pragma %s=%q: %w: want a word or number such as full or 1", name, value, ErrBadPragma)
	}
	allowed, ok := pragmaValues[baseName(name)]
	if !ok {
		return nil
	}
	for _, a := range allowed {
		if strings.EqualFold(value, a) {
			return nil
		}
	}
	return fmt.Errorf("drivers: pragma %s=%s: %w: want one of %s", name, value, ErrBadPragma, strings.Join(allowed, ", "))
}

func badPragmaName(name string) error {
	return fmt.Errorf("drivers: pragma %q: %w: want a name such as synchronous or main.journal_mode", name, ErrBadPragma)
}

// Normalize returns value in the form Pragma reports for name, so that an
// asked value and a read-back one compare equal when they mean the same:
// lower case; synchronous as a level name (0..3 read back as off, normal,
// full, extra); fullfsync and checkpoint_fullfsync as 0 or 1.
func Normalize(name, value string) string {
	v := strings.ToLower(value)
	switch baseName(name) {
	case "synchronous":
		switch v {
		case "0":
			return "off"
		case "1":
			return "normal"
		case "2":
			return "full"
		case "3":
			return "extra"
		}
	case "fullfsync", "checkpoint_fullfsync":
		switch v {
		case "on", "true", "yes":
			return "1"
		case "off", "false", "no":
			return "0"
		}
	}
	return v
}

// baseName returns a pragma name in lower case without its schema.
func baseName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.ToLower(name)
}

func isPragmaName(s string) bool {
	schema, name, qualified := strings.Cut(s, ".")
	if !qualified {
		return isIdent(s)
	}
	return isIdent(schema) && isIdent(name)
}

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// isPragmaWord accepts an identifier or a signed integer (cache_size=-2000).
func isPragmaWord(s string) bool {
	if isIdent(s) {
		return true
	}
	digits := strings.TrimLeft(s, "+-")
	if digits == "" || len(s)-len(digits) > 1 {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// Settings are the durability pragmas as a connection reports them, in
// Normalize's form. Read from a connection just opened, they are the engine's
// defaults: what a user gets who sets nothing.
type Settings struct {
	JournalMode         string // delete, truncate, persist, memory, wal or off
	Synchronous         string // off, normal, full or extra
	FullFsync           string // 0 or 1
	CheckpointFullFsync string // 0 or 1
}

// CompileOption finds key (such as DEFAULT_SYNCHRONOUS, without the SQLITE_
// prefix) in opts as CompileOptions returns them, and returns its value: the
// text after '=', or "" for an option that is only a flag.
func CompileOption(opts []string, key string) (value string, ok bool) {
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		if k == key {
			return v, true
		}
	}
	return "", false
}

// syncOptionKeys are the compile options that bear on what a commit syncs.
// SQLite lists an option only when the build sets it; HAVE_FULLFSYNC, which
// os_unix.c derives from the platform, is never listed.
var syncOptionKeys = []string{
	"DEFAULT_SYNCHRONOUS",        // synchronous on a new connection (default 2, FULL)
	"DEFAULT_WAL_SYNCHRONOUS",    // synchronous after switching to WAL, unless set explicitly
	"DEFAULT_CKPTFULLFSYNC",      // checkpoint_fullfsync on by default (Apple's build)
	"DEFAULT_JOURNAL_SIZE_LIMIT", // what truncate/persist leave behind
	"DEFAULT_WAL_AUTOCHECKPOINT", // pages between automatic checkpoints (and their syncs)
	"DEFAULT_LOCKING_MODE",       // exclusive locking changes WAL's syncs
	"NO_SYNC",                    // every sync compiled out
	"DISABLE_DIRSYNC",            // no directory sync after creating/deleting a journal
	"ENABLE_ATOMIC_WRITE",        // skip the journal on atomic-write devices
	"ENABLE_BATCH_ATOMIC_WRITE",  // F2FS batch atomic writes
	"SECURE_DELETE",              // deleted content overwritten: more pages written per commit
}

// SyncCompileOptions returns the options in opts that bear on what a commit
// syncs, in a fixed order.
func SyncCompileOptions(opts []string) []string {
	var out []string
	for _, key := range syncOptionKeys {
		for _, o := range opts {
			if k, _, _ := strings.Cut(o, "="); k == key {
				out = append(out, o)
			}
		}
	}
	return out
}
