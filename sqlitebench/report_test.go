package sqlitebench

import (
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/drivers"
)

func TestWarnings(t *testing.T) {
	full := drivers.Settings{JournalMode: "delete", Synchronous: "full", FullFsync: "0", CheckpointFullFsync: "0"}
	normal := full
	normal.Synchronous = "normal"
	out := Outcome{
		Engines: []EngineInfo{
			{Name: "modernc", Defaults: full, WALSynchronous: "full", WALAutocheckpoint: "1000"},
			{Name: "mattn", Defaults: normal, WALSynchronous: "normal", WALAutocheckpoint: "1000"},
			{Name: "system", Defaults: full, WALSynchronous: "full", WALAutocheckpoint: "1000"},
		},
		Results: []Result{{
			Case:      Case{Engine: "mattn", Asked: drivers.Settings{JournalMode: "wal", Synchronous: "full", FullFsync: "1", CheckpointFullFsync: CheckpointDefault}},
			Effective: drivers.Settings{JournalMode: "wal", Synchronous: "full", FullFsync: "1", CheckpointFullFsync: "0"},
		}},
	}
	cfg := Config{Commits: 500, Warmup: 50}
	want := []string{
		"engines differ when nothing is set: synchronous is full in modernc, system but normal in mattn; the same code gets a different durability from each engine unless it sets the pragma itself",
		"engines differ when nothing is set: synchronous after journal_mode=wal is full in modernc, system but normal in mattn; the same code gets a different durability from each engine unless it sets the pragma itself",
		"on linux SQLite has no F_FULLFSYNC (HAVE_FULLFSYNC=0): fullfsync=1 and checkpoint_fullfsync=1 read back 1 but change no system call, so their columns time the same syncs as 0",
		"WAL checkpoints (and at synchronous=normal the only syncs) run when the WAL reaches 1000 pages; a small commit adds about one page, so WAL rounds of 500 commits after 50 warm-up hold few or none: use --wal-commits 2000 or more to include them",
	}
	if got := Warnings(cfg, out, "linux"); !slices.Equal(got, want) {
		t.Errorf("Warnings(linux) =\n%q\nwant\n%q", got, want)
	}
	// On darwin fullfsync does something; with enough commits, checkpoints
	// fall in the rounds.
	cfg.Commits = 2000
	if got := Warnings(cfg, out, "darwin"); !slices.Equal(got, want[:2]) {
		t.Errorf("Warnings(darwin) = %q, want %q", got, want[:2])
	}
	// WAL cases get their own commit count: enough of them there, and no
	// warning however few the other cases have.
	cfg.Commits, cfg.WALCommits = 500, 3000
	if got := Warnings(cfg, out, "darwin"); !slices.Equal(got, want[:2]) {
		t.Errorf("Warnings(darwin) with --wal-commits 3000 = %q, want %q", got, want[:2])
	}
}

// A WAL case runs WALCommits per round, every other case Commits, and the
// report's first line says both.
func TestCommitsFor(t *testing.T) {
	cfg := Config{Commits: 500, WALCommits: 3000, JournalModes: []string{"delete", "wal"}}
	wal := Case{Asked: drivers.Settings{JournalMode: "wal"}}
	del := Case{Asked: drivers.Settings{JournalMode: "delete"}}
	if got := cfg.CommitsFor(wal); got != 3000 {
		t.Errorf("WAL case: %d commits, want 3000", got)
	}
	if got := cfg.CommitsFor(del); got != 500 {
		t.Errorf("DELETE case: %d commits, want 500", got)
	}
	if got, want := commitsPhrase(cfg), "500 commits (3000 in WAL mode, enough to hold checkpoints)"; got != want {
		t.Errorf("commitsPhrase = %q, want %q", got, want)
	}
	cfg.WALCommits = 0
	if got := cfg.CommitsFor(wal); got != 500 {
		t.Errorf("WALCommits 0: WAL case %d commits, want Commits (500)", got)
	}
}

func TestSyncOptions(t *testing.T) {
	opts := []string{"COMPILER=gcc-12.2.0", "DEFAULT_SYNCHRONOUS=2", "DEFAULT_CKPTFULLFSYNC", "SECURE_DELETE", "THREADSAFE=1"}
	got := syncOptions(opts, "darwin")
	var lines []string
	for _, o := range got {
		lines = append(lines, o.Key+" "+o.Value)
	}
	want := []string{
		"DEFAULT_SYNCHRONOUS 2",
		"DEFAULT_WAL_SYNCHRONOUS (not set)",
		"DEFAULT_CKPTFULLFSYNC (set)",
		"NO_SYNC (not set)",
		"HAVE_FULLFSYNC 1 (not listed by SQLite; derived: darwin defines F_FULLFSYNC)",
		"HAVE_FDATASYNC unknown (not listed by SQLite; only counting system calls shows fdatasync against fsync)",
		"SECURE_DELETE (set)",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("syncOptions =\n%q\nwant\n%q", lines, want)
	}
	if v := syncOptions(nil, "linux")[4].Value; !strings.HasPrefix(v, "0 (") {
		t.Errorf("HAVE_FULLFSYNC on linux = %q", v)
	}
}

// TestRiskOf pins the distinctions SQLite's documentation draws: only
// journal modes with no journal on disk risk the file on an app crash;
// WAL at normal and DELETE at full may lose the last commit; EXTRA makes
// DELETE durable.
func TestRiskOf(t *testing.T) {
	for _, j := range JournalModes {
		for _, s := range SynchronousLevels {
			r := RiskOf(j, s)
			if noJournal := j == "memory" || j == "off"; noJournal != (r.AppCrash != "safe") {
				t.Errorf("%s/%s: app crash %q", j, s, r.AppCrash)
			}
			if durable := r.PowerLoss == "durable"; durable != (j != "memory" && j != "off" && s != "off" && s != "normal" && !(j == "delete" && s == "full")) {
				t.Errorf("%s/%s: power loss %q", j, s, r.PowerLoss)
			}
		}
	}
	if RiskOf("wal", "normal").PowerLoss != "last commits may roll back; no corruption" {
		t.Errorf("wal/normal: %+v", RiskOf("wal", "normal"))
	}
}

func TestRoundSpread(t *testing.T) {
	rounds := []Round{{Samples: 500, Wall: 55e6}, {Samples: 500, Wall: 243e6}, {Samples: 500, Wall: 50e6}}
	if got, want := roundSpread(rounds), "2,058–10,000 /s"; got != want {
		t.Errorf("roundSpread = %q, want %q", got, want)
	}
	if got := roundSpread(nil); got != "" {
		t.Errorf("roundSpread(nil) = %q", got)
	}
}

func TestCaveats(t *testing.T) {
	r := Result{Effective: drivers.Settings{JournalMode: "wal", Synchronous: "full", FullFsync: "1", CheckpointFullFsync: "0"}}
	want := []string{"fullfsync=1 changes no system call on linux: SQLite uses F_FULLFSYNC only where it exists (macOS)"}
	if got := caveats(r, "linux"); !slices.Equal(got, want) {
		t.Errorf("caveats(linux) = %q, want %q", got, want)
	}
	if got := caveats(r, "darwin"); got != nil {
		t.Errorf("caveats(darwin) = %q, want none: F_FULLFSYNC exists there", got)
	}
}
