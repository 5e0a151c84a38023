package trace

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestFcntlLinuxTable checks the plain-data table against x/sys.
func TestFcntlLinuxTable(t *testing.T) {
	for cmd, name := range map[int]string{
		unix.F_DUPFD: "F_DUPFD", unix.F_GETFD: "F_GETFD", unix.F_SETFD: "F_SETFD",
		unix.F_GETFL: "F_GETFL", unix.F_SETFL: "F_SETFL", unix.F_GETLK: "F_GETLK",
		unix.F_SETLK: "F_SETLK", unix.F_SETLKW: "F_SETLKW", unix.F_SETOWN: "F_SETOWN",
		unix.F_GETOWN: "F_GETOWN", unix.F_SETSIG: "F_SETSIG", unix.F_GETSIG: "F_GETSIG",
		unix.F_SETOWN_EX: "F_SETOWN_EX", unix.F_GETOWN_EX: "F_GETOWN_EX",
		unix.F_OFD_GETLK: "F_OFD_GETLK", unix.F_OFD_SETLK: "F_OFD_SETLK", unix.F_OFD_SETLKW: "F_OFD_SETLKW",
		unix.F_SETLEASE: "F_SETLEASE", unix.F_GETLEASE: "F_GETLEASE", unix.F_NOTIFY: "F_NOTIFY",
		unix.F_DUPFD_QUERY: "F_DUPFD_QUERY", unix.F_CREATED_QUERY: "F_CREATED_QUERY",
		unix.F_DUPFD_CLOEXEC: "F_DUPFD_CLOEXEC", unix.F_SETPIPE_SZ: "F_SETPIPE_SZ",
		unix.F_GETPIPE_SZ: "F_GETPIPE_SZ", unix.F_ADD_SEALS: "F_ADD_SEALS", unix.F_GET_SEALS: "F_GET_SEALS",
		unix.F_GET_RW_HINT: "F_GET_RW_HINT", unix.F_SET_RW_HINT: "F_SET_RW_HINT",
		unix.F_GET_FILE_RW_HINT: "F_GET_FILE_RW_HINT", unix.F_SET_FILE_RW_HINT: "F_SET_FILE_RW_HINT",
		unix.F_GETDELEG: "F_GETDELEG", unix.F_SETDELEG: "F_SETDELEG",
	} {
		if got := FcntlCommand("linux", cmd); got != name {
			t.Errorf("FcntlCommand(linux, %d) = %s, want %s", cmd, got, name)
		}
	}
	if len(fcntlLinux) != 33 {
		t.Errorf("the table has %d commands, the check above 33: check the new ones too", len(fcntlLinux))
	}
}
