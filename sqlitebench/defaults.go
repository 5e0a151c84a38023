package sqlitebench

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/durabench/durabench/drivers"
)

// EngineInfo is what an engine is and what it gives a user who sets
// nothing, read from a fresh database file on a new connection.
type EngineInfo struct {
	Name     string
	Version  string // sqlite_version(), such as 3.40.1
	SourceID string // sqlite_source_id()
	// Library says where the engine's SQLite comes from: the Go module and
	// its version, or the shared library the system engine loads.
	Library string
	// Defaults are the durability pragmas on a new connection.
	Defaults drivers.Settings
	// WALSynchronous is synchronous after switching that connection to
	// journal_mode=wal and setting nothing else: builds with
	// SQLITE_DEFAULT_WAL_SYNCHRONOUS change it there, unless synchronous
	// was set (as mattn's driver does on every connection).
	WALSynchronous string
	// WALAutocheckpoint is the number of WAL pages after which a commit
	// runs a checkpoint (and its syncs).
	WALAutocheckpoint string
	// SyncOptions are the compile options that bear on syncing, each with
	// its value, "(not set)", or why it cannot be known.
	SyncOptions []CompileOption
}

// CompileOption is one compile option as the engine's build reports it.
type CompileOption struct {
	Key   string // without the SQLITE_ prefix, such as DEFAULT_SYNCHRONOUS
	Value string // "2", "(set)" for a flag, "(not set)", or an explanation
}

// NotSet is a CompileOption's value when the build does not list it.
const NotSet = "(not set)"

// shownOptions are the compile options every report shows, listed or not.
// Other options that bear on syncing (drivers.SyncCompileOptions) are shown
// only where the build lists them.
var shownOptions = []string{"DEFAULT_SYNCHRONOUS", "DEFAULT_WAL_SYNCHRONOUS", "DEFAULT_CKPTFULLFSYNC", "NO_SYNC"}

// engineModules are the Go modules the cgo and pure-Go engines build in.
var engineModules = map[string]string{"modernc": "modernc.org/sqlite", "mattn": "github.com/mattn/go-sqlite3"}

// describe opens a fresh database at path with e and reads what a user who
// sets nothing gets; it removes the database afterwards.
func describe(e engine, path, systemLib string) (info EngineInfo, err error) {
	info = EngineInfo{Name: e.name, Library: library(e.name, systemLib)}
	defer func() { err = errors.Join(err, removeDatabase(path)) }()
	c, err := e.open(path)
	if err != nil {
		return info, err
	}
	defer func() { err = errors.Join(err, c.Close()) }()
	if info.Defaults, err = c.Settings(); err != nil {
		return info, err
	}
	if info.Version, err = c.Version(); err != nil {
		return info, err
	}
	if info.SourceID, err = c.SourceID(); err != nil {
		return info, err
	}
	if info.WALAutocheckpoint, err = c.Pragma("wal_autocheckpoint"); err != nil {
		return info, err
	}
	opts, err := c.CompileOptions()
	if err != nil {
		return info, err
	}
	info.SyncOptions = syncOptions(opts, runtime.GOOS)
	// Last, as it changes the database: what synchronous becomes in WAL.
	if _, err := c.SetPragma("journal_mode", "wal"); err != nil {
		return info, err
	}
	info.WALSynchronous, err = c.Pragma("synchronous")
	return info, err
}

// syncOptions lists the compile options that bear on syncing: those of
// shownOptions with their values or NotSet, the two SQLite never lists
// (HAVE_FULLFSYNC, which follows the platform, and HAVE_FDATASYNC), then
// any other that drivers.SyncCompileOptions finds in opts.
func syncOptions(opts []string, goos string) []CompileOption {
	var out []CompileOption
	for _, key := range shownOptions {
		v, ok := drivers.CompileOption(opts, key)
		switch {
		case !ok:
			v = NotSet
		case v == "":
			v = "(set)"
		}
		out = append(out, CompileOption{key, v})
	}
	fullfsync := "0 (not listed by SQLite; derived: " + goos + " has no F_FULLFSYNC, so fullfsync changes no system call)"
	if goos == "darwin" {
		fullfsync = "1 (not listed by SQLite; derived: darwin defines F_FULLFSYNC)"
	}
	out = append(out,
		CompileOption{"HAVE_FULLFSYNC", fullfsync},
		CompileOption{"HAVE_FDATASYNC", "unknown (not listed by SQLite; only counting system calls shows fdatasync against fsync)"})
	for _, o := range drivers.SyncCompileOptions(opts) {
		key, v, valued := strings.Cut(o, "=")
		if !valued {
			v = "(set)"
		}
		if !slices.Contains(shownOptions, key) {
			out = append(out, CompileOption{key, v})
		}
	}
	return out
}

// library says where engine's SQLite comes from.
func library(engine, systemLib string) string {
	if engine == "system" {
		if systemLib != "" {
			return systemLib
		}
		return defaultSystemLib()
	}
	mod := engineModules[engine]
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == mod {
				return mod + " " + d.Version
			}
		}
	}
	return mod
}

// defaultSystemLib names the library the system engine loads when none is
// given, as package drivers documents it.
func defaultSystemLib() string {
	if runtime.GOOS == "darwin" {
		return "/usr/lib/libsqlite3.dylib"
	}
	return "libsqlite3.so.0 (the dynamic loader's search)"
}

// removeDatabase removes a database file and the journal, WAL and
// shared-memory files SQLite may leave next to it.
func removeDatabase(path string) error {
	var errs []error
	for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlitebench: remove database: %w", err)
	}
	return nil
}
