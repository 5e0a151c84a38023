package trace

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzClassifyPath checks both classifiers on arbitrary paths against their
// documented rules: ClassifyPath goes by the name's ending alone (directories
// first), and SQLiteClassifier(db) gives a database role only to db and its
// three companions, directories ClassDirectory, and everything else
// ClassOther. Every answer is one of the six classes.
func FuzzClassifyPath(f *testing.F) {
	for _, s := range []string{"/tmp/x/test.db", "/tmp/x/test.db-journal", "/tmp/x/test.db-wal",
		"/tmp/x/test.db-shm", "/tmp/x", "pipe:[1234]", "/dev/pts/0", "a.sqlite3", "b.DB", ".db", "-wal",
		"/x/y.db3/", "/x/../y.db", "socket:[9]"} {
		f.Add(s, false, "/tmp/x/test.db")
		f.Add(s, true, s)
	}
	f.Fuzz(func(t *testing.T, path string, isDir bool, db string) {
		got := ClassifyPath(path, isDir)
		want := ClassOther
		switch {
		case isDir:
			want = ClassDirectory
		case strings.HasSuffix(path, "-journal"):
			want = ClassJournal
		case strings.HasSuffix(path, "-wal"):
			want = ClassWAL
		case strings.HasSuffix(path, "-shm"):
			want = ClassSHM
		default:
			base := path[strings.LastIndexByte(path, '/')+1:]
			for _, ext := range []string{".db", ".sqlite", ".sqlite3", ".db3"} {
				if dot := strings.LastIndexByte(base, '.'); dot >= 0 && base[dot:] == ext {
					want = ClassDB
				}
			}
		}
		if got != want {
			t.Fatalf("ClassifyPath(%q, %v) = %q, want %q", path, isDir, got, want)
		}
		checkKnown(t, got)

		c := SQLiteClassifier(db)
		clean := filepath.Clean(db)
		for suffix, class := range map[string]Class{"": ClassDB, "-journal": ClassJournal, "-wal": ClassWAL, "-shm": ClassSHM} {
			if got := c(clean+suffix, isDir); got != class {
				t.Fatalf("SQLiteClassifier(%q)(%q, %v) = %q, want %q", db, clean+suffix, isDir, got, class)
			}
		}
		got = c(path, isDir)
		checkKnown(t, got)
		switch path {
		case clean, clean + "-journal", clean + "-wal", clean + "-shm":
			if got == ClassOther || got == ClassDirectory {
				t.Fatalf("SQLiteClassifier(%q)(%q) = %q: its own file", db, path, got)
			}
		default:
			if want := map[bool]Class{true: ClassDirectory, false: ClassOther}[isDir]; got != want {
				t.Fatalf("SQLiteClassifier(%q)(%q, %v) = %q, want %q", db, path, isDir, got, want)
			}
		}
	})
}

func checkKnown(t *testing.T, c Class) {
	t.Helper()
	switch c {
	case ClassDB, ClassJournal, ClassWAL, ClassSHM, ClassDirectory, ClassOther:
	default:
		t.Fatalf("class %q is not one of the six", c)
	}
}
