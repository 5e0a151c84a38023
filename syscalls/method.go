// Package syscalls is durabench's boundary with the operating system: the ways to
// make a write durable, open flags, preallocation, cache advice, aligned memory
// and extent queries. Platform code lives in files named by suffix (_linux.go,
// _darwin.go, _other.go); this package imports nothing of durabench's own.
//
// Every sync call is named for what it is. os.File.Sync is F_FULLFSYNC on darwin
// and fsync(2) on Linux, so it has a method of its own (GoStd); Fsync always
// means fsync(2).
package syscalls

import (
	"errors"
	"fmt"
	"strings"
)

// Method names one way to make written data durable.
type Method uint8

// The methods, in the order tables print them. Not every OS has every method:
// Methods lists those this OS has.
const (
	None          Method = iota // write only; nothing is synced
	Fsync                       // fsync(2)
	Fdatasync                   // fdatasync(2)
	Dsync                       // writes on a descriptor opened with O_DSYNC
	Osync                       // writes on a descriptor opened with O_SYNC
	SyncFileRange               // Linux sync_file_range(WAIT_BEFORE|WRITE|WAIT_AFTER): starts and waits for writeback, no flush
	Barrier                     // darwin fcntl(F_BARRIERFSYNC)
	Full                        // darwin fcntl(F_FULLFSYNC)
	GoStd                       // os.File.Sync: F_FULLFSYNC on darwin, fsync on Linux
	numMethods
)

var methodNames = [numMethods]string{
	None:          "none",
	Fsync:         "fsync",
	Fdatasync:     "fdatasync",
	Dsync:         "dsync",
	Osync:         "osync",
	SyncFileRange: "sync_file_range",
	Barrier:       "barrier",
	Full:          "full",
	GoStd:         "gostd",
}

// ErrUnknownMethod is wrapped by ParseMethod for a name no OS knows.
var ErrUnknownMethod = errors.New("unknown sync method")

// ErrMethodNotOnOS is wrapped by ParseMethod for a method this OS does not have.
var ErrMethodNotOnOS = errors.New("sync method not available on this OS")

// String returns the method's flag name, as ParseMethod accepts it.
func (m Method) String() string {
	if m < numMethods {
		return methodNames[m]
	}
	return fmt.Sprintf("method(%d)", uint8(m))
}

// Available reports whether this OS has the method.
func (m Method) Available() bool { return here.has(m) }

// Syscall describes the call the method makes on this OS, e.g. "fdatasync(2)".
func (m Method) Syscall() string {
	if !m.Available() {
		return "not on " + here.os
	}
	return here.table[m].syscall
}

// Promise says what the method promises about written data on this OS.
func (m Method) Promise() Promise { return here.info(m).promise }

// OpenFlag returns the open(2) flag the method needs on the written file:
// O_DSYNC for Dsync, O_SYNC for Osync, 0 for the others.
func (m Method) OpenFlag() int { return here.info(m).openFlag }

// SyncsExplicitly reports whether the method makes a call of its own after the
// write; None, Dsync and Osync do not.
func (m Method) SyncsExplicitly() bool {
	switch m {
	case None, Dsync, Osync:
		return false
	}
	return m.Available()
}

// Methods returns the methods this OS has, in table order.
func Methods() []Method { return here.methods() }

// MethodNames returns the flag names of the methods this OS has, in table order.
func MethodNames() []string { return here.names() }

// ParseMethod returns the method named s. A name that is unknown, or that names
// a method this OS lacks, is an error listing the methods this OS has.
func ParseMethod(s string) (Method, error) { return here.parse(s) }

// methodSet is one OS's methods; here is this OS's.
type methodSet struct {
	os    string
	table [numMethods]methodInfo
}

var here = methodSet{os: osName, table: platform}

func (s methodSet) has(m Method) bool { return m < numMethods && s.table[m].available }

func (s methodSet) info(m Method) methodInfo {
	if !s.has(m) {
		return methodInfo{}
	}
	return s.table[m]
}

func (s methodSet) methods() []Method {
	var ms []Method
	for m := None; m < numMethods; m++ {
		if s.has(m) {
			ms = append(ms, m)
		}
	}
	return ms
}

func (s methodSet) names() []string {
	ms := s.methods()
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.String()
	}
	return names
}

func (s methodSet) parse(name string) (Method, error) {
	want := strings.ToLower(strings.TrimSpace(name))
	for m := None; m < numMethods; m++ {
		if methodNames[m] != want {
			continue
		}
		if !s.has(m) {
			reason := s.table[m].absent
			if reason == "" {
				reason = "not available on " + s.os
			}
			return 0, fmt.Errorf("%w: %q is %s; on %s use one of %s",
				ErrMethodNotOnOS, name, reason, s.os, strings.Join(s.names(), ", "))
		}
		return m, nil
	}
	return 0, fmt.Errorf("%w %q: use one of %s", ErrUnknownMethod, name, strings.Join(s.names(), ", "))
}

// Promise is what a sync method promises about the data written before it.
type Promise uint8

// The promises, weakest first.
const (
	PromiseNone      Promise = iota // nothing: the data may sit in the page cache
	PromiseHandedOff                // handed to the device, which may still hold it in a volatile cache
	PromiseOrdered                  // ordered: written before anything synced later, but not waited for
	PromiseStable                   // on stable storage, if the device honours its flush
)

// String describes the promise in words.
func (p Promise) String() string {
	switch p {
	case PromiseNone:
		return "none"
	case PromiseHandedOff:
		return "handed to the device"
	case PromiseOrdered:
		return "ordered"
	case PromiseStable:
		return "on stable storage"
	}
	return fmt.Sprintf("promise(%d)", uint8(p))
}

// methodInfo is one method's facts on one OS.
type methodInfo struct {
	available bool
	syscall   string
	promise   Promise
	openFlag  int
	absent    string // why the method is missing there, when it is
}
