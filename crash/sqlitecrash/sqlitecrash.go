// Package sqlitecrash is SQLite's crash test: a workload that makes single-
// row insert commits through one engine with given durability pragmas and
// acknowledges each one when its commit returns, and the Checker that
// judges a crash state of its database: opened by the same engine,
// PRAGMA integrity_check must say "ok", every acknowledged row must be
// there, and nothing beyond the one commit in flight.
package sqlitecrash

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/drivers"
)

// DBName is the database's file name inside the recorded root.
const DBName = "crash.db"

// DefaultCommits is the number of commits when Config.Commits is 0.
const DefaultCommits = 20

// Config is one case of the workload. It marshals to JSON for the child
// that runs it under the recorder.
type Config struct {
	Engine      string `json:"engine"`       // modernc, mattn or system
	JournalMode string `json:"journal_mode"` // delete, truncate, persist, memory, wal, off
	Synchronous string `json:"synchronous"`  // off, normal, full, extra
	Fullfsync   string `json:"fullfsync"`    // 0 or 1
	Commits     int    `json:"commits"`
	SystemLib   string `json:"system_lib,omitempty"` // the system engine's library; empty for the platform's own
}

// Name is the configuration as results show it and state identifiers carry
// it: "sqlite/ENGINE/JOURNAL/SYNCHRONOUS/fullfsync=N", with "/commits=N"
// when the count is not DefaultCommits. The system engine's library is not
// in it: a state found with another library is rebuilt with that one only
// if the caller names it again.
func (c Config) Name() string {
	s := fmt.Sprintf("sqlite/%s/%s/%s/fullfsync=%s", c.Engine, c.JournalMode, c.Synchronous, c.Fullfsync)
	if c.commits() != DefaultCommits {
		s += fmt.Sprintf("/commits=%d", c.commits())
	}
	return s
}

// ParseName parses a configuration's Name.
func ParseName(s string) (Config, error) {
	bad := fmt.Errorf("sqlitecrash: %q is not a SQLite configuration (sqlite/ENGINE/JOURNAL/SYNCHRONOUS/fullfsync=N[/commits=N])", s)
	parts := strings.Split(s, "/")
	if len(parts) < 5 || len(parts) > 6 || parts[0] != "sqlite" {
		return Config{}, bad
	}
	full, ok := strings.CutPrefix(parts[4], "fullfsync=")
	if !ok {
		return Config{}, bad
	}
	c := Config{Engine: parts[1], JournalMode: parts[2], Synchronous: parts[3], Fullfsync: full}
	if len(parts) == 6 {
		n, ok := strings.CutPrefix(parts[5], "commits=")
		if !ok {
			return Config{}, bad
		}
		if _, err := fmt.Sscan(n, &c.Commits); err != nil || c.Commits < 1 {
			return Config{}, bad
		}
	}
	if !slices.Contains(drivers.Names(), c.Engine) {
		return Config{}, fmt.Errorf("sqlitecrash: %q: engine %q: use one of %s", s, c.Engine, strings.Join(drivers.Names(), ", "))
	}
	if err := c.Check(); err != nil {
		return Config{}, fmt.Errorf("sqlitecrash: %q: %w", s, err)
	}
	return c, nil
}

// Check refuses a configuration SQLite would not take as meant.
func (c Config) Check() error {
	for _, p := range [][2]string{{"journal_mode", c.JournalMode}, {"synchronous", c.Synchronous}, {"fullfsync", c.Fullfsync}} {
		if err := drivers.CheckPragma(p[0], p[1]); err != nil {
			return err
		}
	}
	if c.Commits < 0 {
		return fmt.Errorf("sqlitecrash: %d commits: want 0 (the default) or more", c.Commits)
	}
	return nil
}

func (c Config) commits() int {
	if c.Commits == 0 {
		return DefaultCommits
	}
	return c.Commits
}

// Run is the workload, run by the recorded child in root: it opens
// root/DBName with the engine, sets the pragmas and reads each back, creates
// the table (not acknowledged), then makes the commits, calling ack(i) as
// commit i (1, 2, ...) returns. Row i has id i.
func Run(root string, cfg Config, ack func(i uint64)) error {
	if err := cfg.Check(); err != nil {
		return err
	}
	eng, err := drivers.Lookup(cfg.Engine, drivers.Options{SystemLib: cfg.SystemLib})
	if err != nil {
		return err
	}
	db, err := eng.Open(filepath.Join(root, DBName))
	if err != nil {
		return err
	}
	defer db.Close()
	for _, p := range [][2]string{{"journal_mode", cfg.JournalMode}, {"synchronous", cfg.Synchronous}, {"fullfsync", cfg.Fullfsync}} {
		if err := db.Exec("PRAGMA " + p[0] + "=" + p[1]); err != nil {
			return fmt.Errorf("sqlitecrash: set %s=%s: %w", p[0], p[1], err)
		}
		got, err := db.Query("PRAGMA " + p[0])
		if err != nil {
			return err
		}
		if len(got) != 1 || drivers.Normalize(p[0], got[0]) != drivers.Normalize(p[0], p[1]) {
			return fmt.Errorf("sqlitecrash: %s reads back as %q after setting %s", p[0], got, p[1])
		}
	}
	if err := db.Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB)"); err != nil {
		return err
	}
	ins, err := db.Prepare("INSERT INTO t(id, v) VALUES(?1, ?2)")
	if err != nil {
		return err
	}
	defer ins.Close()
	payload := make([]byte, 100)
	for i := 1; i <= cfg.commits(); i++ {
		for j := range payload {
			payload[j] = byte(i)
		}
		if err := ins.ExecRow(int64(i), payload); err != nil {
			return fmt.Errorf("sqlitecrash: commit %d: %w", i, err)
		}
		ack(uint64(i))
	}
	return nil
}

// Checker judges a state of the workload's database with one engine.
type Checker struct {
	Engine    string
	SystemLib string
}

var _ crash.Checker = Checker{}

// Check opens dir/DBName as a new process would after the power came back
// (recovering a hot journal or the WAL), and judges it.
func (c Checker) Check(dir string, acked uint64) crash.Verdict {
	eng, err := drivers.Lookup(c.Engine, drivers.Options{SystemLib: c.SystemLib})
	if err != nil {
		return crash.Verdict{Err: err}
	}
	db, err := eng.Open(filepath.Join(dir, DBName))
	if err != nil {
		return crash.Verdict{Corrupt: true, Detail: "open: " + err.Error()}
	}
	defer db.Close()
	return judge(db, acked)
}

// judge reads the state through db.
func judge(db *drivers.Conn, acked uint64) crash.Verdict {
	ic, err := db.Query("PRAGMA integrity_check")
	if err != nil {
		return crash.Verdict{Corrupt: true, Detail: "integrity_check: " + err.Error()}
	}
	if len(ic) != 1 || ic[0] != "ok" {
		return crash.Verdict{Corrupt: true, Detail: "integrity_check: " + strings.Join(ic, "; ")}
	}
	tables, err := db.Query("SELECT name FROM sqlite_master WHERE type='table' AND name='t'")
	if err != nil {
		return crash.Verdict{Corrupt: true, Detail: "read the schema: " + err.Error()}
	}
	if len(tables) == 0 {
		if acked > 0 {
			return crash.Verdict{LostAcked: acked, Detail: "the table is missing"}
		}
		return crash.Verdict{Detail: "no table yet"}
	}
	rows, err := db.Query("SELECT id FROM t ORDER BY id")
	if err != nil {
		return crash.Verdict{Corrupt: true, Detail: "read the rows: " + err.Error()}
	}
	// Commits are serial: the rows must be 1..n with no gap.
	for i, r := range rows {
		if id, err := strconv.ParseUint(r, 10, 64); err != nil || id != uint64(i+1) {
			return crash.Verdict{Corrupt: true, Detail: fmt.Sprintf("row %d has id %s: the rows are not 1..%d", i+1, r, len(rows))}
		}
	}
	n := uint64(len(rows))
	switch {
	case n > acked+1:
		return crash.Verdict{Corrupt: true, Detail: fmt.Sprintf("%d rows with %d acknowledged: more than the one commit in flight", n, acked)}
	case n < acked:
		return crash.Verdict{LostAcked: acked - n, Detail: fmt.Sprintf("%d rows, %d acknowledged", n, acked)}
	}
	return crash.Verdict{Detail: fmt.Sprintf("%d rows, %d acknowledged", n, acked)}
}

// MacOSBuilds are the SQLite builds whose calls a configuration is mapped
// to under the macos model: the public amalgamation (F_FULLFSYNC for
// fullfsync=1) and Apple's system library (F_BARRIERFSYNC, as measured).
var MacOSBuilds = []string{"public", "apple"}

// Mapping says which darwin call each recorded sync stands for when the
// configuration runs on macOS with the given build. SQLite's full_fsync()
// calls fsync unless fullfsync is on (the recorded call, fsync or
// fdatasync, is this OS's stand-in for it); with fullfsync on, the public
// build calls fcntl(F_FULLFSYNC) and Apple's F_BARRIERFSYNC. With
// fullfsync off the build does not matter.
func Mapping(fullfsync, build string) (crash.Mapping, error) {
	if drivers.Normalize("fullfsync", fullfsync) == "0" {
		return crash.Mapping{Fsync: crash.SyncFsync, Fdatasync: crash.SyncFsync, Why: "fullfsync=0: SQLite calls fsync"}, nil
	}
	switch build {
	case "public":
		return crash.Mapping{Fsync: crash.SyncFull, Fdatasync: crash.SyncFull, Why: "fullfsync=1, public build: F_FULLFSYNC"}, nil
	case "apple":
		return crash.Mapping{Fsync: crash.SyncBarrier, Fdatasync: crash.SyncBarrier, Why: "fullfsync=1, Apple's system build: F_BARRIERFSYNC"}, nil
	}
	return crash.Mapping{}, fmt.Errorf("sqlitecrash: macOS build %q: want one of %s", build, strings.Join(MacOSBuilds, ", "))
}
