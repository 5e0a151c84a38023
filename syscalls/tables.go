package syscalls

// The method tables of both platforms live here, not in build-tagged files, so
// that darwin's facts are tested on Linux too. Each platform file picks its
// table and adds its open flags.

// On Linux, every durable method ends in a cache flush when the device has a
// volatile write cache (ext4, xfs and btrfs issue one on fsync and fdatasync);
// sync_file_range writes the range back but neither flushes the device cache
// nor writes metadata, so it promises only a hand-off.
var linuxMethods = [numMethods]methodInfo{
	None:          {available: true, syscall: "pwrite(2) only", promise: PromiseNone},
	Fsync:         {available: true, syscall: "fsync(2)", promise: PromiseStable},
	Fdatasync:     {available: true, syscall: "fdatasync(2)", promise: PromiseStable},
	Dsync:         {available: true, syscall: "pwrite(2) on an O_DSYNC descriptor", promise: PromiseStable},
	Osync:         {available: true, syscall: "pwrite(2) on an O_SYNC descriptor", promise: PromiseStable},
	SyncFileRange: {available: true, syscall: "sync_file_range(2) WAIT_BEFORE|WRITE|WAIT_AFTER", promise: PromiseHandedOff},
	Barrier:       {absent: "macOS-only (fcntl F_BARRIERFSYNC)"},
	Full:          {absent: "macOS-only (fcntl F_FULLFSYNC)"},
	GoStd:         {available: true, syscall: "os.File.Sync = fsync(2)", promise: PromiseStable},
}

// On darwin, fsync(2) only hands data to the drive, which "may not physically
// write the data … for quite some time" (fsync(2)). F_BARRIERFSYNC adds a
// barrier: what was synced before it reaches storage before anything after it,
// without waiting. F_FULLFSYNC also asks the drive to flush its cache.
// fdatasync exists in libc but not in the headers or x/sys; it is called
// through syscall(2) and promises what fsync does.
var darwinMethods = [numMethods]methodInfo{
	None:          {available: true, syscall: "pwrite(2) only", promise: PromiseNone},
	Fsync:         {available: true, syscall: "fsync(2)", promise: PromiseHandedOff},
	Fdatasync:     {available: true, syscall: "fdatasync (syscall 187)", promise: PromiseHandedOff},
	Dsync:         {available: true, syscall: "pwrite(2) on an O_DSYNC descriptor", promise: PromiseHandedOff},
	Osync:         {available: true, syscall: "pwrite(2) on an O_SYNC descriptor", promise: PromiseHandedOff},
	SyncFileRange: {absent: "Linux-only (sync_file_range(2))"},
	Barrier:       {available: true, syscall: "fcntl(F_BARRIERFSYNC)", promise: PromiseOrdered},
	Full:          {available: true, syscall: "fcntl(F_FULLFSYNC)", promise: PromiseStable},
	GoStd:         {available: true, syscall: "os.File.Sync = fcntl(F_FULLFSYNC), fsync if unsupported", promise: PromiseStable},
}

// withOpenFlags returns table with the O_DSYNC and O_SYNC flags of this OS set
// on the Dsync and Osync methods.
func withOpenFlags(table [numMethods]methodInfo, dsync, osync int) [numMethods]methodInfo {
	table[Dsync].openFlag = dsync
	table[Osync].openFlag = osync
	return table
}
