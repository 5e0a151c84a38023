// Package drivers puts one small interface over three SQLite engines, so that
// a benchmark can open one connection per case, set pragmas on it, read them
// back and time single-row commits through a reused prepared statement:
//
//   - modernc: modernc.org/sqlite, SQLite translated to Go (no cgo);
//   - mattn: github.com/mattn/go-sqlite3, the public amalgamation built with
//     cgo (absent, with the reason, from a CGO_ENABLED=0 build);
//   - system: the platform's own libsqlite3 loaded at run time with purego
//     (/usr/lib/libsqlite3.dylib on macOS, libsqlite3.so.0 on Linux, or a
//     library the user names), no cgo needed.
//
// Each engine is opened the way its users open it, with nothing set on their
// behalf: mattn's driver runs PRAGMA synchronous = NORMAL on every new
// connection, and that is what its connections report until the caller sets
// something else. Engines talk to a single connection, never a pool, so a
// pragma set on a Conn holds for every statement run on it.
//
// A Conn and its statements belong to one goroutine at a time.
package drivers

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnavailable is wrapped by errors for an engine that cannot be used in
// this process: built without cgo, or a system library that cannot be
// loaded. Its message says why and what to do.
var ErrUnavailable = errors.New("engine unavailable")

// ErrClosed is wrapped by the error for a Conn or Stmt used after Close.
var ErrClosed = errors.New("used after close")

// ErrUnknownEngine is wrapped by Lookup's error for a name that is not an
// engine: a usage error.
var ErrUnknownEngine = errors.New("unknown engine")

// Options configure the engines; the zero value asks for every default.
type Options struct {
	// SystemLib is the shared library the system engine loads (the value of
	// durabench's --sqlite-lib). Empty means the platform's own:
	// /usr/lib/libsqlite3.dylib on macOS, libsqlite3.so.0 found by the
	// dynamic loader's search on Linux. A value containing '/' is a path and
	// must exist; a bare file name is left to the loader's search.
	SystemLib string
}

// Engine is one SQLite implementation, ready to open connections.
type Engine struct {
	name string
	open func(path string) (conn, error)
}

// Name returns the engine's name as Lookup knows it: modernc, mattn or system.
func (e *Engine) Name() string { return e.name }

// Open opens (creating it if needed) the database file at path, or an
// in-memory database for ":memory:", with one connection and the engine's own
// defaults. A path containing '?' is refused: the cgo and modernc drivers
// would read what follows as their own options.
func (e *Engine) Open(path string) (*Conn, error) {
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("%s: open %q: a path with '?' would be read as driver options: rename it", e.name, path)
	}
	c, err := e.open(path)
	if err != nil {
		return nil, err
	}
	return &Conn{engine: e.name, c: c, stmts: make(map[*Stmt]struct{})}, nil
}

// engines lists every engine in canonical order, with the function that
// makes it ready (loading a library where needed) or says why it cannot be.
var engines = []struct {
	name string
	load func(Options) (func(path string) (conn, error), error)
}{
	{"modernc", loadModernc},
	{"mattn", loadMattn},
	{"system", loadSystem},
}

// Names returns the names of all engines, available or not, in canonical
// order: modernc, mattn, system.
func Names() []string {
	names := make([]string, len(engines))
	for i, e := range engines {
		names[i] = e.name
	}
	return names
}

// BuiltIn returns the names of the engines compiled into this binary, in
// canonical order: modernc and system always, mattn only in a cgo build.
// Whether the system engine's library loads is a run-time matter: see
// Available.
func BuiltIn() []string {
	var names []string
	for _, e := range engines {
		if e.name != "mattn" || mattnBuilt {
			names = append(names, e.name)
		}
	}
	return names
}

// Lookup returns the engine called name, loading what it needs (the system
// engine dlopens its library here, not at program start). An unknown name
// gives an error wrapping ErrUnknownEngine that lists the known ones; an
// engine that cannot run here gives one wrapping ErrUnavailable that says
// why.
func Lookup(name string, opts Options) (*Engine, error) {
	for _, e := range engines {
		if e.name != name {
			continue
		}
		open, err := e.load(opts)
		if err != nil {
			return nil, err
		}
		return &Engine{name: e.name, open: open}, nil
	}
	return nil, fmt.Errorf("drivers: %w %q: known engines are %s", ErrUnknownEngine, name, strings.Join(Names(), ", "))
}

// Status says whether an engine can be used in this process, and if not why.
type Status struct {
	Name      string
	Available bool
	Reason    string // empty when Available
}

// Available reports every engine's status in canonical order, loading what
// each needs as Lookup does.
func Available(opts Options) []Status {
	st := make([]Status, len(engines))
	for i, e := range engines {
		st[i] = Status{Name: e.name, Available: true}
		if _, err := e.load(opts); err != nil {
			st[i].Available = false
			st[i].Reason = err.Error()
			var u *unavailableError
			if errors.As(err, &u) {
				st[i].Reason = u.reason
			}
		}
	}
	return st
}

// unavailableError says why an engine cannot be used; it matches
// ErrUnavailable and unwraps to its cause, if any.
type unavailableError struct {
	engine string
	reason string
	err    error
}

func (e *unavailableError) Error() string        { return e.engine + ": " + e.reason }
func (e *unavailableError) Is(target error) bool { return target == ErrUnavailable }
func (e *unavailableError) Unwrap() error        { return e.err }
