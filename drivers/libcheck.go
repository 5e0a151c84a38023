//go:build darwin || linux

package drivers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/ebitengine/purego"
)

// Checks on a library named by path, made before it is loaded, and on what
// it answers once loaded. A library is code that runs in this process: a
// file that is truncated, built for another machine or not SQLite at all
// would crash the program (SIGBUS, SIGSEGV) instead of failing with an
// error, so it is refused up front, and what can still go wrong in a call
// is recovered into an error where Go can catch it.

// minVersion and maxVersion bound the sqlite3_libversion_number a library
// may report: 3.8.7 brought sqlite3_malloc64, and SQLite 4 would be another
// API.
const (
	minVersion = 3008007
	maxVersion = 3999999
)

// checkLib checks the file at path before it is loaded: it exists, is a
// regular file, and is a shared library for this machine that is whole and
// defines syms (checkLibFile, per platform).
func checkLib(path string, syms []string) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no such file: %w", path, err)
		}
		return fmt.Errorf("cannot open %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("cannot stat %s: %w", path, err)
	}
	switch {
	case st.IsDir():
		return fmt.Errorf("%s is a directory, not a shared library file", path)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s), not a shared library", path, st.Mode().Type())
	}
	return checkLibFile(path, f, st.Size(), syms)
}

// truncatedError says that the library at path ends before a part of it
// that is loaded.
func truncatedError(path string, size int64, need uint64) error {
	return fmt.Errorf("%s is truncated: it has %d bytes, and its headers place data up to byte %d: copy the library again", path, size, need)
}

// missingSymbol names the first of syms the library does not define.
func missingSymbol(path string, syms []string, defined map[string]bool) error {
	for _, s := range syms {
		if !defined[s] {
			return errors.New(noSymbol(path, s))
		}
	}
	return nil
}

// noSymbol says that the library at path lacks the function sym.
func noSymbol(path, sym string) string {
	return fmt.Sprintf("%s has no %s: is it a libsqlite3 (3.8.7 or later)?", path, sym)
}

// checkVersion asks a loaded library its version, as a number and as text,
// and refuses answers that make no sense for a SQLite 3 library: a number
// out of range, or text that does not spell the same version.
func (l *sqliteLib) checkVersion(path string) (int, error) {
	var n int
	var text string
	err := guarded(path, "sqlite3_libversion", func() error {
		n = int(cInt(purego.SyscallN(l.libversionNumber)))
		text = goString(cPtr(purego.SyscallN(l.libversion)))
		return nil
	})
	if err != nil {
		return 0, err
	}
	if n < minVersion || n > maxVersion {
		return 0, fmt.Errorf("%s reports SQLite version number %d, outside 3.8.7 (%d) to %d: it is not a usable SQLite 3 library", path, n, minVersion, maxVersion)
	}
	if v, ok := parseVersion(text); !ok || v != n {
		return 0, fmt.Errorf("%s reports version %q as text but %d as a number: the library is not behaving like SQLite", path, text, n)
	}
	return n, nil
}

// parseVersion turns "3.40.1" into 3040001, SQLite's version number.
func parseVersion(s string) (int, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return 0, false
	}
	n := 0
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || (i > 0 && v > 999) {
			return 0, false
		}
		n = n*1000 + v
	}
	return n, true
}

// guarded runs f, and turns a Go panic in it, including a fault while
// reading memory the library handed back (debug.SetPanicOnFault), into an
// error naming the library and the call. A fault inside the library's own
// code cannot be caught this way; checkLib exists to prevent those.
func guarded(path, op string, f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the SQLite library %s failed in %s: %v: it may be damaged or not SQLite", path, op, r)
		}
	}()
	return f()
}
