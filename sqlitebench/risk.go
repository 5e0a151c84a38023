package sqlitebench

// What a journal mode and synchronous level risk when something fails
// right after a commit, from SQLite's documentation:
// https://www.sqlite.org/pragma.html#pragma_synchronous,
// https://www.sqlite.org/pragma.html#pragma_journal_mode,
// https://www.sqlite.org/wal.html and https://www.sqlite.org/atomiccommit.html.
// It assumes what SQLite assumes: that a sync puts data on stable storage.
// Where the OS or the machine does not (macOS fsync without fullfsync, a VM
// whose host does not flush), "durable" is only as good as that sync.

// Risk is what a commit may lose or damage if the application crashes, or
// if the OS crashes or the power fails.
type Risk struct {
	AppCrash  string
	PowerLoss string // an OS crash or a power loss
}

// RiskOf returns the risk of journal mode j at synchronous level s.
func RiskOf(j, s string) Risk {
	switch j {
	case "off", "memory":
		// "If the application crashes in the middle of a transaction when
		// the OFF [MEMORY] journaling mode is set, then the database file
		// will very likely go corrupt."
		return Risk{"may corrupt if mid-transaction", "may corrupt"}
	case "wal":
		switch s {
		case "off":
			return Risk{"safe", "may corrupt"}
		case "normal":
			// "WAL mode is always consistent with synchronous=NORMAL, but
			// WAL mode does lose durability."
			return Risk{"safe", "last commits may roll back; no corruption"}
		}
		return Risk{"safe", "durable"}
	}
	switch s {
	case "off":
		// "the database might become corrupted if the operating system
		// crashes or the computer loses power"
		return Risk{"safe", "may corrupt"}
	case "normal":
		// "a very small (though non-zero) chance that a power failure at
		// just the wrong time could corrupt the database in
		// journal_mode=DELETE on an older filesystem"
		return Risk{"safe", "last commit may roll back; very small chance of corruption"}
	case "full":
		if j == "delete" {
			// Deleting the journal commits, and only EXTRA syncs the
			// directory after it: "EXTRA provides additional durability
			// if the commit is followed closely by a power loss."
			return Risk{"safe", "last commit may roll back (journal unlink not synced); no corruption"}
		}
	}
	return Risk{"safe", "durable"}
}
