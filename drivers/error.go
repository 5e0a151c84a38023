package drivers

import "fmt"

// Error is a failure reported by SQLite itself, with its result codes and
// message, from any engine. Its text reads, for example:
//
//	system: exec "PRAGMA x=": SQLITE_ERROR (1): incomplete input
type Error struct {
	Engine       string // modernc, mattn or system
	Op           string // what was being done, with its SQL or path: `exec "PRAGMA x"`
	Code         int    // primary result code, e.g. 1 for SQLITE_ERROR
	ExtendedCode int    // extended result code, e.g. 1034 for SQLITE_IOERR_FSYNC; equals Code when there is none
	Msg          string // SQLite's message (sqlite3_errmsg), as the engine reports it
}

// Error formats e as "engine: op: CODE (code[, extended n]): message".
func (e *Error) Error() string {
	code := fmt.Sprintf("%s (%d)", CodeName(e.Code), e.Code)
	if e.ExtendedCode != e.Code {
		code = fmt.Sprintf("%s (%d, extended %d)", CodeName(e.Code), e.Code, e.ExtendedCode)
	}
	return fmt.Sprintf("%s: %s: %s: %s", e.Engine, e.Op, code, e.Msg)
}

// codeNames are SQLite's primary result codes, indexed by value
// (https://www.sqlite.org/rescode.html).
var codeNames = [...]string{
	"SQLITE_OK", "SQLITE_ERROR", "SQLITE_INTERNAL", "SQLITE_PERM", "SQLITE_ABORT",
	"SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_NOMEM", "SQLITE_READONLY", "SQLITE_INTERRUPT",
	"SQLITE_IOERR", "SQLITE_CORRUPT", "SQLITE_NOTFOUND", "SQLITE_FULL", "SQLITE_CANTOPEN",
	"SQLITE_PROTOCOL", "SQLITE_EMPTY", "SQLITE_SCHEMA", "SQLITE_TOOBIG", "SQLITE_CONSTRAINT",
	"SQLITE_MISMATCH", "SQLITE_MISUSE", "SQLITE_NOLFS", "SQLITE_AUTH", "SQLITE_FORMAT",
	"SQLITE_RANGE", "SQLITE_NOTADB", "SQLITE_NOTICE", "SQLITE_WARNING",
}

// CodeName returns the name of a primary result code, such as SQLITE_BUSY
// for 5; an extended code is named by its primary part (its low byte).
func CodeName(code int) string {
	switch primary := code & 0xff; {
	case code == 100:
		return "SQLITE_ROW"
	case code == 101:
		return "SQLITE_DONE"
	case primary < len(codeNames):
		return codeNames[primary]
	}
	return fmt.Sprintf("SQLITE_UNKNOWN_%d", code)
}
