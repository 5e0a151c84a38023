package sqlitebench

import "github.com/durabench/durabench/drivers"

// The runner talks to SQLite through conn and statement, which
// *drivers.Conn and *drivers.Stmt implement (through driverConn), so that
// tests can stand in a connection that refuses a pragma or miscounts rows,
// and prove that the harness itself allocates nothing.

// conn is one connection to one database: what a case needs of
// *drivers.Conn.
type conn interface {
	// SetPragma sets a pragma and returns the value read back.
	SetPragma(name, value string) (string, error)
	// Pragma reads a pragma's current value.
	Pragma(name string) (string, error)
	// Settings reads the durability pragmas.
	Settings() (drivers.Settings, error)
	Exec(sql string) error
	QueryInt(sql string) (int64, error)
	Prepare(sql string) (statement, error)
	Version() (string, error)
	SourceID() (string, error)
	CompileOptions() ([]string, error)
	Close() error
}

// statement is a prepared statement, run many times.
type statement interface {
	// Exec runs a statement without parameters (BEGIN, COMMIT).
	Exec() error
	// ExecRow binds id and payload to ?1 and ?2 and runs the statement.
	ExecRow(id int64, payload []byte) error
}

// engine opens connections of one SQLite engine.
type engine struct {
	name string
	open func(path string) (conn, error)
}

// lookupEngine readies the drivers engine called name.
func lookupEngine(name string, opts drivers.Options) (engine, error) {
	e, err := drivers.Lookup(name, opts)
	if err != nil {
		return engine{}, err
	}
	return engine{name: name, open: func(path string) (conn, error) {
		c, err := e.Open(path)
		if err != nil {
			return nil, err
		}
		return driverConn{c}, nil
	}}, nil
}

// driverConn is a *drivers.Conn as a conn.
type driverConn struct{ *drivers.Conn }

var _ conn = driverConn{}

// Prepare returns the *drivers.Stmt as a statement (and never a typed nil).
func (c driverConn) Prepare(sql string) (statement, error) {
	s, err := c.Conn.Prepare(sql)
	if err != nil {
		return nil, err
	}
	return s, nil
}
