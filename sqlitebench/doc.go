// Package sqlitebench times single-row SQLite commits across the durability
// pragmas (journal_mode × synchronous × fullfsync × checkpoint_fullfsync) for
// every SQLite engine in package drivers: durabench sqlite.
//
// What a run guarantees:
//   - Every case and every round gets a fresh database file, in the run's
//     directory, on one connection of its own; the pragmas are set on that
//     connection and the schema is created before the clock starts.
//   - The figures are reported under the settings the connection reports
//     (PRAGMA read back), never under the ones asked for: a case SQLite did
//     not run as asked carries a note saying so, and a mark in the tables.
//   - One sample is one whole commit (BEGIN; the inserts; COMMIT) through
//     reused prepared statements, timed with the monotonic clock while the
//     garbage collector is held off; the loop adds no allocation of its own.
//   - After each case the row count is checked against the commits made.
//   - What each engine gives a user who sets nothing (its defaults and the
//     compile options that bear on syncing) is part of the result.
package sqlitebench
