package crash

// The event log: what a recorded workload did to the files under its root
// directory, in the order the kernel saw it, with the data it wrote and the
// moments it acknowledged a commit. The recorder (on syscalls/trace) writes
// it; the explorer reads it and never looks at the workload again.
//
// Invariants:
//   - Events are in the order their system calls returned (one traced
//     process tree serialises them through the tracer).
//   - Paths are relative to the recorded root, slash-separated, cleaned and
//     never "..": anything outside the root is not recorded.
//   - Inode identifies a file across renames and unlinks: a write to a
//     descriptor whose name was unlinked still names its inode. Inodes are
//     the recorder's own numbers (1, 2, ...), not the kernel's, so a log is
//     the same on every machine.
//   - A Write's Data is the exact bytes the call wrote (its return value's
//     worth), and Off the file offset they went to.
//   - The root directory and every file and directory present at the start
//     have inode numbers too, given in Log.Inodes by path (the root is ".").
//   - On events that name an inode without changing a name (Write,
//     Truncate, Fallocate, Sync), Path is the inode's last known name, for
//     printing only: the inode, not the path, says what changed.

// Op is what an event did.
type Op uint8

// The operations. Name operations (Create, Mkdir, Rename, Unlink) change a
// directory; data operations (Write, Truncate, Fallocate) change an inode;
// Sync asks for durability; Ack is the workload's own word that a commit
// returned.
const (
	OpCreate    Op = iota + 1 // Path is a new regular file (Inode), created empty
	OpMkdir                   // Path is a new directory (Inode)
	OpWrite                   // Data written to Inode at Off; Durable if through O_DSYNC/O_SYNC
	OpTruncate                // Inode's size set to Size (ftruncate, or open with O_TRUNC)
	OpFallocate               // Inode's space reserved from Off for Size bytes; the size grows unless KeepSize
	OpRename                  // Path renamed to NewPath (replacing what NewPath named)
	OpUnlink                  // Path's name removed (rmdir too)
	OpSync                    // Inode synced with Method (a directory's inode for a directory sync)
	OpAck                     // the workload acknowledged commit number Ack
)

var opNames = [...]string{
	OpCreate: "create", OpMkdir: "mkdir", OpWrite: "write", OpTruncate: "truncate",
	OpFallocate: "fallocate", OpRename: "rename", OpUnlink: "unlink", OpSync: "sync", OpAck: "ack",
}

// String returns the operation's name as logs and outputs print it.
func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return "op?"
}

// SyncKind is the call behind an OpSync event. What each kind persists is
// the persistence model's business, not the recorder's.
type SyncKind uint8

// The sync calls the recorder tells apart.
const (
	SyncFsync     SyncKind = iota + 1 // fsync(2)
	SyncFdatasync                     // fdatasync(2)
	SyncFileRange                     // sync_file_range(2): starts write-back, persists nothing
	SyncBarrier                       // fcntl F_BARRIERFSYNC (darwin)
	SyncFull                          // fcntl F_FULLFSYNC (darwin)
	SyncFS                            // syncfs(2) or sync(2): every file
)

var syncNames = [...]string{
	SyncFsync: "fsync", SyncFdatasync: "fdatasync", SyncFileRange: "sync_file_range",
	SyncBarrier: "barrier", SyncFull: "full", SyncFS: "syncfs",
}

// String returns the kind's name.
func (k SyncKind) String() string {
	if int(k) < len(syncNames) && syncNames[k] != "" {
		return syncNames[k]
	}
	return "sync?"
}

// Event is one recorded operation. Which fields mean something depends on
// Op (see the constants); the others are zero.
type Event struct {
	Op       Op       `json:"op"`
	Path     string   `json:"path,omitempty"`
	NewPath  string   `json:"new_path,omitempty"`
	Inode    uint64   `json:"inode,omitempty"`
	Dir      bool     `json:"dir,omitempty"`     // OpSync, OpUnlink: the inode is a directory
	Off      int64    `json:"off,omitempty"`     // OpWrite, OpFallocate
	Size     int64    `json:"size,omitempty"`    // OpTruncate, OpFallocate
	Data     []byte   `json:"data,omitempty"`    // OpWrite
	Durable  bool     `json:"durable,omitempty"` // OpWrite through O_DSYNC or O_SYNC
	Direct   bool     `json:"direct,omitempty"`  // OpWrite through O_DIRECT: past the page cache, still not durable without a sync
	KeepSize bool     `json:"keep_size,omitempty"`
	Sync     SyncKind `json:"sync,omitempty"`
	Ack      uint64   `json:"ack,omitempty"` // OpAck
}

// Log is a recorded workload: its events, and the initial state of the root
// (the files that existed before recording began, which a power cut cannot
// take away).
type Log struct {
	Events  []Event           `json:"events"`
	Initial map[string][]byte `json:"initial,omitempty"` // path → contents of each regular file present at the start
	// Inodes numbers the root (".") and every file and directory present
	// at the start, by path; a path in Inodes but not in Initial is a
	// directory.
	Inodes map[string]uint64 `json:"inodes,omitempty"`
	// Notes say what the recorder saw but could not put in events (a
	// file mapped shared and writable, whose stores make no system call; a
	// call it does not model), once each.
	Notes []string `json:"notes,omitempty"`
}
