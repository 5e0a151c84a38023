//go:build cgo

package drivers

import (
	"errors"

	"github.com/mattn/go-sqlite3"
)

// mattnBuilt says that this build has the mattn engine (cgo).
const mattnBuilt = true

// mattnDriver is a private instance with no ConnectHook: connections get
// exactly what the driver does for a plain DSN.
var mattnDriver = &sqlite3.SQLiteDriver{}

// loadMattn readies the mattn engine. Its connections are opened with the
// plain path as DSN, as a user who sets nothing would: the driver then runs
// PRAGMA busy_timeout = 5000 and PRAGMA synchronous = NORMAL on every new
// connection (its _sync DSN key, left unset, defaults to NORMAL), so mattn
// connections start at synchronous=normal where the others start at full.
// That difference is part of what durabench reports; a caller that wants
// another level sets it with SetPragma.
func loadMattn(Options) (func(path string) (conn, error), error) {
	return func(path string) (conn, error) {
		return openSQL("mattn", mattnDriver, path, mattnCodes)
	}, nil
}

// mattnCodes reads a sqlite3.Error, whose text is sqlite3_errmsg (plus the
// OS error, when SQLite reported one).
func mattnCodes(err error) (code, extended int, msg string, ok bool) {
	var e sqlite3.Error
	if !errors.As(err, &e) {
		return 0, 0, "", false
	}
	return int(e.Code), int(e.ExtendedCode), e.Error(), true
}
