package trace

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Class names the role a file plays for a SQLite database (or for any
// program that keeps a log beside its data): it is what per-file counts are
// grouped by.
type Class string

// The classes a file can be put in. ClassifyPath assigns them by name; a
// caller that knows the database's path can use SQLiteClassifier instead.
const (
	ClassDB        Class = "db"        // the main database file
	ClassJournal   Class = "journal"   // a rollback journal, "<db>-journal"
	ClassWAL       Class = "wal"       // a write-ahead log, "<db>-wal"
	ClassSHM       Class = "shm"       // the WAL index, "<db>-shm"
	ClassDirectory Class = "directory" // a directory (SQLite syncs the journal's directory)
	ClassOther     Class = "other"     // anything else: other files, pipes, terminals, sockets
)

// Classifier puts a file, named by the path its descriptor resolved to, in a
// Class. isDir reports whether the descriptor refers to a directory.
type Classifier func(path string, isDir bool) Class

// ClassifyPath is the default Classifier. It goes by name: directories are
// ClassDirectory; names ending in -journal, -wal and -shm are the journal,
// WAL and WAL index; names ending in .db, .sqlite, .sqlite3 or .db3 are
// databases; everything else is ClassOther.
func ClassifyPath(path string, isDir bool) Class {
	switch {
	case isDir:
		return ClassDirectory
	case strings.HasSuffix(path, "-journal"):
		return ClassJournal
	case strings.HasSuffix(path, "-wal"):
		return ClassWAL
	case strings.HasSuffix(path, "-shm"):
		return ClassSHM
	}
	switch filepath.Ext(path) {
	case ".db", ".sqlite", ".sqlite3", ".db3":
		return ClassDB
	}
	return ClassOther
}

// SQLiteClassifier returns a Classifier for the database at dbPath: dbPath
// itself is ClassDB, dbPath+"-journal", "-wal" and "-shm" are its journal, WAL
// and WAL index, any directory is ClassDirectory and everything else
// ClassOther. dbPath should be absolute and free of symbolic links, as the
// kernel reports paths that way.
func SQLiteClassifier(dbPath string) Classifier {
	dbPath = filepath.Clean(dbPath)
	return func(path string, isDir bool) Class {
		switch path {
		case dbPath:
			return ClassDB
		case dbPath + "-journal":
			return ClassJournal
		case dbPath + "-wal":
			return ClassWAL
		case dbPath + "-shm":
			return ClassSHM
		}
		if isDir {
			return ClassDirectory
		}
		return ClassOther
	}
}

// Counts is what one traced run of a command did, as seen by one method
// (ptrace or the interposer). Syscall names are the kernel's (as strace
// prints them); fcntl is split by command, "fcntl(F_SETLK)", with unknown
// commands by number, "fcntl(1234)".
//
// Calls are counted when they are made, whether or not they succeed, so that
// a process killed inside a call still has that call counted. Write byte
// counts come from the calls' return values.
type Counts struct {
	// Method is "ptrace" or "interpose".
	Method string `json:"method"`
	// Command is the program and its arguments.
	Command []string `json:"command"`
	// Syscalls counts calls by name.
	Syscalls map[string]uint64 `json:"syscalls"`
	// ByFile counts the calls made on a descriptor by the class of its
	// file, then by name. Open flags that change durability are counted
	// here under the flag's name ("O_DSYNC", "O_SYNC", "O_DIRECT"), once per
	// successful open. Calls without a descriptor (sync, msync) and calls on
	// descriptors that could not be resolved are not in ByFile.
	ByFile map[Class]map[string]uint64 `json:"by_file"`
	// ByPath holds the same counts as ByFile, by the file's path.
	ByPath map[string]*FileCounts `json:"by_path"`
	// WriteBytes is the number of bytes the write calls reported written.
	WriteBytes uint64 `json:"write_bytes"`
	// WriteBytesByFile splits WriteBytes by file class.
	WriteBytesByFile map[Class]uint64 `json:"write_bytes_by_file"`
	// OpenFlags counts opens that asked for O_DSYNC, O_SYNC or O_DIRECT
	// (O_SYNC includes O_DSYNC's bit; an O_SYNC open counts only as O_SYNC).
	OpenFlags map[string]uint64 `json:"open_flags"`
	// Window reports that counting was asked to be limited to the windows
	// the program marks with MarkStart and MarkStop.
	Window bool `json:"window"`
	// Windowed reports that counting was limited to marked windows and the
	// program marked at least one start. With Window set and Windowed
	// false, nothing was counted.
	Windowed bool `json:"windowed"`
	// Acks is the number of acknowledgement marks (MarkAck) the program
	// wrote; they are not counted as writes.
	Acks uint64 `json:"acks,omitempty"`
	// Exit is how the command ended.
	Exit ExitStatus `json:"exit"`
	// Notes say what the counts cannot show (io_uring submissions, 32-bit
	// calls, a full interposer table).
	Notes []string `json:"notes,omitempty"`
}

// FileCounts is one file's share of Counts.
type FileCounts struct {
	// Class is the file's role, from the run's Classifier.
	Class Class `json:"class"`
	// Calls counts the calls on the file by name, as Counts.ByFile does.
	Calls map[string]uint64 `json:"calls"`
	// WriteBytes is the number of bytes written to the file.
	WriteBytes uint64 `json:"write_bytes"`
}

// ExitStatus is how a traced command ended.
type ExitStatus struct {
	// Code is the exit code, or -1 when the command was killed by a signal.
	Code int `json:"code"`
	// Signal names the signal that killed the command ("SIGKILL"), or is
	// empty.
	Signal string `json:"signal,omitempty"`
	// CoreDumped reports that the kernel wrote a core file.
	CoreDumped bool `json:"core_dumped,omitempty"`
}

// String describes the status as a shell user would: "exit status 0",
// "killed by SIGSEGV (core dumped)".
func (e ExitStatus) String() string {
	if e.Signal == "" {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	s := "killed by " + e.Signal
	if e.CoreDumped {
		s += " (core dumped)"
	}
	return s
}

// NewCounts returns empty Counts for method and command, with every map
// allocated.
func NewCounts(method string, command []string) *Counts {
	return &Counts{
		Method:           method,
		Command:          command,
		Syscalls:         map[string]uint64{},
		ByFile:           map[Class]map[string]uint64{},
		ByPath:           map[string]*FileCounts{},
		WriteBytesByFile: map[Class]uint64{},
		OpenFlags:        map[string]uint64{},
	}
}

// Total returns the calls of syscall name, summed over its variants: for
// "fcntl" it adds up every "fcntl(...)" entry, which is what strace -c
// reports as fcntl.
func (c *Counts) Total(name string) uint64 {
	var n uint64
	for k, v := range c.Syscalls {
		if k == name || strings.HasPrefix(k, name+"(") {
			n += v
		}
	}
	return n
}

// AddFileCall counts n calls of name on the file at path, in class.
func (c *Counts) AddFileCall(path string, class Class, name string, n uint64) {
	byName := c.ByFile[class]
	if byName == nil {
		byName = map[string]uint64{}
		c.ByFile[class] = byName
	}
	byName[name] += n
	c.file(path, class).Calls[name] += n
}

// AddFileBytes counts n written bytes on the file at path, in class.
func (c *Counts) AddFileBytes(path string, class Class, n uint64) {
	c.WriteBytesByFile[class] += n
	c.file(path, class).WriteBytes += n
}

func (c *Counts) file(path string, class Class) *FileCounts {
	f := c.ByPath[path]
	if f == nil {
		f = &FileCounts{Class: class, Calls: map[string]uint64{}}
		c.ByPath[path] = f
	}
	return f
}
