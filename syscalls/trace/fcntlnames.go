package trace

import "strconv"

// fcntl commands are numbered differently on each OS, and the interposer's
// counts are named on the OS that ran the command, so both tables live here
// as plain data (x/sys defines F_FULLFSYNC only in its darwin files). The
// tests check each table against x/sys's constants on its own OS.

// fcntlLinux holds Linux's fcntl commands, the same on amd64 and arm64 (on
// 64-bit Linux F_GETLK64, F_SETLK64 and F_SETLKW64 equal F_GETLK, F_SETLK and
// F_SETLKW).
var fcntlLinux = map[int]string{
	0: "F_DUPFD", 1: "F_GETFD", 2: "F_SETFD", 3: "F_GETFL", 4: "F_SETFL",
	5: "F_GETLK", 6: "F_SETLK", 7: "F_SETLKW", 8: "F_SETOWN", 9: "F_GETOWN",
	10: "F_SETSIG", 11: "F_GETSIG", 15: "F_SETOWN_EX", 16: "F_GETOWN_EX",
	36: "F_OFD_GETLK", 37: "F_OFD_SETLK", 38: "F_OFD_SETLKW",
	1024: "F_SETLEASE", 1025: "F_GETLEASE", 1026: "F_NOTIFY",
	1027: "F_DUPFD_QUERY", 1028: "F_CREATED_QUERY", 1030: "F_DUPFD_CLOEXEC",
	1031: "F_SETPIPE_SZ", 1032: "F_GETPIPE_SZ", 1033: "F_ADD_SEALS", 1034: "F_GET_SEALS",
	1035: "F_GET_RW_HINT", 1036: "F_SET_RW_HINT", 1037: "F_GET_FILE_RW_HINT", 1038: "F_SET_FILE_RW_HINT",
	1039: "F_GETDELEG", 1040: "F_SETDELEG",
}

// fcntlDarwin holds macOS's fcntl commands, including the two sync commands:
// F_FULLFSYNC (flush the drive's cache) and F_BARRIERFSYNC (an fsync with an
// I/O barrier, what Apple's SQLite uses for fullfsync=1).
var fcntlDarwin = map[int]string{
	0: "F_DUPFD", 1: "F_GETFD", 2: "F_SETFD", 3: "F_GETFL", 4: "F_SETFL",
	5: "F_GETOWN", 6: "F_SETOWN", 7: "F_GETLK", 8: "F_SETLK", 9: "F_SETLKW",
	10: "F_SETLKWTIMEOUT", 40: "F_FLUSH_DATA", 41: "F_CHKCLEAN", 42: "F_PREALLOCATE",
	43: "F_SETSIZE", 44: "F_RDADVISE", 45: "F_RDAHEAD", 48: "F_NOCACHE",
	49: "F_LOG2PHYS", 50: "F_GETPATH", 51: "F_FULLFSYNC", 52: "F_PATHPKG_CHECK",
	53: "F_FREEZE_FS", 54: "F_THAW_FS", 55: "F_GLOBAL_NOCACHE", 59: "F_ADDSIGS",
	61: "F_ADDFILESIGS", 62: "F_NODIRECT", 63: "F_GETPROTECTIONCLASS",
	64: "F_SETPROTECTIONCLASS", 65: "F_LOG2PHYS_EXT", 66: "F_GETLKPID",
	67: "F_DUPFD_CLOEXEC", 70: "F_SETBACKINGSTORE", 71: "F_GETPATH_MTMINFO",
	72: "F_GETCODEDIR", 73: "F_SETNOSIGPIPE", 74: "F_GETNOSIGPIPE",
	75: "F_TRANSCODEKEY", 76: "F_SINGLE_WRITER", 77: "F_GETPROTECTIONLEVEL",
	78: "F_FINDSIGS", 83: "F_ADDFILESIGS_FOR_DYLD_SIM", 85: "F_BARRIERFSYNC",
	97: "F_ADDFILESIGS_RETURN", 98: "F_CHECK_LV", 99: "F_PUNCHHOLE",
	100: "F_TRIM_ACTIVE_FILE", 101: "F_SPECULATIVE_READ", 102: "F_GETPATH_NOFIRMLINK",
	103: "F_ADDFILESIGS_INFO", 104: "F_ADDFILESUPPL", 105: "F_GETSIGSINFO",
}

// FcntlCommand names fcntl command cmd as goos ("linux", "darwin") defines
// it, "F_SETLK", or gives its number when the command is unknown.
func FcntlCommand(goos string, cmd int) string {
	var names map[int]string
	switch goos {
	case "linux", "android":
		names = fcntlLinux
	case "darwin", "ios":
		names = fcntlDarwin
	}
	if name, ok := names[cmd]; ok {
		return name
	}
	return strconv.Itoa(cmd)
}

// FcntlCall is the name under which Counts keeps fcntl calls with command
// cmd on goos: "fcntl(F_FULLFSYNC)", or "fcntl(1234)" for an unknown command.
func FcntlCall(goos string, cmd int) string {
	return "fcntl(" + FcntlCommand(goos, cmd) + ")"
}
