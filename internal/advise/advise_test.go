package advise

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/internal/golden"
	"github.com/durabench/durabench/internal/saved"
	"github.com/durabench/durabench/results"
)

// load reads committed fixtures (testdata/<name>) as advise pragmas does.
func load(t *testing.T, names ...string) PragmaInput {
	t.Helper()
	var in PragmaInput
	var from []string
	for _, n := range names {
		r, err := saved.Load(filepath.Join("testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		in.Records = append(in.Records, r.Records...)
		if r.HasEnv && in.OS == "" {
			in.OS, in.FS, in.EnvWarnings = r.Env.OS, r.Env.FSType, r.Env.Warnings
		}
		from = append(from, r.Path)
	}
	in.From = strings.Join(from, " + ")
	return in
}

func pragmas(t *testing.T, in PragmaInput, q PragmaQuestion) (PragmaAdvice, []byte) {
	t.Helper()
	a, err := Pragmas(in, q)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := a.Render(&buf); err != nil {
		t.Fatal(err)
	}
	return a, buf.Bytes()
}

// On this machine (Linux, ext4): the pick keeps every commit through a
// power loss and nothing faster does; every faster alternative is shown
// with what it risks.
func TestPragmasLinuxPowerLoss(t *testing.T) {
	a, out := pragmas(t, load(t, "linux-sqlite"), PragmaQuestion{Failure: PowerLoss})
	golden.Check(t, "pragmas-linux-power-loss.golden", out)
	if a.Pick == nil || !a.Pick.Keeps() {
		t.Fatalf("no pick that keeps the promise: %+v", a.Pick)
	}
	if !slices.Contains([]string{"full", "extra"}, a.Pick.Synchronous) {
		t.Errorf("pick %s: below synchronous=full nothing keeps a power loss", a.Pick.Name())
	}
	for _, o := range a.Faster {
		if o.Keeps() {
			t.Errorf("%s is faster than the pick and keeps the promise too", o.Name())
		}
		if o.Engine != a.Pick.Engine {
			t.Errorf("alternative %s on %s, not the pick's engine %s", o.Name(), o.Engine, a.Pick.Engine)
		}
	}
	for _, o := range a.Slower {
		// The others that keep it are slower, or faster only within the
		// noise (where the pick is the lower synchronous level).
		if !o.Keeps() || o.CommitsPerSec*NoiseShare > a.Pick.CommitsPerSec {
			t.Errorf("other keeping alternative %s: keeps %v at %v/s", o.Name(), o.Keeps(), o.CommitsPerSec)
		}
		if o.CommitsPerSec > a.Pick.CommitsPerSec && syncLevel[o.Synchronous] <= syncLevel[a.Pick.Synchronous] {
			t.Errorf("%s is faster than the pick at no higher a synchronous level", o.Name())
		}
	}
	if !strings.Contains(string(out), "_sync=") {
		t.Error("the mattn DSN line (with _sync) is missing")
	}
}

// A floor no configuration reaches: the answer says so, names the
// closest and how far it is, and suggests batching.
func TestPragmasNoneMeetsTarget(t *testing.T) {
	in := load(t, "linux-sqlite")
	a, out := pragmas(t, in, PragmaQuestion{Failure: OSCrash, Engine: "mattn", MinCommits: 1e6})
	golden.Check(t, "pragmas-linux-none-meets.golden", out)
	if a.Pick != nil || a.Best == nil {
		t.Fatalf("pick %v, best %v: want no pick and a closest", a.Pick, a.Best)
	}
	if !strings.Contains(string(out), "No configuration both keeps that promise and reaches 1,000,000 commits/s here.") {
		t.Error("the output does not say that nothing meets the target")
	}
}

// An application crash keeps the page cache: synchronous=off is enough
// with a journal on disk, and only journal_mode off and memory risk it.
func TestPragmasAppCrash(t *testing.T) {
	a, out := pragmas(t, load(t, "linux-sqlite"), PragmaQuestion{Failure: AppCrash})
	golden.Check(t, "pragmas-linux-app-crash.golden", out)
	if a.Pick == nil || a.Pick.JournalMode == "off" || a.Pick.JournalMode == "memory" {
		t.Fatalf("pick %+v", a.Pick)
	}
}

// Crash verdicts given with --from join the table: a measured loss wins
// over a documented "durable" (the fixture's mattn WAL/EXTRA), and the
// source of the verdict is the crash results.
func TestPragmasWithCrashVerdicts(t *testing.T) {
	in := load(t, "linux-sqlite", "crash-handmade")
	a, out := pragmas(t, in, PragmaQuestion{Failure: PowerLoss, Engine: "mattn"})
	golden.Check(t, "pragmas-linux-crash.golden", out)
	c := Config{Engine: "mattn", JournalMode: "wal", Synchronous: "extra", FullFsync: "0", OS: "linux"}
	as := Assess(a.rows, c, PowerLoss)
	if as.Verdict != LosesLast || !strings.HasPrefix(as.Risk(), "measured:") {
		t.Errorf("mattn WAL/EXTRA: %v, %q; want the measured loss", as.Verdict, as.Risk())
	}
	if a.Pick != nil && a.Pick.JournalMode == "wal" && a.Pick.Synchronous == "extra" {
		t.Error("the pick is the configuration the crash results say loses commits")
	}
	if !strings.Contains(string(out), "measured: durabench crash, model linux-ext4, 1,000 states") {
		t.Error("the crash results are not cited as a source")
	}
	// Without them, the documented verdict stands.
	if as := Assess(Promises, c, PowerLoss); as.Verdict != Keeps {
		t.Errorf("documented WAL/EXTRA: %v, want Keeps", as.Verdict)
	}
}

// macOS (hand-built from the macOS backlog and staircase articles): against power loss
// only fullfsync=1 on a public build keeps commits; the system engine's
// fullfsync=1 is a barrier and keeps none.
func TestPragmasMacOS(t *testing.T) {
	in := load(t, "macos-reference")
	a, out := pragmas(t, in, PragmaQuestion{Failure: PowerLoss})
	golden.Check(t, "pragmas-macos-power-loss.golden", out)
	if a.Pick == nil || a.Pick.FullFsync != "1" || a.Pick.Engine == "system" {
		t.Fatalf("pick %+v: want fullfsync=1 on a public build", a.Pick)
	}
	if a.Pick.Name() != "WAL + FULL, fullfsync=1" || a.Pick.CommitsPerSec != 331 {
		t.Errorf("pick %s at %v/s, want WAL + FULL, fullfsync=1 at 331/s (the article's figure)", a.Pick.Name(), a.Pick.CommitsPerSec)
	}
	if !strings.Contains(string(out), "F_BARRIERFSYNC") {
		t.Error("the output does not say that Apple's SQLite gives barriers")
	}

	a, out = pragmas(t, in, PragmaQuestion{Failure: PowerLoss, Engine: "system"})
	golden.Check(t, "pragmas-macos-system.golden", out)
	if a.Pick != nil || a.Best != nil {
		t.Errorf("the system engine's barrier configuration was taken as durable: %+v", a.Best)
	}
	if len(a.Faster) != 1 || a.Faster[0].Verdict != LosesLast {
		t.Errorf("the system engine's DELETE + FULL + fullfsync=1: %+v, want one option that may lose the last commits", a.Faster)
	}

	// Through an OS crash the drive keeps its cache: fsync is enough.
	a, out = pragmas(t, in, PragmaQuestion{Failure: OSCrash})
	golden.Check(t, "pragmas-macos-os-crash.golden", out)
	if a.Pick == nil || a.Pick.FullFsync != "0" {
		t.Errorf("OS crash on macOS: pick %+v, want fullfsync=0 (fsync hands data to the drive, which keeps power)", a.Pick)
	}
}

// Every journal mode and synchronous level has a documented row for every
// failure: nothing is Unknown on an OS whose syncs are stable.
func TestEveryCaseHasADocumentedRow(t *testing.T) {
	for _, j := range []string{"delete", "truncate", "persist", "wal", "memory", "off"} {
		for _, s := range []string{"off", "normal", "full", "extra"} {
			for _, f := range Failures {
				a := Documented(j, s, f)
				if a.Verdict == Unknown || len(a.Rows) == 0 {
					t.Errorf("%s/%s %s: no documented row", j, s, f)
				}
				for _, r := range a.Rows {
					if !strings.HasPrefix(r.Source, "https://www.sqlite.org/") {
						t.Errorf("%s/%s %s: documented row cites %q", j, s, f, r.Source)
					}
				}
			}
		}
	}
}

// The OS rows: on macOS fullfsync=0 may corrupt on power loss, Apple's
// build with fullfsync=1 may lose commits, the public build keeps them;
// on Linux fullfsync changes nothing.
func TestOSRows(t *testing.T) {
	for _, tt := range []struct {
		c    Config
		f    Failure
		want Verdict
	}{
		{Config{"mattn", "wal", "full", "0", "darwin"}, PowerLoss, MayCorrupt},
		{Config{"mattn", "wal", "full", "1", "darwin"}, PowerLoss, Keeps},
		{Config{"modernc", "wal", "full", "1", "darwin"}, PowerLoss, Keeps},
		{Config{"system", "wal", "full", "1", "darwin"}, PowerLoss, LosesLast},
		{Config{"system", "wal", "off", "1", "darwin"}, PowerLoss, MayCorrupt},
		{Config{"mattn", "wal", "full", "0", "darwin"}, OSCrash, Keeps},
		{Config{"mattn", "wal", "full", "0", "linux"}, PowerLoss, Keeps},
		{Config{"mattn", "wal", "full", "1", "linux"}, PowerLoss, Keeps},
		{Config{"mattn", "wal", "normal", "0", "linux"}, PowerLoss, LosesLast},
		{Config{"mattn", "delete", "full", "0", "linux"}, OSCrash, LosesLast},
		{Config{"mattn", "off", "full", "0", "linux"}, AppCrash, MayCorrupt},
	} {
		if got := Assess(Promises, tt.c, tt.f).Verdict; got != tt.want {
			t.Errorf("%+v through %s: %v, want %v", tt.c, tt.f, got, tt.want)
		}
	}
}

// The group-commit advice on this machine's curve of 1 to 128 writers.
func TestGroupCommitLinux(t *testing.T) {
	recs := load(t, "linux-wal").Records
	cases := LogCases(recs)
	slices.SortFunc(cases, func(x, y LogCase) int { return int(y.CommitsPerSec - x.CommitsPerSec) })
	// A target the fastest case reaches, with room on p99: something meets it.
	q := GroupQuestion{TargetCommits: cases[0].CommitsPerSec / 2, MaxP99: 1e9}
	a, err := GroupCommit(recs, "testdata/linux-wal", q)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := a.Render(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "group-linux.golden", buf.Bytes())
	if a.Pick == nil || a.Pick.CommitsPerSec < q.TargetCommits || a.Pick.P99 > q.MaxP99 {
		t.Fatalf("pick %+v does not meet %+v", a.Pick, q)
	}
	for _, c := range cases {
		if c.CommitsPerSec >= q.TargetCommits && c.P99 <= q.MaxP99 && c.Writers < a.Pick.Writers {
			t.Errorf("%s meets both with fewer writers than the pick (%d)", c.Name(), a.Pick.Writers)
		}
	}
	if !strings.Contains(buf.String(), "Records per sync ≈ arrival rate × sync time") {
		t.Error("the arithmetic is missing")
	}
}

// Targets nothing meets: the answer names the closest on each side and
// why, and meets nothing.
func TestGroupCommitNoneMeets(t *testing.T) {
	recs := load(t, "linux-wal").Records
	a, err := GroupCommit(recs, "testdata/linux-wal", GroupQuestion{TargetCommits: 10_000_000, MaxP99: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := a.Render(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "group-none-meets.golden", buf.Bytes())
	if a.Pick != nil || a.FastestWithin != nil || a.QuickestReaching != nil {
		t.Errorf("a 10M/s target within 1 µs found %v, %v, %v", a.Pick, a.FastestWithin, a.QuickestReaching)
	}
	if !strings.Contains(buf.String(), "No measured configuration meets both.") {
		t.Error("the output does not say that nothing meets both")
	}
}

// The suite's curve (1, 8 and 64 writers) was still rising at 64: no knee
// is named, and the advice says to try more writers.
func TestGroupCommitKneeOutsideRange(t *testing.T) {
	recs := load(t, "linux-suite").Records
	a, err := GroupCommit(recs, "testdata/linux-suite", GroupQuestion{TargetCommits: 20000, MaxP99: 2e6})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := a.Render(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "group-knee-outside.golden", buf.Bytes())
	if a.Knee.Inside {
		t.Fatalf("knee %+v: the fixture's curve is still rising at 64 writers", a.Knee)
	}
	if !strings.Contains(buf.String(), "No knee within 1–64 writers") || !strings.Contains(buf.String(), "try more writers") {
		t.Error("the output does not say that the knee lies beyond the writers tried")
	}
	if strings.Contains(buf.String(), "Knee:") {
		t.Error("a knee was named although the curve never bent")
	}
}

// "What this means" for each committed run: at most five lines, each
// from the run's figures.
func TestMeaning(t *testing.T) {
	for _, tt := range []struct{ fixture, goos string }{
		{"linux-sqlite", "linux"},
		{"linux-wal", "linux"},
		{"linux-suite", "linux"},
		{"linux-neighbor", "linux"},
		{"macos-reference", "darwin"},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			in := load(t, tt.fixture)
			lines := Meaning(in.Records, tt.goos)
			if len(lines) == 0 || len(lines) > MaxMeaning {
				t.Fatalf("%d lines: %q", len(lines), lines)
			}
			var buf bytes.Buffer
			RenderMeaning(&buf, lines)
			golden.Check(t, "meaning-"+tt.fixture+".golden", buf.Bytes())
		})
	}
}

// The macOS run's sync lines: the full flush is the durable one, fsync
// and the barrier are cheaper and say what they give up, and the
// staircase is reported.
func TestSyncMeaningMacOS(t *testing.T) {
	lines := SyncMeaning(load(t, "macos-reference").Records)
	want := []string{
		"Cheapest sync that reaches stable storage here: full, 2.00 ms median per overwrite of 4K (about 500 durable writes/s from one thread).",
		"Cheaper, and not durable: none (1.2 µs) leaves the data in the page cache; fsync (16.5 µs) only hands the data to the device, which may lose it on power loss; barrier (109 µs) only orders the writes, without waiting for them to be stored.",
		"full: 98 % of samples end within 100 µs of a whole millisecond (20 % by chance): the device completes it on a 1 ms tick.",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("got\n%q\nwant\n%q", lines, want)
	}
}

// A record whose experiment is unknown gives no line rather than a guess.
func TestMeaningUnknownExperiment(t *testing.T) {
	if l := Meaning([]results.Record{{Experiment: "mystery", Round: results.PooledRound}}, "linux"); len(l) != 0 {
		t.Errorf("lines for an unknown experiment: %q", l)
	}
}

// Under the macos model the crash records' mapping says which build a
// verdict stands for: the barrier rows for Apple's system engine, the
// full-flush rows for the public builds, plain fsync for any engine.
func TestCrashRowsMacOS(t *testing.T) {
	recs := load(t, "crash-handmade").Records
	rows := append(slices.Clone(Promises), CrashRows(recs, "darwin", "apfs", "crash-handmade")...)
	for _, tt := range []struct {
		c        Config
		want     Verdict
		measured bool
	}{
		{Config{"system", "delete", "full", "1", "darwin"}, LosesLast, true},
		{Config{"mattn", "wal", "full", "1", "darwin"}, Keeps, true},
		{Config{"mattn", "wal", "full", "0", "darwin"}, MayCorrupt, false}, // the OS row is worse than the measured loss
		{Config{"system", "wal", "full", "0", "darwin"}, MayCorrupt, false},
	} {
		a := Assess(rows, tt.c, PowerLoss)
		measured := false
		for _, r := range a.Rows {
			measured = measured || strings.HasPrefix(r.Source, "measured:")
		}
		if a.Verdict != tt.want || measured != tt.measured {
			t.Errorf("%+v: %v (measured row deciding: %v), want %v (%v)", tt.c, a.Verdict, measured, tt.want, tt.measured)
		}
	}
	// The linux-ext4 verdicts do not speak for a Mac, nor the macos ones
	// for Linux.
	for _, r := range CrashRows(recs, "linux", "ext4", "x") {
		if !strings.Contains(r.Source, "model linux-ext4") {
			t.Errorf("a Linux row from %s", r.Source)
		}
	}
	if n := len(CrashRows(recs, "linux", "xfs", "x")); n != 0 {
		t.Errorf("%d rows for xfs, which wants posix-strict verdicts the fixture does not have", n)
	}
}

// The neighbor's lines compare each backlog with the idle baseline of the
// same method, from the medians the records carry.
func TestNeighborMeaning(t *testing.T) {
	recs := load(t, "linux-neighbor").Records
	var idle, worst results.Record
	for _, r := range recs {
		if r.Experiment != "neighbor" || r.Round != results.PooledRound {
			continue
		}
		switch r.Params.Get("backlog") {
		case "0":
			idle = r
		default:
			worst = r
		}
	}
	lines := NeighborMeaning(recs)
	if len(lines) != 2 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	want := "fdatasync behind a " + worst.Params.Get("backlog") + " backlog: median " + dur(worst.Stats.Total.P50) + " against " + dur(idle.Stats.Total.P50) + " idle"
	if !strings.HasPrefix(lines[0], want) {
		t.Errorf("line %q, want it to start %q", lines[0], want)
	}
}

// Real crash verdicts (durabench crash sqlite, measured here) agree with
// the documented table where it is crisp, and advise cites them.
func TestPragmasWithMeasuredCrashVerdicts(t *testing.T) {
	in := load(t, "linux-sqlite", "linux-crash")
	a, out := pragmas(t, in, PragmaQuestion{Failure: PowerLoss})
	golden.Check(t, "pragmas-linux-crash-measured.golden", out)
	if a.Pick == nil || !strings.HasPrefix(a.Pick.Risk(), "measured: no loss") {
		t.Fatalf("pick %+v: want one the crash results found no loss in", a.Pick)
	}
	for _, tt := range []struct {
		j, s string
		want Verdict
	}{{"wal", "full", Keeps}, {"wal", "normal", LosesLast}, {"delete", "full", LosesLast}, {"delete", "extra", Keeps}} {
		as := Assess(a.rows, Config{"modernc", tt.j, tt.s, "0", "linux"}, PowerLoss)
		measured := false
		for _, r := range as.Rows {
			measured = measured || strings.HasPrefix(r.Source, "measured: durabench crash, model linux-ext4")
		}
		if as.Verdict != tt.want || !measured {
			t.Errorf("%s/%s: %v (measured row among the deciding: %v), want %v from the crash results", tt.j, tt.s, as.Verdict, measured, tt.want)
		}
	}
}

// The crash lines count, per model, the configurations that kept every
// acknowledged commit, from the verdict metrics.
func TestCrashMeaning(t *testing.T) {
	lines := CrashMeaning(load(t, "crash-handmade").Records)
	want := "Simulated power cuts under linux-ext4: 6 of 16 configurations kept every acknowledged commit in every state checked; lost commits: "
	if len(lines) != 4 || !strings.HasPrefix(lines[0], want) {
		t.Fatalf("lines %q; want 4 models, the first starting %q", lines, want)
	}
	if !strings.Contains(lines[0], "corrupt states: sqlite/modernc/wal/off/fullfsync=0, sqlite/mattn/wal/off/fullfsync=0, sqlite/system/wal/off/fullfsync=0.") {
		t.Errorf("the corrupt configurations are not named: %q", lines[0])
	}
}
