package drivers

import (
	"fmt"
	"strconv"
)

// conn is what an engine implements for one open connection. Errors from
// SQLite come back as *Error.
type conn interface {
	// exec runs one or more statements, discarding any rows.
	exec(sql string) error
	// query runs one statement and returns the first column of every row as
	// text (integers in decimal, NULL as "").
	query(sql string) ([]string, error)
	// prepare compiles one statement for repeated use.
	prepare(sql string) (stmt, error)
	close() error
}

// stmt is what an engine implements for one prepared statement; see Stmt.
type stmt interface {
	run() error
	runRow(id int64, payload []byte) error
	close() error
}

// Stmt is a prepared statement that returns no rows (BEGIN, an INSERT,
// COMMIT), compiled once and run many times. The system engine's Exec and
// ExecRow allocate nothing; the modernc and mattn engines allocate inside
// their drivers.
type Stmt struct {
	s    stmt
	conn *Conn
}

// Exec runs a statement that takes no parameters, such as BEGIN or COMMIT.
func (s *Stmt) Exec() error { return s.s.run() }

// ExecRow binds id to ?1 and payload to ?2 as a blob, then runs the
// statement: a single-row insert. A nil payload binds NULL, as the
// database/sql drivers do; an empty one binds a zero-length blob. The payload
// is copied, so the caller may reuse it at once.
func (s *Stmt) ExecRow(id int64, payload []byte) error { return s.s.runRow(id, payload) }

// Close finalizes the statement; closing it again does nothing.
func (s *Stmt) Close() error {
	if _, open := s.conn.stmts[s]; !open {
		return nil
	}
	delete(s.conn.stmts, s)
	err := s.s.close()
	s.s = closed{s.conn.engine}
	return err
}

// Conn is one connection to one database, opened by Engine.Open.
type Conn struct {
	engine string
	c      conn
	stmts  map[*Stmt]struct{} // open statements, finalized by Close
}

// Engine returns the name of the engine that opened c.
func (c *Conn) Engine() string { return c.engine }

// Exec runs sql (one or more statements), discarding any rows.
func (c *Conn) Exec(sql string) error { return c.c.exec(sql) }

// Query runs one statement and returns the first column of every row as
// text: integers in decimal, NULL as "".
func (c *Conn) Query(sql string) ([]string, error) { return c.c.query(sql) }

// QueryInt runs a query that returns one integer, such as
// SELECT count(*) FROM t.
func (c *Conn) QueryInt(sql string) (int64, error) {
	rows, err := c.c.query(sql)
	if err != nil {
		return 0, err
	}
	if len(rows) != 1 {
		return 0, fmt.Errorf("%s: query %q: got %d rows, want 1", c.engine, sql, len(rows))
	}
	n, err := strconv.ParseInt(rows[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: query %q: not an integer: %w", c.engine, sql, err)
	}
	return n, nil
}

// Prepare compiles sql, which must be a single statement, for repeated use.
// (The system engine refuses more than one; modernc's and mattn's drivers
// each handle the rest their own way.)
func (c *Conn) Prepare(sql string) (*Stmt, error) {
	s, err := c.c.prepare(sql)
	if err != nil {
		return nil, err
	}
	st := &Stmt{s: s, conn: c}
	c.stmts[st] = struct{}{}
	return st, nil
}

// Pragma reads the current value of a pragma (PRAGMA name), in Normalize's
// form: synchronous comes back as off, normal, full or extra.
func (c *Conn) Pragma(name string) (string, error) {
	if !isPragmaName(name) {
		return "", badPragmaName(name)
	}
	rows, err := c.c.query("PRAGMA " + name)
	if err != nil {
		return "", err
	}
	if len(rows) != 1 {
		return "", fmt.Errorf("%s: PRAGMA %s: got %d rows, want 1: is it a pragma this SQLite knows?", c.engine, name, len(rows))
	}
	return Normalize(name, rows[0]), nil
}

// SetPragma runs PRAGMA name=value and then reads the pragma back, returning
// the value now in effect in Normalize's form. SQLite may refuse a change
// without an error (journal_mode=wal on an in-memory database stays memory),
// so a caller compares the result with Normalize(name, value). Values that
// SQLite would misread are refused first: see CheckPragma.
func (c *Conn) SetPragma(name, value string) (string, error) {
	if err := CheckPragma(name, value); err != nil {
		return "", err
	}
	if err := c.c.exec("PRAGMA " + name + "=" + value); err != nil {
		return "", err
	}
	return c.Pragma(name)
}

// Settings reads the durability pragmas. On a connection just opened they
// are the engine's defaults.
func (c *Conn) Settings() (Settings, error) {
	var s Settings
	for _, p := range []struct {
		name string
		v    *string
	}{
		{"journal_mode", &s.JournalMode},
		{"synchronous", &s.Synchronous},
		{"fullfsync", &s.FullFsync},
		{"checkpoint_fullfsync", &s.CheckpointFullFsync},
	} {
		v, err := c.Pragma(p.name)
		if err != nil {
			return Settings{}, err
		}
		*p.v = v
	}
	return s, nil
}

// Version returns the SQLite version the engine runs, such as 3.40.1.
func (c *Conn) Version() (string, error) { return c.one("SELECT sqlite_version()") }

// SourceID returns the check-in of the SQLite source the engine was built
// from: date, time and hash, which a patched build may alter (Debian 12's
// ends in "alt1").
func (c *Conn) SourceID() (string, error) { return c.one("SELECT sqlite_source_id()") }

// CompileOptions returns the options the engine's SQLite was built with, as
// PRAGMA compile_options lists them: without the SQLITE_ prefix, such as
// THREADSAFE=1.
func (c *Conn) CompileOptions() ([]string, error) { return c.c.query("PRAGMA compile_options") }

// Close finalizes the statements still open and closes the connection;
// closing it again does nothing. A Conn or Stmt used after Close returns an
// error instead of reaching SQLite.
func (c *Conn) Close() error {
	var first error
	for s := range c.stmts {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	if err := c.c.close(); err != nil && first == nil {
		first = err
	}
	c.c = closed{c.engine}
	return first
}

func (c *Conn) one(sql string) (string, error) {
	rows, err := c.c.query(sql)
	if err != nil {
		return "", err
	}
	if len(rows) != 1 {
		return "", fmt.Errorf("%s: query %q: got %d rows, want 1", c.engine, sql, len(rows))
	}
	return rows[0], nil
}

// closed stands in for a connection or statement after Close, so that a
// late call gets an error rather than a freed SQLite handle.
type closed struct{ engine string }

func (c closed) err() error                     { return fmt.Errorf("%s: %w", c.engine, ErrClosed) }
func (c closed) exec(string) error              { return c.err() }
func (c closed) query(string) ([]string, error) { return nil, c.err() }
func (c closed) prepare(string) (stmt, error)   { return nil, c.err() }
func (c closed) run() error                     { return c.err() }
func (c closed) runRow(int64, []byte) error     { return c.err() }
func (c closed) close() error                   { return nil }
