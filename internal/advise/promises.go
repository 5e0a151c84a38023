package advise

// The promises: what a SQLite configuration keeps through an application
// crash, an OS crash or a power loss. This file is the one place they come
// from; sqlitebench's risk columns and every advice read it.
//
// Invariants:
//   - A configuration's verdict for a failure is the worst verdict of every
//     row that matches it; a configuration no row speaks for is Unknown,
//     which never counts as keeping a promise.
//   - Rows without OS, Engines or FullFsync are SQLite's documented
//     behaviour, which assumes that a sync puts data on stable storage;
//     the rows that name an OS say where it does not.
//   - Every journal mode × synchronous level has a documented row for each
//     failure (TestEveryCaseHasADocumentedRow).
//   - Measured crash verdicts (durabench crash results) are added as rows
//     of their own, with the run they came from as their source; they can
//     only make a verdict worse, never better, because a simulation that
//     found no loss in N states proves less than documentation that says
//     one is possible.

import (
	"fmt"
	"slices"
	"strings"
)

// Failure is what a promise is about.
type Failure int

// The failures, mildest first.
const (
	AppCrash  Failure = iota + 1 // the process dies; the OS keeps its page cache
	OSCrash                      // the kernel dies; the page cache is lost, the drive keeps power
	PowerLoss                    // the machine loses power; the drive's volatile cache is lost too
)

// Failures lists every failure, mildest first.
var Failures = []Failure{AppCrash, OSCrash, PowerLoss}

// String returns the failure's flag value: app-crash, os-crash, power-loss.
func (f Failure) String() string {
	switch f {
	case AppCrash:
		return "app-crash"
	case OSCrash:
		return "os-crash"
	case PowerLoss:
		return "power-loss"
	}
	return fmt.Sprintf("failure(%d)", int(f))
}

// Phrase names the failure in a sentence: "a power loss".
func (f Failure) Phrase() string {
	switch f {
	case AppCrash:
		return "an application crash"
	case OSCrash:
		return "an OS crash"
	case PowerLoss:
		return "a power loss"
	}
	return f.String()
}

// ParseFailure parses app-crash, os-crash or power-loss.
func ParseFailure(s string) (Failure, error) {
	for _, f := range Failures {
		if strings.EqualFold(strings.TrimSpace(s), f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("advise: durability %q: use app-crash, os-crash or power-loss", s)
}

// Verdict is what a configuration keeps through a failure, best first.
type Verdict int

// The verdicts.
const (
	Keeps      Verdict = iota // every acknowledged commit, in a sound database
	LosesLast                 // the database is sound, the last acknowledged commits may be gone
	MayCorrupt                // the database may be damaged
	Unknown                   // nothing known: treated as not keeping the promise
)

// String says the verdict in a few words.
func (v Verdict) String() string {
	switch v {
	case Keeps:
		return "keeps every commit"
	case LosesLast:
		return "may lose the last commits"
	case MayCorrupt:
		return "may corrupt"
	}
	return "unknown"
}

// Config is a SQLite configuration as a promise depends on it.
type Config struct {
	Engine      string // modernc, mattn, system
	JournalMode string // delete, truncate, persist, wal, memory, off
	Synchronous string // off, normal, full, extra
	FullFsync   string // 0 or 1
	OS          string // runtime.GOOS of the machine it runs on
}

// Row is one promise: for the configurations it matches (an empty field
// matches anything), what they keep through its failures, in words, and
// where that comes from.
type Row struct {
	Journals    []string
	Synchronous []string
	OS          string
	Engines     []string
	FullFsync   string
	Failures    []Failure
	Verdict     Verdict
	// Risk says in a few words what is at stake ("last commits may roll
	// back; no corruption").
	Risk string
	// Source is where the row comes from: a documentation URL with its
	// section, or a measured run.
	Source string
	// Why quotes or explains the source, briefly.
	Why string
}

// matches reports whether r speaks for c under f.
func (r Row) matches(c Config, f Failure) bool {
	in := func(list []string, v string) bool { return len(list) == 0 || slices.Contains(list, v) }
	return in(r.Journals, c.JournalMode) && in(r.Synchronous, c.Synchronous) && in(r.Engines, c.Engine) &&
		(r.OS == "" || r.OS == c.OS) && (r.FullFsync == "" || r.FullFsync == c.FullFsync) &&
		slices.Contains(r.Failures, f)
}

// documented reports whether r is SQLite's documented behaviour, true on
// any OS whose syncs reach stable storage.
func (r Row) documented() bool { return r.OS == "" && len(r.Engines) == 0 && r.FullFsync == "" }

var (
	rollback   = []string{"delete", "truncate", "persist"}
	noJournal  = []string{"memory", "off"}
	allFail    = []Failure{AppCrash, OSCrash, PowerLoss}
	osOrPower  = []Failure{OSCrash, PowerLoss}
	publicEngs = []string{"modernc", "mattn"}
)

// The sources.
const (
	docSynchronous = "https://www.sqlite.org/pragma.html#pragma_synchronous"
	docJournalMode = "https://www.sqlite.org/pragma.html#pragma_journal_mode"
	docWAL         = "https://www.sqlite.org/wal.html (section 1, Overview: \"WAL mode is always consistent with synchronous=NORMAL\")"
	docAtomic      = "https://www.sqlite.org/atomiccommit.html (section 2, Hardware Assumptions; section 4, Rollback)"
	docFullFsync   = "https://www.sqlite.org/pragma.html#pragma_fullfsync"
	appleFsync     = "Apple's fsync(2) man page (macOS): the drive \"may not physically write the data … for quite some time and it may be written in an out-of-order sequence\""
	appleBarrier   = "measured on macOS with an interposer counting calls (the macOS backlog article, docs/design/method.md): Apple's /usr/lib/libsqlite3.dylib issues fcntl(F_BARRIERFSYNC) where the public SQLite issues F_FULLFSYNC; F_BARRIERFSYNC orders writes but does not wait for them to reach storage (fcntl(2))"
	osUnixFull     = "SQLite's os_unix.c, full_fsync(): fcntl(F_FULLFSYNC) when fullfsync=1 and F_FULLFSYNC exists (macOS)"
)

// Promises is the table. Documented rows first, then the rows of the
// platforms whose syncs do not reach stable storage as SQLite assumes.
var Promises = []Row{
	{Journals: noJournal, Failures: []Failure{AppCrash}, Verdict: MayCorrupt, Risk: "may corrupt if mid-transaction",
		Source: docJournalMode, Why: "\"If the application crashes in the middle of a transaction when the OFF or MEMORY journaling mode is set, then the database file will very likely go corrupt.\""},
	{Journals: noJournal, Failures: osOrPower, Verdict: MayCorrupt, Risk: "may corrupt",
		Source: docJournalMode, Why: "no journal on disk to roll back a half-written transaction"},
	{Journals: append(slices.Clone(rollback), "wal"), Failures: []Failure{AppCrash}, Verdict: Keeps, Risk: "safe",
		Source: docAtomic, Why: "a commit is complete once its writes reach the OS; the journal or WAL on disk rolls back or replays the rest"},
	{Synchronous: []string{"off"}, Journals: append(slices.Clone(rollback), "wal"), Failures: osOrPower, Verdict: MayCorrupt, Risk: "may corrupt",
		Source: docSynchronous, Why: "\"the database might become corrupted if the operating system crashes or the computer loses power\""},
	{Journals: []string{"wal"}, Synchronous: []string{"normal"}, Failures: osOrPower, Verdict: LosesLast, Risk: "last commits may roll back; no corruption",
		Source: docWAL, Why: "\"WAL mode is always consistent with synchronous=NORMAL, but WAL mode does lose durability\": commits since the last WAL sync (a checkpoint) may roll back"},
	{Journals: []string{"wal"}, Synchronous: []string{"full", "extra"}, Failures: osOrPower, Verdict: Keeps, Risk: "durable",
		Source: docSynchronous, Why: "FULL syncs the WAL at every commit"},
	{Journals: rollback, Synchronous: []string{"normal"}, Failures: osOrPower, Verdict: MayCorrupt, Risk: "last commit may roll back; very small chance of corruption",
		Source: docSynchronous, Why: "\"a very small (though non-zero) chance that a power failure at just the wrong time could corrupt the database in journal_mode=DELETE on an older filesystem\""},
	{Journals: []string{"delete"}, Synchronous: []string{"full"}, Failures: osOrPower, Verdict: LosesLast, Risk: "last commit may roll back (journal unlink not synced); no corruption",
		Source: docSynchronous, Why: "deleting the journal commits, and only EXTRA syncs its directory afterwards: \"EXTRA provides additional durability if the commit is followed closely by a power loss\""},
	{Journals: []string{"truncate", "persist"}, Synchronous: []string{"full"}, Failures: osOrPower, Verdict: Keeps, Risk: "durable",
		Source: docSynchronous, Why: "FULL syncs the journal before the database and again when it truncates or zeroes the journal's header to commit"},
	{Journals: rollback, Synchronous: []string{"extra"}, Failures: osOrPower, Verdict: Keeps, Risk: "durable",
		Source: docSynchronous, Why: "EXTRA also syncs the journal's directory after the journal is deleted"},

	// macOS: fsync(2) hands data to the drive, which survives an OS crash
	// (the drive keeps power) but not a power loss.
	{OS: "darwin", FullFsync: "0", Failures: []Failure{PowerLoss}, Verdict: MayCorrupt, Risk: "fsync does not reach stable storage: commits may be lost and, as the drive may reorder writes, the file corrupted",
		Source: appleFsync, Why: "with fullfsync=0 SQLite calls fsync(2) on macOS; only fcntl(F_FULLFSYNC) asks the drive to flush its cache (" + docFullFsync + ")"},
	{OS: "darwin", FullFsync: "1", Engines: []string{"system"}, Failures: []Failure{PowerLoss}, Verdict: LosesLast, Risk: "Apple's build gives barriers, not flushes: ordered, so no corruption expected, but the last commits may be lost",
		Source: appleBarrier, Why: "a barrier keeps SQLite's writes in order, which keeps the file sound; it does not wait for the drive to store them"},
	{OS: "darwin", FullFsync: "1", Engines: publicEngs, Failures: allFail, Verdict: Keeps, Risk: "F_FULLFSYNC flushes the drive's cache",
		Source: osUnixFull, Why: "the public SQLite build that modernc and mattn carry asks the drive to flush"},
}

// Assessment is what a configuration keeps through one failure: the
// worst verdict of the rows that match it, and those rows.
type Assessment struct {
	Failure Failure
	Verdict Verdict
	// Rows are the matching rows with the worst verdict, most specific
	// last; Rows[len(Rows)-1].Risk says it in words.
	Rows []Row
}

// Risk says the assessment in words: the deciding row's risk, or
// "unknown" when no row speaks for the configuration.
func (a Assessment) Risk() string {
	if len(a.Rows) == 0 {
		return "unknown: no documented or measured promise"
	}
	return a.Rows[len(a.Rows)-1].Risk
}

// Keeps reports whether the configuration keeps every acknowledged commit.
func (a Assessment) Keeps() bool { return a.Verdict == Keeps }

// Assess evaluates c against rows for failure f.
func Assess(rows []Row, c Config, f Failure) Assessment {
	a := Assessment{Failure: f, Verdict: Unknown}
	for _, r := range rows {
		if !r.matches(c, f) {
			continue
		}
		switch {
		case a.Verdict == Unknown || r.Verdict > a.Verdict:
			a.Verdict, a.Rows = r.Verdict, []Row{r}
		case r.Verdict == a.Verdict:
			a.Rows = append(a.Rows, r)
		}
	}
	return a
}

// Documented is what SQLite's documentation promises for journal mode j
// at synchronous level s through failure f, on an OS whose syncs reach
// stable storage.
func Documented(j, s string, f Failure) Assessment {
	var doc []Row
	for _, r := range Promises {
		if r.documented() {
			doc = append(doc, r)
		}
	}
	return Assess(doc, Config{JournalMode: j, Synchronous: s}, f)
}
