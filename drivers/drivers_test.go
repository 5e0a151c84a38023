package drivers

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// engineList returns every engine usable here. An engine may be missing
// only for a stated reason: mattn in a build without cgo, or a system
// library that is not installed.
func engineList(t testing.TB) []*Engine {
	t.Helper()
	var list []*Engine
	for _, name := range Names() {
		e, err := Lookup(name, Options{})
		switch {
		case err == nil:
			list = append(list, e)
		case errors.Is(err, ErrUnavailable) && (name == "system" || name == "mattn" && !cgoEnabled):
			t.Logf("engine %s not tested: %v", name, err)
		default:
			t.Fatalf("Lookup(%q): %v", name, err)
		}
	}
	return list
}

// forEachEngine runs f as a subtest engine=NAME for every usable engine.
func forEachEngine(t *testing.T, f func(t *testing.T, e *Engine)) {
	for _, e := range engineList(t) {
		t.Run("engine="+e.Name(), func(t *testing.T) { f(t, e) })
	}
}

func open(t testing.TB, e *Engine, path string) *Conn {
	t.Helper()
	c, err := e.Open(path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

func mustExec(t testing.TB, c *Conn, sql string) {
	t.Helper()
	if err := c.Exec(sql); err != nil {
		t.Fatal(err)
	}
}

func mustPrepare(t testing.TB, c *Conn, sql string) *Stmt {
	t.Helper()
	s, err := c.Prepare(sql)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustInt(t testing.TB, c *Conn, sql string) int64 {
	t.Helper()
	n, err := c.QueryInt(sql)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// commits holds the three statements of a single-row commit.
type commits struct{ begin, insert, commit *Stmt }

func prepareCommits(t testing.TB, c *Conn) commits {
	t.Helper()
	mustExec(t, c, "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, payload BLOB)")
	return commits{
		begin:  mustPrepare(t, c, "BEGIN"),
		insert: mustPrepare(t, c, "INSERT INTO t (id, payload) VALUES (?1, ?2)"),
		commit: mustPrepare(t, c, "COMMIT"),
	}
}

func (s commits) one(id int64, payload []byte) error {
	if err := s.begin.Exec(); err != nil {
		return err
	}
	if err := s.insert.ExecRow(id, payload); err != nil {
		return err
	}
	return s.commit.Exec()
}

func TestCommitsThenRowCount(t *testing.T) {
	const n = 100
	payload := bytes.Repeat([]byte{0xa5}, 100)
	forEachEngine(t, func(t *testing.T, e *Engine) {
		path := filepath.Join(t.TempDir(), "db")
		c, err := e.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s := prepareCommits(t, c)
		for id := int64(1); id <= n; id++ {
			if err := s.one(id, payload); err != nil {
				t.Fatalf("commit %d: %v", id, err)
			}
		}
		// The statements, finished but open, hold no lock: the journal mode
		// can still change.
		if got, err := c.SetPragma("journal_mode", "wal"); err != nil || got != "wal" {
			t.Errorf("journal_mode=wal with the statements open: %q, %v", got, err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}

		// Read back from a new connection: the rows are in the file.
		c = open(t, e, path)
		if got := mustInt(t, c, "SELECT count(*) FROM t"); got != n {
			t.Errorf("count(*) = %d, want %d", got, n)
		}
		if got, want := mustInt(t, c, "SELECT sum(id) FROM t"), int64(n*(n+1)/2); got != want {
			t.Errorf("sum(id) = %d, want %d", got, want)
		}
		q := fmt.Sprintf("SELECT count(*) FROM t WHERE payload = x'%x'", payload)
		if got := mustInt(t, c, q); got != n {
			t.Errorf("rows with the payload bound = %d, want %d", got, n)
		}
	})
}

func TestExecRowNilAndEmptyPayload(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		c := open(t, e, filepath.Join(t.TempDir(), "db"))
		s := prepareCommits(t, c)
		if err := s.one(1, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.one(2, []byte{}); err != nil {
			t.Fatal(err)
		}
		got, err := c.Query("SELECT typeof(payload) || ':' || ifnull(length(payload), '-') FROM t ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"null:-", "blob:0"}; !equal(got, want) {
			t.Errorf("payloads read back as %q, want %q", got, want)
		}
	})
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPragmaMatrix sets every combination a benchmark runs, each on a new
// database as the benchmark does, and reads every pragma back right away and
// again after a commit.
func TestPragmaMatrix(t *testing.T) {
	journals := []string{"delete", "truncate", "persist", "wal", "memory", "off"}
	syncs := []string{"off", "normal", "full", "extra"}
	bools := []string{"0", "1"}
	forEachEngine(t, func(t *testing.T, e *Engine) {
		dir := t.TempDir()
		for _, j := range journals {
			for _, s := range syncs {
				for _, f := range bools {
					for _, cf := range bools {
						name := fmt.Sprintf("journal=%s,sync=%s,fullfsync=%s,ckpt=%s", j, s, f, cf)
						want := Settings{JournalMode: j, Synchronous: s, FullFsync: f, CheckpointFullFsync: cf}
						checkCombination(t, e, filepath.Join(dir, name), name, want)
					}
				}
			}
		}
	})
}

func checkCombination(t *testing.T, e *Engine, path, name string, want Settings) {
	t.Helper()
	c, err := e.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	values := map[string]string{
		"journal_mode":         want.JournalMode,
		"synchronous":          want.Synchronous,
		"fullfsync":            want.FullFsync,
		"checkpoint_fullfsync": want.CheckpointFullFsync,
	}
	for _, p := range DurabilityPragmas {
		got, err := c.SetPragma(p, values[p])
		if err != nil {
			t.Fatalf("%s: SetPragma(%s, %s): %v", name, p, values[p], err)
		}
		if got != values[p] {
			t.Errorf("%s: SetPragma(%s, %s) read back %q", name, p, values[p], got)
		}
	}
	s := prepareCommits(t, c)
	if err := s.one(1, []byte("x")); err != nil {
		t.Fatalf("%s: commit: %v", name, err)
	}
	got, err := c.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("%s: after a commit, Settings() = %+v, want %+v", name, got, want)
	}
}

func TestSetPragmaReportsRefusedChange(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		c := open(t, e, ":memory:")
		got, err := c.SetPragma("journal_mode", "WAL")
		if err != nil {
			t.Fatal(err)
		}
		if got != "memory" {
			t.Errorf("journal_mode=WAL on :memory: read back %q, want memory (refused)", got)
		}
	})
}

func TestSetPragmaRefusesMisreadValues(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		c := open(t, e, filepath.Join(t.TempDir(), "db"))
		before, err := c.Pragma("synchronous")
		if err != nil {
			t.Fatal(err)
		}
		// SQLite itself would take "ful" as NORMAL, silently.
		if _, err := c.SetPragma("synchronous", "ful"); !errors.Is(err, ErrBadPragma) {
			t.Fatalf("SetPragma(synchronous, ful) = %v, want ErrBadPragma", err)
		}
		if _, err := c.SetPragma("synchronous", "full; DROP TABLE t"); !errors.Is(err, ErrBadPragma) {
			t.Fatalf("SetPragma with a second statement = %v, want ErrBadPragma", err)
		}
		// SQLite ignores a pragma it does not know; the read-back catches it.
		if _, err := c.SetPragma("fulfsync", "1"); err == nil || !strings.Contains(err.Error(), "is it a pragma this SQLite knows?") {
			t.Errorf("SetPragma(fulfsync, 1) = %v, want an error naming the unknown pragma", err)
		}
		if after, err := c.Pragma("synchronous"); err != nil || after != before {
			t.Errorf("synchronous after refused changes = %q, %v; want %q unchanged", after, err, before)
		}
	})
}

func TestSQLiteErrorsSurface(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		c := open(t, e, filepath.Join(t.TempDir(), "db"))

		err := c.Exec("SELEC 1")
		var se *Error
		if !errors.As(err, &se) {
			t.Fatalf("Exec(SELEC 1) = %v (%T), want *Error", err, err)
		}
		if se.Code != 1 || se.ExtendedCode != 1 || se.Msg != `near "SELEC": syntax error` {
			t.Errorf("syntax error = %+v, want code 1 and SQLite's message", se)
		}
		if want := e.Name() + `: exec "SELEC 1": SQLITE_ERROR (1): near "SELEC": syntax error`; err.Error() != want {
			t.Errorf("error text %q, want %q", err, want)
		}

		if _, err := c.Prepare("INSERT INTO nowhere VALUES (1)"); !errors.As(err, &se) || se.Code != 1 || se.Msg != "no such table: nowhere" {
			t.Errorf("Prepare on a missing table = %v, want SQLITE_ERROR with SQLite's message", err)
		}

		// A failing step reports the extended code; the statement stays usable.
		s := prepareCommits(t, c)
		if err := s.insert.ExecRow(1, nil); err != nil {
			t.Fatal(err)
		}
		err = s.insert.ExecRow(1, nil)
		if !errors.As(err, &se) || se.Code != 19 || se.ExtendedCode != 1555 || se.Msg != "UNIQUE constraint failed: t.id" {
			t.Errorf("duplicate key = %v, want SQLITE_CONSTRAINT (19, extended 1555 PRIMARYKEY)", err)
		}
		if err == nil || !strings.Contains(err.Error(), "SQLITE_CONSTRAINT (19, extended 1555)") {
			t.Errorf("error text %q does not show both codes", err)
		}
		if err := s.insert.ExecRow(2, nil); err != nil {
			t.Errorf("statement after a failed step: %v", err)
		}
		if got := mustInt(t, c, "SELECT count(*) FROM t"); got != 2 {
			t.Errorf("count(*) = %d, want 2", got)
		}
	})
}

// TestDefaults pins what each engine gives a user who sets nothing, as
// documented for the versions in go.mod and Debian 12's libsqlite3: mattn's
// driver runs PRAGMA synchronous = NORMAL on every connection; the others
// keep SQLite's compiled-in default, FULL unless the build lists
// DEFAULT_SYNCHRONOUS. Switching to WAL applies DEFAULT_WAL_SYNCHRONOUS
// only where synchronous was never set.
func TestDefaults(t *testing.T) {
	wantSync := map[string]string{"modernc": "full", "mattn": "normal", "system": "full"}
	forEachEngine(t, func(t *testing.T, e *Engine) {
		c := open(t, e, filepath.Join(t.TempDir(), "db"))
		opts, err := c.CompileOptions()
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Settings()
		if err != nil {
			t.Fatal(err)
		}
		want := Settings{JournalMode: "delete", Synchronous: wantSync[e.Name()], FullFsync: "0", CheckpointFullFsync: "0"}
		if _, ok := CompileOption(opts, "DEFAULT_CKPTFULLFSYNC"); ok {
			want.CheckpointFullFsync = "1"
		}
		if got != want {
			t.Errorf("defaults = %+v, want %+v", got, want)
		}

		compiled := compiledDefault(opts, "DEFAULT_SYNCHRONOUS", "full")
		if e.Name() != "mattn" && got.Synchronous != compiled {
			t.Errorf("synchronous = %s, but the build's default is %s", got.Synchronous, compiled)
		}
		if e.Name() == "mattn" {
			if v, _ := CompileOption(opts, "DEFAULT_WAL_SYNCHRONOUS"); v != "1" {
				t.Errorf("mattn's DEFAULT_WAL_SYNCHRONOUS = %q, want 1 (its cgo CFLAGS)", v)
			}
		}

		if _, err := c.SetPragma("journal_mode", "wal"); err != nil {
			t.Fatal(err)
		}
		walSync, err := c.Pragma("synchronous")
		if err != nil {
			t.Fatal(err)
		}
		wantWAL := compiledDefault(opts, "DEFAULT_WAL_SYNCHRONOUS", compiled)
		if e.Name() == "mattn" {
			wantWAL = "normal" // set by the driver, so the WAL default does not apply
		}
		if walSync != wantWAL {
			t.Errorf("synchronous after journal_mode=wal = %s, want %s", walSync, wantWAL)
		}
		t.Logf("defaults %+v, synchronous in WAL %s; sync compile options %q", got, walSync, SyncCompileOptions(opts))
	})
}

// compiledDefault returns the synchronous level the build's option key
// sets, or dflt if the build does not list it.
func compiledDefault(opts []string, key, dflt string) string {
	if v, ok := CompileOption(opts, key); ok {
		return Normalize("synchronous", v)
	}
	return dflt
}

func TestBuildInfo(t *testing.T) {
	version := regexp.MustCompile(`^3\.\d+\.\d+$`)
	sourceID := regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [0-9a-f]{40,}`)
	forEachEngine(t, func(t *testing.T, e *Engine) {
		c := open(t, e, ":memory:")
		v, err := c.Version()
		if err != nil || !version.MatchString(v) {
			t.Errorf("Version() = %q, %v; want 3.x.y", v, err)
		}
		id, err := c.SourceID()
		if err != nil || !sourceID.MatchString(id) {
			t.Errorf("SourceID() = %q, %v; want date, time and hash", id, err)
		}
		opts, err := c.CompileOptions()
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := CompileOption(opts, "THREADSAFE"); !ok || v == "0" {
			t.Errorf("THREADSAFE = %q (listed: %v), want a thread-safe build; options %q", v, ok, opts)
		}
		for _, o := range opts {
			if strings.HasPrefix(o, "SQLITE_") {
				t.Errorf("option %q keeps the SQLITE_ prefix", o)
			}
		}
		// Debian patches its build: secure delete on, lookaside off.
		if e.Name() == "system" && isDebian() {
			for _, key := range []string{"SECURE_DELETE", "OMIT_LOOKASIDE"} {
				if _, ok := CompileOption(opts, key); !ok {
					t.Errorf("Debian's libsqlite3 should list %s; options %q", key, opts)
				}
			}
		}
		t.Logf("%s %s; %d compile options", v, id, len(opts))
	})
}

// isDebian reports whether the system engine loads Debian's own
// libsqlite3: the file it maps belongs to Debian's libsqlite3-0 package. A
// library from elsewhere on a Debian system need not carry Debian's patches.
func isDebian() bool {
	if _, err := os.Stat("/etc/debian_version"); runtime.GOOS != "linux" || err != nil {
		return false
	}
	_, file, err := SystemSyncCall(Options{})
	if err != nil {
		return false
	}
	out, err := exec.Command("dpkg-query", "-S", file).Output()
	return err == nil && strings.HasPrefix(string(out), "libsqlite3-0")
}

func TestLookupUnknownEngine(t *testing.T) {
	_, err := Lookup("sqlite", Options{})
	if !errors.Is(err, ErrUnknownEngine) {
		t.Fatalf("Lookup(sqlite) = %v, want ErrUnknownEngine", err)
	}
	if want := `drivers: unknown engine "sqlite": known engines are modernc, mattn, system`; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

func TestLookupSystemLibErrors(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the system engine runs on Linux and macOS only")
	}

	dir := t.TempDir()
	missing := filepath.Join(dir, "libsqlite3.so")
	_, err := Lookup("system", Options{SystemLib: missing})
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing --sqlite-lib: %v, want ErrUnavailable and fs.ErrNotExist", err)
	}
	if want := "system: library " + missing + ": no such file"; err == nil || err.Error() != want {
		t.Errorf("missing --sqlite-lib: %v, want %q", err, want)
	}

	notLib := filepath.Join(dir, "notlib.so")
	if err := os.WriteFile(notLib, []byte("not a shared library"), 0o644); err != nil {
		t.Fatal(err)
	}
	notLibWant := notLib + " is not an ELF shared library"
	if runtime.GOOS == "darwin" {
		notLibWant = notLib + " is not a Mach-O library"
	}
	if _, err := Lookup("system", Options{SystemLib: notLib}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), notLibWant) {
		t.Errorf("--sqlite-lib of a non-library: %v, want ErrUnavailable saying %q", err, notLibWant)
	}

	if runtime.GOOS == "linux" {
		if _, err := Lookup("system", Options{SystemLib: "libc.so.6"}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "libc.so.6 has no sqlite3_open_v2") {
			t.Errorf("--sqlite-lib libc.so.6: %v, want ErrUnavailable naming the missing symbol", err)
		}
	}
}

func TestAvailable(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.dylib")
	st := Available(Options{SystemLib: missing})
	if len(st) != 3 || st[0].Name != "modernc" || st[1].Name != "mattn" || st[2].Name != "system" {
		t.Fatalf("Available() = %+v, want modernc, mattn, system in order", st)
	}
	if !st[0].Available || st[0].Reason != "" {
		t.Errorf("modernc: %+v, want available", st[0])
	}
	if cgoEnabled != st[1].Available {
		t.Errorf("mattn: %+v, want available exactly when built with cgo (%v)", st[1], cgoEnabled)
	}
	if !cgoEnabled && st[1].Reason != "built without cgo (CGO_ENABLED=0): rebuild with cgo and a C compiler to get it" {
		t.Errorf("mattn's reason = %q", st[1].Reason)
	}
	if st[2].Available {
		t.Errorf("system with a missing library: %+v, want unavailable", st[2])
	}
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		if want := "library " + missing + ": no such file"; st[2].Reason != want {
			t.Errorf("system's reason = %q, want %q", st[2].Reason, want)
		}
	}
}

func TestUseAfterClose(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		c, err := e.Open(filepath.Join(t.TempDir(), "db"))
		if err != nil {
			t.Fatal(err)
		}
		s := prepareCommits(t, c)
		if err := c.Close(); err != nil {
			t.Fatalf("Close with statements open: %v", err)
		}
		if err := c.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if err := s.insert.ExecRow(1, nil); !errors.Is(err, ErrClosed) {
			t.Errorf("ExecRow after Close = %v, want ErrClosed", err)
		}
		if err := s.begin.Close(); err != nil {
			t.Errorf("Stmt.Close after Conn.Close = %v, want nil", err)
		}
		if err := c.Exec("SELECT 1"); !errors.Is(err, ErrClosed) {
			t.Errorf("Exec after Close = %v, want ErrClosed", err)
		}
		if _, err := c.Pragma("synchronous"); !errors.Is(err, ErrClosed) {
			t.Errorf("Pragma after Close = %v, want ErrClosed", err)
		}
	})
}

func TestOpenRefusesDSNOptions(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		path := filepath.Join(t.TempDir(), "db?_sync=OFF")
		if _, err := e.Open(path); err == nil || !strings.Contains(err.Error(), "'?'") {
			t.Errorf("Open(%q) = %v, want a refusal", path, err)
		}
	})
}

// TestSystemCommitAllocatesNothing proves that a commit through the system
// engine's prepared statements allocates nothing.
func TestSystemCommitAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool, and so purego, allocate")
	}
	for _, e := range engineList(t) {
		if e.Name() != "system" {
			continue
		}
		c := open(t, e, filepath.Join(t.TempDir(), "db"))
		for _, p := range [][2]string{{"journal_mode", "memory"}, {"synchronous", "off"}} {
			if _, err := c.SetPragma(p[0], p[1]); err != nil {
				t.Fatal(err)
			}
		}
		s := prepareCommits(t, c)
		payload := make([]byte, 100)
		id := int64(0)
		allocs := testing.AllocsPerRun(200, func() {
			id++
			if err := s.one(id, payload); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("system engine: %v allocations per commit, want 0", allocs)
		}
		if got := mustInt(t, c, "SELECT count(*) FROM t"); got != id {
			t.Errorf("count(*) = %d, want %d", got, id)
		}
		return
	}
	t.Skip("system engine not available here")
}

func TestCheckPragma(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		ok          bool
	}{
		{"synchronous", "FULL", true},
		{"synchronous", "3", true},
		{"synchronous", "ful", false},
		{"synchronous", "4", false},
		{"main.journal_mode", "WAL", true},
		{"journal_mode", "wal2", false},
		{"fullfsync", "on", true},
		{"checkpoint_fullfsync", "2", false},
		{"cache_size", "-2000", true},
		{"cache_size", "--2000", false},
		{"busy_timeout", "5000", true},
		{"journal_mode;", "wal", false},
		{"1x", "0", false},
		{"a.b.c", "0", false},
		{"synchronous", "", false},
		{"synchronous", "full; x", false},
	} {
		err := CheckPragma(tc.name, tc.value)
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrBadPragma) {
			t.Errorf("CheckPragma(%q, %q) = %v, want ok=%v", tc.name, tc.value, err, tc.ok)
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"synchronous", "0", "off"},
		{"synchronous", "1", "normal"},
		{"synchronous", "2", "full"},
		{"synchronous", "3", "extra"},
		{"synchronous", "FULL", "full"},
		{"main.synchronous", "2", "full"},
		{"fullfsync", "on", "1"},
		{"checkpoint_fullfsync", "FALSE", "0"},
		{"fullfsync", "1", "1"},
		{"journal_mode", "WAL", "wal"},
		{"cache_size", "-2000", "-2000"},
	} {
		if got := Normalize(tc.name, tc.value); got != tc.want {
			t.Errorf("Normalize(%q, %q) = %q, want %q", tc.name, tc.value, got, tc.want)
		}
	}
}

func TestCompileOptionHelpers(t *testing.T) {
	opts := []string{"COMPILER=gcc-12.2.0", "DEFAULT_CKPTFULLFSYNC", "DEFAULT_SYNCHRONOUS=2",
		"DEFAULT_WAL_SYNCHRONOUS=1", "SECURE_DELETE", "THREADSAFE=1", "DEFAULT_SYNCHRONOUS_X=9"}
	if v, ok := CompileOption(opts, "DEFAULT_SYNCHRONOUS"); !ok || v != "2" {
		t.Errorf("CompileOption(DEFAULT_SYNCHRONOUS) = %q, %v", v, ok)
	}
	if v, ok := CompileOption(opts, "DEFAULT_CKPTFULLFSYNC"); !ok || v != "" {
		t.Errorf("CompileOption(DEFAULT_CKPTFULLFSYNC) = %q, %v; want a flag", v, ok)
	}
	if _, ok := CompileOption(opts, "NO_SYNC"); ok {
		t.Error("CompileOption(NO_SYNC) found an option that is not there")
	}
	want := []string{"DEFAULT_SYNCHRONOUS=2", "DEFAULT_WAL_SYNCHRONOUS=1", "DEFAULT_CKPTFULLFSYNC", "SECURE_DELETE"}
	if got := SyncCompileOptions(opts); !equal(got, want) {
		t.Errorf("SyncCompileOptions = %q, want %q", got, want)
	}
}

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{"system", `exec "PRAGMA x="`, 1, 1, "incomplete input"}, `system: exec "PRAGMA x=": SQLITE_ERROR (1): incomplete input`},
		{Error{"mattn", `exec "COMMIT"`, 10, 1034, "disk I/O error"}, `mattn: exec "COMMIT": SQLITE_IOERR (10, extended 1034): disk I/O error`},
		{Error{"modernc", "step", 101, 101, "x"}, `modernc: step: SQLITE_DONE (101): x`},
		{Error{"modernc", "step", 99, 99, "x"}, `modernc: step: SQLITE_UNKNOWN_99 (99): x`},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestSystemPrepareRefusesTwoStatements(t *testing.T) {
	e, err := Lookup("system", Options{})
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("system engine not available here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	c := open(t, e, ":memory:")
	if _, err := c.Prepare("BEGIN; COMMIT"); err == nil || !strings.Contains(err.Error(), `more than one statement ("COMMIT" follows)`) {
		t.Errorf("Prepare of two statements = %v, want a refusal naming the rest", err)
	}
	if _, err := c.Prepare(" -- nothing"); err == nil || !strings.Contains(err.Error(), "no statement in it") {
		t.Errorf("Prepare of a comment = %v, want a refusal", err)
	}
	if got, err := c.Query("SELECT NULL"); err != nil || !equal(got, []string{""}) {
		t.Errorf("Query(SELECT NULL) = %q, %v; want one empty string", got, err)
	}
}

func TestBuiltIn(t *testing.T) {
	want := "modernc,system"
	if cgoEnabled {
		want = "modernc,mattn,system"
	}
	if got := strings.Join(BuiltIn(), ","); got != want {
		t.Errorf("BuiltIn() = %s, want %s (cgo %v)", got, want, cgoEnabled)
	}
}
