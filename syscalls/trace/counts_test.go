package trace

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestClassifyPath(t *testing.T) {
	for _, tc := range []struct {
		path  string
		isDir bool
		want  Class
	}{
		{"/tmp/x.db", false, ClassDB},
		{"/tmp/x.sqlite3", false, ClassDB},
		{"/tmp/x.db-journal", false, ClassJournal},
		{"/tmp/x.db-wal", false, ClassWAL},
		{"/tmp/x.db-shm", false, ClassSHM},
		{"/tmp", true, ClassDirectory},
		{"/tmp/dir.db", true, ClassDirectory},
		{"/tmp/log", false, ClassOther},
		{"pipe:[1234]", false, ClassOther},
	} {
		if got := ClassifyPath(tc.path, tc.isDir); got != tc.want {
			t.Errorf("ClassifyPath(%q, %v) = %s, want %s", tc.path, tc.isDir, got, tc.want)
		}
	}
}

func TestSQLiteClassifier(t *testing.T) {
	classify := SQLiteClassifier("/data/app/../app/main")
	for _, tc := range []struct {
		path  string
		isDir bool
		want  Class
	}{
		{"/data/app/main", false, ClassDB},
		{"/data/app/main-journal", false, ClassJournal},
		{"/data/app/main-wal", false, ClassWAL},
		{"/data/app/main-shm", false, ClassSHM},
		{"/data/app", true, ClassDirectory},
		{"/data/app/other.db", false, ClassOther},
		{"/data/app/other.db-wal", false, ClassOther},
	} {
		if got := classify(tc.path, tc.isDir); got != tc.want {
			t.Errorf("classify(%q, %v) = %s, want %s", tc.path, tc.isDir, got, tc.want)
		}
	}
}

func TestFcntlCall(t *testing.T) {
	for _, tc := range []struct {
		goos string
		cmd  int
		want string
	}{
		{"linux", 6, "fcntl(F_SETLK)"},
		{"linux", 1030, "fcntl(F_DUPFD_CLOEXEC)"},
		{"linux", 51, "fcntl(51)"},
		{"darwin", 51, "fcntl(F_FULLFSYNC)"},
		{"darwin", 85, "fcntl(F_BARRIERFSYNC)"},
		{"darwin", 8, "fcntl(F_SETLK)"},
		{"plan9", 6, "fcntl(6)"},
	} {
		if got := FcntlCall(tc.goos, tc.cmd); got != tc.want {
			t.Errorf("FcntlCall(%s, %d) = %s, want %s", tc.goos, tc.cmd, got, tc.want)
		}
	}
}

func TestTotal(t *testing.T) {
	c := NewCounts("ptrace", nil)
	c.Syscalls = map[string]uint64{"fcntl(F_SETLK)": 5, "fcntl(F_GETLK)": 2, "fcntl": 1, "fsync": 3, "fcntlx": 100}
	if got := c.Total("fcntl"); got != 8 {
		t.Errorf(`Total("fcntl") = %d, want 8`, got)
	}
	if got := c.Total("fsync"); got != 3 {
		t.Errorf(`Total("fsync") = %d, want 3`, got)
	}
}

// sample returns Counts like those of a DELETE-mode SQLite commit.
func sample() *Counts {
	c := NewCounts("ptrace", []string{"sqlite3", "/tmp/x.db"})
	c.Syscalls = map[string]uint64{"fdatasync": 4, "fcntl(F_SETLK)": 9, "pwrite64": 9, "openat": 3}
	c.WriteBytes = 16384
	c.OpenFlags["O_DSYNC"] = 1
	c.AddFileCall("/tmp/x.db-journal", ClassJournal, "fdatasync", 2)
	c.AddFileCall("/tmp/x.db-journal", ClassJournal, "pwrite64", 8)
	c.AddFileBytes("/tmp/x.db-journal", ClassJournal, 12288)
	c.AddFileCall("/tmp", ClassDirectory, "fdatasync", 1)
	c.AddFileCall("/tmp/x.db", ClassDB, "fdatasync", 1)
	c.AddFileCall("/tmp/x.db", ClassDB, "fcntl(F_SETLK)", 9)
	c.AddFileCall("/tmp/x.db", ClassDB, "pwrite64", 1)
	c.AddFileBytes("/tmp/x.db", ClassDB, 4096)
	c.AddFileCall("/tmp/log", ClassOther, "O_DSYNC", 1)
	c.Exit = ExitStatus{Code: -1, Signal: "SIGSEGV", CoreDumped: true}
	c.Notes = []string{"io_uring in use"}
	return c
}

func TestCountsJSONRoundTrip(t *testing.T) {
	c := sample()
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Counts
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, &back) {
		t.Errorf("round trip changed the counts:\n%s\n%+v", data, back)
	}
}

func TestExitStatusString(t *testing.T) {
	for _, tc := range []struct {
		e    ExitStatus
		want string
	}{
		{ExitStatus{}, "exit status 0"},
		{ExitStatus{Code: 3}, "exit status 3"},
		{ExitStatus{Code: -1, Signal: "SIGKILL"}, "killed by SIGKILL"},
		{ExitStatus{Code: -1, Signal: "SIGSEGV", CoreDumped: true}, "killed by SIGSEGV (core dumped)"},
	} {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.e, got, tc.want)
		}
	}
}
