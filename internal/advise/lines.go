package advise

import (
	"fmt"
	"slices"
	"strings"
)

// SetLines returns the exact lines that set configuration c: the PRAGMA
// statements, then for each engine in engines (modernc, mattn, system)
// how to make every connection of a database/sql pool get them. ckpt is
// checkpoint_fullfsync when it is to be set, "" otherwise. fullfsync is
// set only where it changes a call (macOS) or where c asks for 1.
//
// Each driver applies its DSN parameters on every new connection:
// modernc runs each _pragma (sorted by name, busy_timeout first); mattn
// has keys of its own (_journal_mode, _sync) and no key for fullfsync, and
// unless _sync is given it runs PRAGMA synchronous=NORMAL on every new
// connection.
func SetLines(c Config, ckpt string, engines []string) []string {
	setFull := c.FullFsync == "1" || c.OS == "darwin"
	j, s := upper(c.JournalMode), upper(c.Synchronous)
	lines := []string{
		fmt.Sprintf("PRAGMA journal_mode=%s;   -- stays in the database file", j),
		fmt.Sprintf("PRAGMA synchronous=%s;   -- per connection: run it on every new one", s),
	}
	if setFull {
		lines = append(lines, fmt.Sprintf("PRAGMA fullfsync=%s;   -- per connection (macOS: F_FULLFSYNC)", c.FullFsync))
	}
	if ckpt != "" {
		lines = append(lines, fmt.Sprintf("PRAGMA checkpoint_fullfsync=%s;   -- per connection", ckpt))
	}
	pragmas := []string{"journal_mode(" + j + ")", "synchronous(" + s + ")"}
	if setFull {
		pragmas = append(pragmas, "fullfsync("+c.FullFsync+")")
	}
	if ckpt != "" {
		pragmas = append(pragmas, "checkpoint_fullfsync("+ckpt+")")
	}
	for _, e := range []string{"modernc", "mattn", "system"} {
		if len(engines) > 0 && !slices.Contains(engines, e) {
			continue
		}
		switch e {
		case "modernc":
			lines = append(lines, "modernc DSN: file:app.db?_pragma="+strings.Join(pragmas, "&_pragma="))
		case "mattn":
			lines = append(lines, fmt.Sprintf("mattn DSN:   file:app.db?_journal_mode=%s&_sync=%s   (_sync is a must: without it mattn sets NORMAL on every connection)", j, s))
			var hook []string
			if setFull {
				hook = append(hook, "PRAGMA fullfsync="+c.FullFsync)
			}
			if ckpt != "" {
				hook = append(hook, "PRAGMA checkpoint_fullfsync="+ckpt)
			}
			if len(hook) > 0 {
				lines = append(lines, fmt.Sprintf("mattn has no DSN key for %s: register a driver whose ConnectHook runs it on every connection, e.g. &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error { _, err := c.Exec(%q, nil); return err }}",
					strings.TrimPrefix(strings.Join(hook, ", "), "PRAGMA "), strings.Join(hook, "; ")))
			}
		case "system":
			lines = append(lines, "system (libsqlite3 through C or purego): run the PRAGMA lines above right after each sqlite3_open_v2")
		}
	}
	return lines
}
