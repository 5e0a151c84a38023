package drivers

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The modernc and mattn engines use their database/sql drivers' connection
// directly (driver.Conn, not sql.DB): one connection, no pool that could
// hand a statement to a connection where the pragmas were never set, and
// fewer allocations per call.

// sqlDriverConn is what both drivers' connections implement.
type sqlDriverConn interface {
	driver.Conn
	driver.ExecerContext
	driver.QueryerContext
	driver.ConnPrepareContext
}

// sqlDriverStmt is what both drivers' statements implement.
type sqlDriverStmt interface {
	driver.Stmt
	driver.StmtExecContext
}

// sqliteCodes extracts SQLite's primary and extended result codes and
// message from a driver's error, if it is one of SQLite's.
type sqliteCodes func(err error) (code, extended int, msg string, ok bool)

// sqlConn is a conn over a database/sql driver connection.
type sqlConn struct {
	engine string
	dc     sqlDriverConn
	codes  sqliteCodes
}

var _ conn = (*sqlConn)(nil)

// openSQL opens dsn with d, which must yield a connection that implements
// sqlDriverConn.
func openSQL(engine string, d driver.Driver, dsn string, codes sqliteCodes) (conn, error) {
	c := &sqlConn{engine: engine, codes: codes}
	dc, err := d.Open(dsn)
	if err != nil {
		return nil, c.wrap(fmt.Sprintf("open %q", dsn), err)
	}
	sdc, ok := dc.(sqlDriverConn)
	if !ok {
		dc.Close()
		return nil, fmt.Errorf("%s: driver connection %T lacks ExecContext, QueryContext or PrepareContext", engine, dc)
	}
	c.dc = sdc
	return c, nil
}

// wrap turns a driver's error into an *Error when it carries SQLite's codes,
// and otherwise adds the engine and operation to it.
func (c *sqlConn) wrap(op string, err error) error {
	if code, ext, msg, ok := c.codes(err); ok {
		return &Error{Engine: c.engine, Op: op, Code: code, ExtendedCode: ext, Msg: msg}
	}
	return fmt.Errorf("%s: %s: %w", c.engine, op, err)
}

func (c *sqlConn) exec(sql string) error {
	if _, err := c.dc.ExecContext(context.Background(), sql, nil); err != nil {
		return c.wrap(fmt.Sprintf("exec %q", sql), err)
	}
	return nil
}

func (c *sqlConn) query(sql string) (out []string, err error) {
	rows, err := c.dc.QueryContext(context.Background(), sql, nil)
	if err != nil {
		return nil, c.wrap(fmt.Sprintf("query %q", sql), err)
	}
	defer func() {
		if cerr := rows.Close(); cerr != nil && err == nil {
			out, err = nil, c.wrap(fmt.Sprintf("query %q", sql), cerr)
		}
	}()
	dest := make([]driver.Value, len(rows.Columns()))
	for {
		err := rows.Next(dest)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, c.wrap(fmt.Sprintf("query %q", sql), err)
		}
		if len(dest) > 0 {
			out = append(out, valueText(dest[0]))
		}
	}
}

// valueText renders a column value as SQLite's text conversion would.
func valueText(v driver.Value) string {
	switch v := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	case []byte:
		return string(v)
	}
	return fmt.Sprint(v)
}

func (c *sqlConn) prepare(sql string) (stmt, error) {
	ds, err := c.dc.PrepareContext(context.Background(), sql)
	if err != nil {
		return nil, c.wrap(fmt.Sprintf("prepare %q", sql), err)
	}
	s, ok := ds.(sqlDriverStmt)
	if !ok {
		ds.Close()
		return nil, fmt.Errorf("%s: driver statement %T lacks ExecContext", c.engine, ds)
	}
	st := &sqlStmt{c: c, s: s, sql: sql}
	st.args[0].Ordinal = 1
	st.args[1].Ordinal = 2
	return st, nil
}

func (c *sqlConn) close() error {
	if err := c.dc.Close(); err != nil {
		return c.wrap("close", err)
	}
	return nil
}

// sqlStmt is a stmt over a database/sql driver statement. Its arguments live
// in the struct, so binding costs the drivers' own work plus boxing id and
// payload into driver.Values.
type sqlStmt struct {
	c    *sqlConn
	s    sqlDriverStmt
	sql  string
	args [2]driver.NamedValue
}

var _ stmt = (*sqlStmt)(nil)

func (s *sqlStmt) run() error {
	if _, err := s.s.ExecContext(context.Background(), nil); err != nil {
		return s.c.wrap(fmt.Sprintf("exec %q", s.sql), err)
	}
	return nil
}

func (s *sqlStmt) runRow(id int64, payload []byte) error {
	s.args[0].Value = id
	s.args[1].Value = payload
	if _, err := s.s.ExecContext(context.Background(), s.args[:]); err != nil {
		return s.c.wrap(fmt.Sprintf("exec %q", s.sql), err)
	}
	return nil
}

func (s *sqlStmt) close() error {
	if err := s.s.Close(); err != nil {
		return s.c.wrap(fmt.Sprintf("finalize %q", s.sql), err)
	}
	return nil
}
