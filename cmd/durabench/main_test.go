package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/durabench/durabench/results"
)

// binary is durabench built once for the tests, which run it as a user would.
var binary string

func TestMain(m *testing.M) {
	// DURABENCH_TEST_BINARY runs the tests against another build, e.g. an
	// older one, to show which of them it fails.
	if b := os.Getenv("DURABENCH_TEST_BINARY"); b != "" {
		binary = b
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "durabench-cli-test-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "durabench")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building durabench: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// durabench runs the tool and returns its output and exit status.
func durabench(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runBinary(t, binary, args...)
}

// runBinary runs the durabench build bin with args and returns its output
// and exit status.
func runBinary(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// readRecords reads a run's results.jsonl.
func readRecords(t *testing.T, out string) []results.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := results.ReadJSONL(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// refusalDirs makes what a bad-input test starts from: a new directory
// base, checked for changes by checkRefusals; dir, an existing --dir in
// it; and existingOut, an --out that exists already.
func refusalDirs(t *testing.T) (base, dir, existingOut string) {
	t.Helper()
	base = t.TempDir()
	dir, existingOut = filepath.Join(base, "measure"), filepath.Join(base, "old-results")
	for _, d := range []string{dir, existingOut} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return base, dir, existingOut
}

// refusal is one bad input to a command and what its refusal must say.
type refusal struct {
	name string
	args []string
	want string
}

// checkRefusals runs command with the good flags ok followed by each
// refusal's args, and checks that each is refused as the tool promises: exit
// status 2, a message saying what was wrong, a pointer to --help, and no file
// created or changed anywhere under base.
func checkRefusals(t *testing.T, command string, ok []string, base string, refusals []refusal) {
	t.Helper()
	before := listing(t, base)
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{command}, ok...), tt.args...)
			_, stderr, code := durabench(t, args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2; stderr: %s", code, stderr)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q does not say %q", stderr, tt.want)
			}
			if !strings.Contains(stderr, "Run 'durabench "+command+" --help'") {
				t.Errorf("stderr does not point to --help: %q", stderr)
			}
			if after := listing(t, base); strings.Join(after, "\n") != strings.Join(before, "\n") {
				t.Errorf("refused input touched files: before %q, after %q", before, after)
			}
		})
	}
}

// listing names every entry below dir, to show that nothing was created.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		names = append(names, p)
		return nil
	})
	return names
}

func TestSyncRefusesBadInput(t *testing.T) {
	base, dir, existingOut := refusalDirs(t)
	file := filepath.Join(base, "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	ro := readOnlyDir(t, base)
	newOut := filepath.Join(base, "new-results")

	ok := []string{"--dir", dir, "--iterations", "10", "--warmup", "0", "--rounds", "1", "--block-sizes", "4K", "--out", newOut}
	refusals := []refusal{
		{"zero size", []string{"--block-sizes", "0"}, `invalid argument "0" for "--block-sizes" flag: size "0": must be greater than zero`},
		{"negative size", []string{"--block-sizes=-4K"}, "want a positive whole number"},
		{"unknown unit", []string{"--block-sizes", "4X"}, `unknown unit "x"`},
		{"unknown method", []string{"--methods", "fsnyc"}, `invalid argument "fsnyc" for "--methods" flag: unknown sync method "fsnyc": use one of none, fsync`},
		{"unknown workload", []string{"--workloads", "random"}, `invalid argument "random" for "--workloads" flag: workload "random": use one of append, fallocate, overwrite`},
		{"method not on this OS", []string{"--methods", "full"}, `"full" is macOS-only (fcntl F_FULLFSYNC); on linux use one of`},
		{"missing dir", []string{"--dir", filepath.Join(base, "nope")}, "--dir: directory " + filepath.Join(base, "nope") + " does not exist: create it first"},
		{"dir is a file", []string{"--dir", file}, "is not a directory"},
		{"read-only dir", []string{"--dir", ro}, "is not writable"},
		{"file below block", []string{"--file-size", "1K"}, "--file-size: file size 1K is below the block size 4K"},
		{"iterations 0", []string{"--iterations", "0"}, "--iterations: 0 measured writes: need at least one"},
		{"over fixed capacity", []string{"--workloads", "fallocate", "--file-size", "16K"}, "--file-size: fallocate at 4K needs 40K"},
		{"existing out", []string{"--out", existingOut}, "exists already: results are never overwritten"},
		{"unknown format", []string{"--format", "xml"}, `--format "xml": use one of table, csv, jsonl, bench`},
		{"unknown flag", []string{"--fast"}, "unknown flag: --fast"},
		{"bad threads", []string{"--threads", "two"}, `invalid argument "two" for "--threads" flag: "two" is not a whole number`},
		{"stray argument", []string{"now"}, `unexpected arguments ["now"]`},
	}
	checkRefusals(t, "sync", ok, base, refusals)
}

func TestSyncWritesOutputsAndNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "run1")
	args := []string{"sync", "--dir", dir, "--out", out, "--workloads", "overwrite,append", "--block-sizes", "4K,64K",
		"--methods", "none,fdatasync", "--iterations", "20", "--warmup", "2", "--rounds", "2"}
	stdout, stderr, code := durabench(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Median (p50) write + sync", "workload   size", "overwrite  64K", "fdatasync(2)", "promise: on stable storage", "Environment"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, name := range []string{"results.csv", "results.jsonl", "results.bench.txt", "env.json", "report.txt"} {
		if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", name, err)
		}
	}
	recs := readRecords(t, out)
	// 2 workloads × 2 sizes × 2 methods, each 2 rounds + pooled.
	if len(recs) != 8*3 {
		t.Errorf("%d records, want 24", len(recs))
	}
	for _, r := range recs {
		if r.Experiment != "sync" || r.Env == "" || r.N == 0 {
			t.Errorf("bad record %+v", r)
		}
		if r.Round == results.PooledRound && r.N != 40 {
			t.Errorf("pooled record of %s has n=%d, want 40", r.Params, r.N)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the run left %d entries in --dir", len(entries))
	}

	saved, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
	_, stderr, code = durabench(t, args...)
	if code != 2 || !strings.Contains(stderr, "exists already") {
		t.Errorf("the same --out again: exit %d, %q", code, stderr)
	}
	if now, _ := os.ReadFile(filepath.Join(out, "results.jsonl")); !bytes.Equal(now, saved) {
		t.Error("a refused run changed the earlier results")
	}
}

func TestSyncFormats(t *testing.T) {
	dir := t.TempDir()
	base := []string{"sync", "--dir", dir, "--workloads", "overwrite", "--block-sizes", "4K", "--methods", "none", "--iterations", "10", "--warmup", "0", "--rounds", "2"}
	stdout, _, code := durabench(t, append(base, "--format", "bench")...)
	if code != 0 || !strings.Contains(stdout, "BenchmarkSync/workload=overwrite/block_size=4K/method=none/") || !strings.Contains(stdout, "goos: linux") {
		t.Errorf("bench format: exit %d, output %q", code, stdout)
	}
	stdout, _, code = durabench(t, append(base, "--format", "csv")...)
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], "experiment,workload,block_size,method") {
		t.Errorf("csv format: exit %d, output %q", code, stdout)
	}
}

func TestEnvWarnsOnTmpfs(t *testing.T) {
	stdout, stderr, code := durabench(t, "env", "--dir", "/dev/shm")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "Warning: /dev/shm is tmpfs: data lives in memory and sync is a no-op") {
		t.Errorf("no tmpfs warning in:\n%s", stdout)
	}
}

func TestInterruptRemovesRun(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "sync", "--dir", dir, "--workloads", "overwrite", "--block-sizes", "4K", "--methods", "fdatasync",
		"--iterations", "1000000", "--warmup", "0", "--rounds", "1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The first progress line comes once the run directory exists.
	if _, err := bufio.NewReader(stderr).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("want the run directory in --dir while running, found %d entries", len(entries))
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("interrupted run ended with %v, want exit 130", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d entries left in --dir after SIGINT", len(entries))
	}
}

// TestUnknownCommandAndHelp: an unknown command exits 2 and lists exactly
// the public commands, none of the child roles; every public command has a
// --help with examples, and the overview lists no role either.
func TestUnknownCommandAndHelp(t *testing.T) {
	_, stderr, code := durabench(t, "snyc")
	want := `durabench: unknown command "snyc"; commands: ` + strings.Join(commandNames(), ", ") + "\n"
	if code != 2 || stderr != want {
		t.Errorf("unknown command: exit %d, %q; want 2 and %q", code, stderr, want)
	}
	if !strings.Contains(stderr, "commands: suite, sync, wal, sqlite, env, neighbor, trace") {
		t.Errorf("unknown command does not list the public commands: %q", stderr)
	}
	overview, _, code := durabench(t, "--help")
	if code != 0 || !strings.Contains(overview, "Commands:") {
		t.Fatalf("--help: exit %d, %q", code, overview)
	}
	if len(roles) < 4 {
		t.Errorf("%d child roles registered, want the three counting roles and the neighbor", len(roles))
	}
	for name := range roles {
		if strings.Contains(stderr, name) || strings.Contains(overview, name) || slices.Contains(commandNames(), name) {
			t.Errorf("child role %s is listed to users", name)
		}
	}
	if strings.Contains(stderr, "__") || strings.Contains(overview, "__") {
		t.Errorf("a child role is listed:\n%s\n%s", stderr, overview)
	}
	for _, c := range commands {
		stdout, _, code := durabench(t, c.name, "--help")
		if code != 0 || !strings.Contains(stdout, "Examples:") || !strings.Contains(stdout, "durabench "+c.name) {
			t.Errorf("%s --help: exit %d, no examples in %q", c.name, code, stdout)
		}
	}
}

// TestSuite runs the README's main job as written, in a new directory.
func TestSuite(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "suite")
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("durabench suite: %v\n%s", err, errb.String())
	}
	for _, want := range []string{
		"Directory       " + dir,
		"== Sync methods (durabench sync)",
		"Median (p50) write + sync",
		"== Write-ahead log and group commit (durabench wal)",
		"verified 7040 records",
		"== SQLite commits (durabench sqlite)",
		"What each engine gives a user who sets nothing",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("suite output lacks %q", want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("suite left %d entries in the current directory", len(entries))
	}
}
