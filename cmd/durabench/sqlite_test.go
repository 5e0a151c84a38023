package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/durabench/durabench/results"
)

// smallSQLiteFlags are the flags for a small, fast sqlite run.
var smallSQLiteFlags = []string{"--journal-modes", "wal,delete", "--synchronous", "full", "--fullfsync", "0", "--commits", "5", "--warmup", "1", "--rounds", "2"}

func TestSQLiteRefusesBadInput(t *testing.T) {
	base, dir, existingOut := refusalDirs(t)
	missingLib := filepath.Join(base, "lib", "libsqlite3.so.0")
	notLib := filepath.Join(base, "notlib.so")
	os.WriteFile(notLib, []byte("not a library"), 0o644)

	ok := append([]string{"--dir", dir, "--out", filepath.Join(base, "new-results")}, smallSQLiteFlags...)
	refusals := []refusal{
		{"unknown engine", []string{"--engines", "modernc,sqlite3"}, `invalid argument "modernc,sqlite3" for "--engines" flag: engine "sqlite3": use one or more of modernc, mattn, system`},
		{"unknown journal mode", []string{"--journal-modes", "wal2"}, `invalid argument "wal2" for "--journal-modes" flag: journal mode "wal2": use one or more of delete, truncate, persist, wal, memory, off`},
		{"unknown synchronous", []string{"--synchronous", "ful"}, `invalid argument "ful" for "--synchronous" flag: synchronous level "ful": use one or more of off, normal, full, extra`},
		{"synchronous out of range", []string{"--synchronous", "4"}, `invalid argument "4" for "--synchronous" flag: synchronous level "4": use one or more of off, normal, full, extra`},
		{"bad fullfsync", []string{"--fullfsync", "2"}, `invalid argument "2" for "--fullfsync" flag: fullfsync value "2": use one or more of 0, 1`},
		{"bad checkpoint_fullfsync", []string{"--checkpoint-fullfsync", "apple"}, `invalid argument "apple" for "--checkpoint-fullfsync" flag: checkpoint_fullfsync value "apple": use one or more of default, 0, 1`},
		{"value twice", []string{"--journal-modes", "wal,WAL"}, `invalid argument "wal,WAL" for "--journal-modes" flag: journal mode "WAL" is given twice`},
		{"missing --sqlite-lib", []string{"--sqlite-lib", missingLib}, "--sqlite-lib: library " + missingLib + ": no such file"},
		{"--sqlite-lib not a library", []string{"--engines", "system", "--sqlite-lib", notLib}, "--sqlite-lib: " + notLib + " is not a" + map[bool]string{true: " Mach-O library", false: "n ELF shared library"}[runtime.GOOS == "darwin"]},
		{"--sqlite-lib a directory", []string{"--engines", "system", "--sqlite-lib", base}, "--sqlite-lib: " + base + " is a directory, not a shared library file"},
		{"--sqlite-lib without system", []string{"--engines", "modernc", "--sqlite-lib", notLib}, "--sqlite-lib, --engines: the library " + notLib + " is only for the system engine"},
		{"no commits", []string{"--commits", "0"}, "--commits: 0 measured commits: need at least one"},
		{"no rows", []string{"--rows-per-commit", "0"}, "--rows-per-commit: 0 rows per commit: need at least one"},
		{"negative row size", []string{"--row-bytes=-1"}, "--row-bytes: rows of -1 bytes: use 0 to 1000000000"},
		{"existing out", []string{"--out", existingOut}, "exists already: results are never overwritten"},
		{"missing dir", []string{"--dir", filepath.Join(base, "nope")}, "--dir: directory " + filepath.Join(base, "nope") + " does not exist: create it first"},
		{"stray argument", []string{"now"}, `unexpected arguments ["now"]`},
	}
	checkRefusals(t, "sqlite", ok, base, refusals)
}

func TestSQLiteWritesOutputs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "run1")
	args := append([]string{"sqlite", "--dir", dir, "--out", out, "--engines", "modernc,system"}, smallSQLiteFlags...)
	stdout, stderr, code := durabench(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"What each engine gives a user who sets nothing",
		"\nmodernc  3.", "\nsystem   3.",
		"modernc (SQLite 3.", "system (SQLite 3.",
		"journal  synchronous  ", "fullfsync=0  if the app crashes  if the OS crashes or power fails",
		"\nwal      full     ", "\ndelete   full     ",
		"DEFAULT_WAL_SYNCHRONOUS", "(not set)",
		"Environment",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	recs := readRecords(t, out)
	// 2 engines × 2 journal modes, each 2 rounds + pooled.
	if len(recs) != 4*3 {
		t.Fatalf("%d records, want 12", len(recs))
	}
	for _, r := range recs {
		p := r.Params
		if r.Experiment != "sqlite" || r.Env == "" || p.Get("synchronous") != "full" || p.Get("fullfsync") != "0" ||
			p.Get("asked_checkpoint_fullfsync") != "default" || p.Get("sqlite_version") == "" {
			t.Errorf("bad record %+v", r)
		}
		if p.Get("asked_journal_mode") != "" || len(r.Notes) != 0 {
			t.Errorf("a case run as asked is marked: %s, notes %q", p, r.Notes)
		}
		wantN, wantRows := 5, 6.0
		if r.Round == results.PooledRound {
			wantN, wantRows = 10, 12
		}
		if r.N != wantN || r.Metrics["rows_checked"] != wantRows {
			t.Errorf("%s round %s: n=%d, rows checked %v; want %d and %v", p, r.Round, r.N, r.Metrics["rows_checked"], wantN, wantRows)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the run left %d entries in --dir", len(entries))
	}
}

func TestSQLiteBenchFormat(t *testing.T) {
	stdout, stderr, code := durabench(t, append([]string{"sqlite", "--dir", t.TempDir(), "--engines", "modernc", "--format", "bench"}, smallSQLiteFlags...)...)
	if code != 0 || !strings.Contains(stdout, "BenchmarkSqlite/engine=modernc/sqlite_version=3.") ||
		!strings.Contains(stdout, "/journal_mode=wal/synchronous=full/fullfsync=0/checkpoint_fullfsync=0/asked_checkpoint_fullfsync=default/rows_per_commit=1/row_bytes=100\t") {
		t.Errorf("bench format: exit %d, stderr %s, output %q", code, stderr, stdout)
	}
}

// TestSQLiteWithoutCgo builds durabench with CGO_ENABLED=0: mattn is then
// absent, listed with the reason, and refused if asked for by name.
func TestSQLiteWithoutCgo(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "durabench-nocgo")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	const reason = "built without cgo (CGO_ENABLED=0): rebuild with cgo and a C compiler to get it"
	dir := t.TempDir()

	_, stderr, code := runBinary(t, bin, append([]string{"sqlite", "--dir", dir, "--engines", "mattn"}, smallSQLiteFlags...)...)
	if want := "engine mattn is unavailable: " + reason; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("--engines mattn without cgo: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}

	stdout, stderr, code := runBinary(t, bin, append([]string{"sqlite", "--dir", dir}, smallSQLiteFlags...)...)
	if code != 0 {
		t.Fatalf("default engines without cgo: exit %d: %s", code, stderr)
	}
	if want := "not running mattn: " + reason; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
	if want := "Not run: mattn: " + reason; !strings.Contains(stdout, want) {
		t.Errorf("report lacks %q", want)
	}
	if strings.Contains(stdout, "mattn (SQLite") || !strings.Contains(stdout, "modernc (SQLite") {
		t.Errorf("report should have a modernc block and no mattn block:\n%s", stdout)
	}
}
