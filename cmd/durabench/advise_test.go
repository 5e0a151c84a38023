package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fixtures committed for the advise and compare packages' golden tests.
var (
	macosFixture = filepath.Join("..", "..", "internal", "advise", "testdata", "macos-reference")
	linuxFixture = filepath.Join("..", "..", "internal", "advise", "testdata", "linux-sqlite")
	walFixture   = filepath.Join("..", "..", "internal", "advise", "testdata", "linux-wal")
	ext4Fixture  = filepath.Join("..", "..", "internal", "compare", "testdata", "ext4")
	tmpfsFixture = filepath.Join("..", "..", "internal", "compare", "testdata", "tmpfs")
)

func TestAdviseRefusesBadInput(t *testing.T) {
	base := t.TempDir()
	empty := filepath.Join(base, "empty")
	os.Mkdir(empty, 0o755)
	from := func(dir string, args ...string) []string { return append([]string{"--from", dir}, args...) }
	checkRefusals(t, "advise", []string{"pragmas"}, base, []refusal{
		{"no durability", from(linuxFixture), "--durability is required"},
		{"bad durability", from(linuxFixture, "--durability", "meteor"), `durability "meteor": use app-crash, os-crash or power-loss`},
		{"bad engine", from(linuxFixture, "--durability", "power-loss", "--engine", "sqlite4"), `--engine "sqlite4"`},
		{"negative floor", from(linuxFixture, "--durability", "power-loss", "--min-commits", "-1"), "--min-commits -1"},
		{"no results", from(empty, "--durability", "power-loss"), "results.jsonl missing"},
		{"missing from", from(filepath.Join(base, "nope"), "--durability", "power-loss"), "no such file"},
		{"no sqlite in it", from(walFixture, "--durability", "power-loss"), "no sqlite results"},
		{"engine not measured", from(macosFixture, "--durability", "power-loss", "--engine", "modernc"), `engine "modernc" has no sqlite results`},
	})
	checkRefusals(t, "advise", []string{"group-commit"}, base, []refusal{
		{"no target", from(walFixture, "--max-p99", "2ms"), "--target-commits is required"},
		{"no p99", from(walFixture, "--target-commits", "1000"), "--max-p99 is required"},
		{"bad p99", from(walFixture, "--target-commits", "1000", "--max-p99", "soon"), `--max-p99 "soon"`},
		{"no wal in it", from(macosFixture, "--target-commits", "1000", "--max-p99", "2ms"), "no wal results"},
	})
	checkRefusals(t, "advise", nil, base, []refusal{
		{"no subject", nil, "name what to advise on: pragmas or group-commit"},
	})
	checkRefusals(t, "compare", nil, base, []refusal{
		{"one run", []string{ext4Fixture}, "give two or more saved runs"},
		{"not a run", []string{ext4Fixture, empty}, "results.jsonl missing"},
	})
}

// advise from the committed macOS run: fullfsync=1 on the public build,
// the mattn DSN with _sync, and Apple's barrier said out loud.
func TestAdvisePragmasFromSavedRun(t *testing.T) {
	stdout, stderr, code := durabench(t, "advise", "pragmas", "--durability", "power-loss", "--from", macosFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Use: WAL + FULL, fullfsync=1 on mattn: 331 commits/s", "_sync=FULL", "F_BARRIERFSYNC", "PRAGMA fullfsync=1;"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestAdviseGroupCommitFromSavedRun(t *testing.T) {
	stdout, stderr, code := durabench(t, "advise", "group-commit", "--target-commits", "1000", "--max-p99", "1s", "--from", walFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Use: ", "Records per sync ≈ arrival rate × sync time", "Group-commit curve"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// compare of two committed runs: ratios and significance marks.
func TestCompareSavedRuns(t *testing.T) {
	stdout, stderr, code := durabench(t, "compare", ext4Fixture, tmpfsFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"B/A", "×", " *", "Mann-Whitney U", "tmpfs"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// meaningBlock returns the lines of the "What this means" block in out.
func meaningBlock(out string) []string {
	_, block, ok := strings.Cut(out, "What this means:\n")
	if !ok {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		lines = append(lines, l)
	}
	return lines
}

// Every measuring command ends with a short "What this means" block: in
// the report on a terminal, beside the data (on standard error) for the
// machine formats.
func TestMeasuringCommandsSayWhatItMeans(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"sync", []string{"sync", "--dir", dir, "--methods", "none,fdatasync", "--workloads", "overwrite", "--block-sizes", "4K", "--iterations", "20", "--warmup", "2", "--rounds", "1"},
			"Cheapest sync that reaches stable storage here: fdatasync"},
		{"wal", []string{"wal", "--dir", dir, "--layouts", "initialized", "--io-modes", "buffered", "--methods", "fdatasync", "--block-sizes", "4K", "--writers", "1,4", "--iterations", "40", "--warmup", "4", "--rounds", "1", "--file-size", "1M"},
			"One writer, one fdatasync per record:"},
		{"sqlite", []string{"sqlite", "--dir", dir, "--engines", "modernc", "--journal-modes", "wal", "--synchronous", "normal,full", "--fullfsync", "0", "--commits", "20", "--wal-commits", "30", "--warmup", "2", "--rounds", "1"},
			"Fastest durable here (keeps every commit through a power loss): WAL + FULL on modernc"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := durabench(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			lines := meaningBlock(stdout)
			if len(lines) == 0 || len(lines) > 5 {
				t.Fatalf("%d lines in the block, want 1 to 5:\n%s", len(lines), stdout)
			}
			if !strings.Contains(strings.Join(lines, "\n"), tt.want) {
				t.Errorf("the block does not say %q:\n%s", tt.want, strings.Join(lines, "\n"))
			}
			// With --format csv standard output is data only.
			stdout, stderr, code = durabench(t, append(tt.args, "--format", "csv")...)
			if code != 0 {
				t.Fatalf("csv: exit %d: %s", code, stderr)
			}
			if strings.Contains(stdout, "What this means") || len(meaningBlock(stderr)) == 0 {
				t.Errorf("csv: the block belongs on standard error, not among the data")
			}
		})
	}
}

// By default a WAL case times 3,000 commits per round (enough for a
// checkpoint) and the others 500; --commits given alone sets both.
func TestSQLiteWALCommitsDefault(t *testing.T) {
	dir := t.TempDir()
	base := []string{"sqlite", "--dir", dir, "--engines", "modernc", "--journal-modes", "wal,delete", "--synchronous", "off", "--fullfsync", "0", "--rounds", "1", "--format", "jsonl"}
	for _, tt := range []struct {
		extra           []string
		wal, deleteMode int
	}{
		{nil, 3000, 500},
		{[]string{"--commits", "40"}, 40, 40},
		{[]string{"--commits", "40", "--wal-commits", "1100"}, 1100, 40},
	} {
		stdout, stderr, code := durabench(t, append(base, tt.extra...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.extra, code, stderr)
		}
		f := filepath.Join(t.TempDir(), "results.jsonl")
		os.WriteFile(f, []byte(stdout), 0o644)
		seen := 0
		for _, r := range readRecords(t, filepath.Dir(f)) {
			if r.Round != 1 {
				continue
			}
			seen++
			want := tt.deleteMode
			if r.Params.Get("journal_mode") == "wal" {
				want = tt.wal
			}
			if r.N != want {
				t.Errorf("%v: %s round 1 timed %d commits, want %d", tt.extra, r.Params.Get("journal_mode"), r.N, want)
			}
		}
		if seen != 2 {
			t.Errorf("%v: %d round-1 records, want one per journal mode", tt.extra, seen)
		}
	}
}
