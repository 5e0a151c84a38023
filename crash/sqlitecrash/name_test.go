package sqlitecrash

import (
	"strings"
	"testing"
)

func TestNameRoundTrip(t *testing.T) {
	for _, c := range []Config{
		{Engine: "modernc", JournalMode: "wal", Synchronous: "full", Fullfsync: "0"},
		{Engine: "system", JournalMode: "delete", Synchronous: "extra", Fullfsync: "1", Commits: 50},
	} {
		got, err := ParseName(c.Name())
		if err != nil || got.Name() != c.Name() {
			t.Errorf("ParseName(%q) = %+v, %v", c.Name(), got, err)
		}
	}
	if n := (Config{Engine: "mattn", JournalMode: "wal", Synchronous: "normal", Fullfsync: "0", Commits: DefaultCommits}).Name(); n != "sqlite/mattn/wal/normal/fullfsync=0" {
		t.Errorf("default commits named %q", n)
	}
	for _, bad := range []string{
		"wal/append/buffered/fsync", "sqlite/modernc/wal/full", "sqlite/sqlite4/wal/full/fullfsync=0",
		"sqlite/modernc/wall/full/fullfsync=0", "sqlite/modernc/wal/full/fullfsync=2", "sqlite/modernc/wal/full/fullfsync=0/commits=0",
		"sqlite/modernc/wal/full/fullfsync=0/extra",
	} {
		if _, err := ParseName(bad); err == nil || !strings.HasPrefix(err.Error(), "sqlitecrash: ") {
			t.Errorf("ParseName(%q) err = %v, want a refusal", bad, err)
		}
	}
}

func TestMapping(t *testing.T) {
	for _, tc := range []struct{ full, build, want string }{
		{"0", "public", "fsync→fsync, fdatasync→fsync (fullfsync=0: SQLite calls fsync)"},
		{"0", "apple", "fsync→fsync, fdatasync→fsync (fullfsync=0: SQLite calls fsync)"},
		{"1", "public", "fsync→F_FULLFSYNC, fdatasync→F_FULLFSYNC (fullfsync=1, public build: F_FULLFSYNC)"},
		{"1", "apple", "fsync→F_BARRIERFSYNC, fdatasync→F_BARRIERFSYNC (fullfsync=1, Apple's system build: F_BARRIERFSYNC)"},
	} {
		m, err := Mapping(tc.full, tc.build)
		if err != nil || m.String() != tc.want {
			t.Errorf("Mapping(%s, %s) = %q, %v; want %q", tc.full, tc.build, m, err, tc.want)
		}
	}
	if _, err := Mapping("1", "ios"); err == nil {
		t.Error("Mapping(1, ios): no error")
	}
}
