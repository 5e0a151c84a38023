package drivers

import (
	"errors"
	"fmt"
	"strings"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// moderncDriver is a private instance, so that hooks and functions other
// code registers on modernc's process-wide driver never run on our
// connections.
var moderncDriver = &sqlite.Driver{}

// loadModernc readies the modernc engine, which is always available. Its
// driver opens with SQLITE_OPEN_READWRITE|CREATE|FULLMUTEX|URI, turns on
// extended result codes and sets no pragma, so a new connection has SQLite's
// compiled-in defaults.
func loadModernc(Options) (func(path string) (conn, error), error) {
	return func(path string) (conn, error) {
		return openSQL("modernc", moderncDriver, path, moderncCodes)
	}, nil
}

// moderncCodes reads a *sqlite.Error. Its Code is the extended result code
// (the driver turns extended codes on) and its text is
// "errstr: errmsg (code)", or "errstr (code)" when errmsg says no more than
// sqlite3_errstr; both are cut down here to errmsg, as the other engines
// report it.
func moderncCodes(err error) (code, extended int, msg string, ok bool) {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return 0, 0, "", false
	}
	msg = strings.TrimSuffix(e.Error(), " (SQLITE_BUSY)")
	msg = strings.TrimSuffix(msg, fmt.Sprintf(" (%d)", e.Code()))
	tls := libc.NewTLS()
	defer tls.Close()
	msg = strings.TrimPrefix(msg, libc.GoString(sqlite3.Xsqlite3_errstr(tls, int32(e.Code())))+": ")
	return e.Code() & 0xff, e.Code(), msg, true
}
