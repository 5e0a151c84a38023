package sqlitebench

import "fmt"

// The schema every case's database gets, created before the clock starts:
// one table whose rows are an integer key (the rowid, so no separate index
// is written) and a blob. Schema creation lives here rather than in package
// fixtures so that fixtures stays free of SQLite engines; it runs on the
// case's own connection, after its pragmas are set, so the schema's commit
// also goes through the journal mode being measured (creating the WAL file,
// say) before the first timed commit.
const (
	createTable = "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)"
	insertRow   = "INSERT INTO t (id, payload) VALUES (?1, ?2)"
	countRows   = "SELECT count(*) FROM t"
)

// createSchema creates the table on c and prepares the statements of a
// commit.
func createSchema(c conn) (commitStmts, error) {
	if err := c.Exec(createTable); err != nil {
		return commitStmts{}, fmt.Errorf("create the schema: %w", err)
	}
	var s commitStmts
	for _, p := range []struct {
		sql string
		st  *statement
	}{
		{"BEGIN", &s.begin},
		{insertRow, &s.insert},
		{"COMMIT", &s.end},
	} {
		st, err := c.Prepare(p.sql)
		if err != nil {
			return commitStmts{}, fmt.Errorf("prepare %q: %w", p.sql, err)
		}
		*p.st = st
	}
	return s, nil
}
