package sqlitebench

import "github.com/durabench/durabench/internal/advise"

// What a journal mode and synchronous level risk when something fails
// right after a commit comes from one table, internal/advise/promises.go,
// whose rows cite SQLite's documentation. It assumes what SQLite assumes:
// that a sync puts data on stable storage. Where the OS or the machine
// does not (macOS fsync without fullfsync, a VM whose host does not
// flush), "durable" is only as good as that sync.

// Risk is what a commit may lose or damage if the application crashes, or
// if the OS crashes or the power fails.
type Risk struct {
	AppCrash  string
	PowerLoss string // an OS crash or a power loss
}

// RiskOf returns the risk of journal mode j at synchronous level s, as
// SQLite documents it (the promise table of package advise, where every
// row has its source).
func RiskOf(j, s string) Risk {
	return Risk{AppCrash: advise.Documented(j, s, advise.AppCrash).Risk(), PowerLoss: advise.Documented(j, s, advise.PowerLoss).Risk()}
}
