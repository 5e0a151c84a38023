//go:build linux && (amd64 || arm64)

package sqlitecrash

import (
	"strings"
	"testing"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/drivers"
)

// verdictStates is the budget per configuration and model in the verdict
// tests: enough for every cut before a sync and after an ack (about 100
// for 20 commits) with variants to spare.
const verdictStates = 150

// TestVerdicts asserts, for every engine available here, the verdicts that
// SQLite's documentation makes crisp (see docs/commands/crash.md).
func TestVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("explores thousands of states")
	}
	if raceEnabled {
		// The workload and the checker run on one goroutine each; the
		// plain test run checks the verdicts, here they would take minutes.
		t.Skip("explores thousands of states: checked by the run without the race detector")
	}
	for _, engine := range drivers.Names() {
		t.Run(engine, func(t *testing.T) {
			verdicts(t, engine)
		})
	}
}

func verdicts(t *testing.T, engine string) {
	ext4, strict := crash.LinuxExt4(), crash.PosixStrict()
	cfg := func(journal, sync, full string) Config {
		return Config{Engine: engine, JournalMode: journal, Synchronous: sync, Fullfsync: full}
	}
	macos := func(c Config, build string) crash.Model {
		m, err := Mapping(c.Fullfsync, build)
		if err != nil {
			t.Fatal(err)
		}
		return crash.MacOS(m)
	}

	// WAL/FULL and DELETE/EXTRA: nothing lost, never corrupt, in both
	// Linux models; on macOS with F_FULLFSYNC, nothing lost either.
	for _, c := range []Config{cfg("wal", "full", "1"), cfg("delete", "extra", "1")} {
		log := recordCase(t, c)
		for _, m := range []crash.Model{ext4, strict, macos(c, "public")} {
			if r := explore(t, log, c, m, verdictStates); !r.Safe() {
				t.Errorf("%s under %s: %s; want safe", c.Name(), r.Model, r.Verdict())
			}
		}
	}

	// WAL/NORMAL: loses acknowledged commits, never corrupt.
	c := cfg("wal", "normal", "0")
	log := recordCase(t, c)
	for _, m := range []crash.Model{ext4, strict} {
		if r := explore(t, log, c, m, verdictStates); r.Lost == 0 || r.Corrupt != 0 {
			t.Errorf("%s under %s: %s; want lost commits, never corrupt", c.Name(), r.Model, r.Verdict())
		}
	}

	// DELETE/FULL: loses the last acknowledged commit, and only it, when the
	// cut drops the journal's unlink (made after the commit's last sync).
	c = cfg("delete", "full", "0")
	log = recordCase(t, c)
	for _, m := range []crash.Model{ext4, strict} {
		r := explore(t, log, c, m, verdictStates)
		if r.Lost == 0 || r.MaxLost != 1 || r.Corrupt != 0 {
			t.Errorf("%s under %s: %s; want the last commit lost, never corrupt", c.Name(), r.Model, r.Verdict())
			continue
		}
		f := r.SmallestLost
		if len(f.Deviations) != 1 || !strings.Contains(f.Deviations[0].String(), "unlink "+DBName+"-journal") {
			t.Errorf("%s under %s: smallest losing state %s drops %v; want only the journal's unlink", c.Name(), r.Model, f.ID, f.Deviations)
		}
	}

	// synchronous=OFF: corrupt states.
	c = cfg("delete", "off", "0")
	log = recordCase(t, c)
	if r := explore(t, log, c, ext4, verdictStates); r.Corrupt == 0 {
		t.Errorf("%s under %s: %s; want corrupt states", c.Name(), r.Model, r.Verdict())
	}

	// macos, fullfsync=0: fsync persists nothing, commits are lost.
	c = cfg("wal", "full", "0")
	log = recordCase(t, c)
	if r := explore(t, log, c, macos(c, "public"), verdictStates); r.Lost == 0 {
		t.Errorf("%s under %s: %s; want lost commits", c.Name(), r.Model, r.Verdict())
	}
}
