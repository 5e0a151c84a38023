package sqlitebench

import (
	"fmt"

	"github.com/durabench/durabench/drivers"
)

// fakeConn is a conn that keeps pragmas and counts rows in memory, so tests
// can make SQLite's behaviour whatever they need: refuse a pragma, lose
// rows, change a setting in the middle of the timed commits.
type fakeConn struct {
	settings drivers.Settings
	// refuse maps "pragma=asked" to the value the pragma keeps instead.
	refuse map[string]string
	// short is how many rows the count comes up short.
	short int64
	// onCommit runs after every commit, with the number of commits so far.
	onCommit func(c *fakeConn, commits int)

	pending, rows int64
	commits       int
	lastID        int64
	outOfOrder    bool // an insert's id did not follow the one before
	closed        bool
}

func newFakeConn() *fakeConn {
	return &fakeConn{settings: drivers.Settings{JournalMode: "delete", Synchronous: "full", FullFsync: "0", CheckpointFullFsync: "0"}}
}

func (c *fakeConn) field(name string) *string {
	for _, p := range pragmaFields {
		if p.name == name {
			return p.field(&c.settings)
		}
	}
	panic("fake: unknown pragma " + name)
}

func (c *fakeConn) SetPragma(name, value string) (string, error) {
	v := value
	if kept, ok := c.refuse[name+"="+value]; ok {
		v = kept
	}
	*c.field(name) = v
	return v, nil
}

func (c *fakeConn) Pragma(name string) (string, error) {
	if name == "wal_autocheckpoint" {
		return "1000", nil
	}
	return *c.field(name), nil
}

func (c *fakeConn) Settings() (drivers.Settings, error) { return c.settings, nil }

func (c *fakeConn) Exec(sql string) error {
	if sql != createTable {
		return fmt.Errorf("fake: unexpected exec %q", sql)
	}
	return nil
}

func (c *fakeConn) QueryInt(sql string) (int64, error) {
	if sql != countRows {
		return 0, fmt.Errorf("fake: unexpected query %q", sql)
	}
	return c.rows - c.short, nil
}

func (c *fakeConn) Prepare(sql string) (statement, error) { return &fakeStmt{c: c, sql: sql}, nil }
func (c *fakeConn) Version() (string, error)              { return "3.99.0", nil }
func (c *fakeConn) SourceID() (string, error)             { return "fake source", nil }
func (c *fakeConn) CompileOptions() ([]string, error) {
	return []string{"DEFAULT_WAL_SYNCHRONOUS=1", "THREADSAFE=1"}, nil
}
func (c *fakeConn) Close() error { c.closed = true; return nil }

// fakeStmt runs BEGIN, the insert and COMMIT against its fakeConn without
// allocating.
type fakeStmt struct {
	c   *fakeConn
	sql string
}

func (s *fakeStmt) Exec() error {
	if s.sql == "COMMIT" {
		s.c.rows += s.c.pending
		s.c.pending = 0
		s.c.commits++
		if s.c.onCommit != nil {
			s.c.onCommit(s.c, s.c.commits)
		}
	}
	return nil
}

func (s *fakeStmt) ExecRow(id int64, payload []byte) error {
	if id != s.c.lastID+1 {
		s.c.outOfOrder = true
	}
	s.c.lastID = id
	s.c.pending++
	return nil
}

// fakeEngine opens a new fakeConn, made by setup, for every database; it
// keeps them so that tests can look inside.
type fakeEngine struct {
	setup func(c *fakeConn)
	conns []*fakeConn
}

func (f *fakeEngine) lookup(name string) (engine, error) {
	return engine{name: name, open: func(string) (conn, error) {
		c := newFakeConn()
		if f.setup != nil {
			f.setup(c)
		}
		f.conns = append(f.conns, c)
		return c, nil
	}}, nil
}
