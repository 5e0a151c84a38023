package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/durabench/durabench/results"
)

func TestVersionFlagMatchesCommand(t *testing.T) {
	cmdOut, stderr, code := durabench(t, "version")
	if code != 0 {
		t.Fatalf("durabench version: exit %d: %s", code, stderr)
	}
	flagOut, _, code := durabench(t, "--version")
	if code != 0 || flagOut != cmdOut {
		t.Errorf("durabench --version: exit %d, output\n%s\nwant the same as durabench version:\n%s", code, flagOut, cmdOut)
	}
	for _, want := range []string{"module     github.com/durabench/durabench\n", "go         " + runtime.Version() + "\n", "engines    modernc, "} {
		if !strings.Contains(cmdOut, want) {
			t.Errorf("durabench version does not say %q:\n%s", want, cmdOut)
		}
	}
	if _, stderr, code := durabench(t, "version", "extra"); code != 2 || !strings.Contains(stderr, `unexpected arguments ["extra"]`) {
		t.Errorf("durabench version extra: exit %d, %q; want 2 and the refusal", code, stderr)
	}
}

// git runs git in dir and returns its trimmed output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("git %s: %v %s", strings.Join(args, " "), err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// cloneOfThisTree clones the repository this package is in and lays the work
// tree's current files over the clone, committing them if they differ, so
// that the clone holds the code under test at a known revision. It skips the
// test where there is no git or no repository.
func cloneOfThisTree(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot build from a clone")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not inside a git checkout: no revision to compare with")
	}
	src := strings.TrimSpace(string(top))
	clone := filepath.Join(t.TempDir(), "durabench")
	git(t, src, "clone", "-q", src, clone)
	for _, name := range strings.Split(git(t, src, "ls-files", "-z", "-c", "-o", "--exclude-standard"), "\x00") {
		if name == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, name))
		if os.IsNotExist(err) {
			os.Remove(filepath.Join(clone, name)) // deleted in the work tree
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(clone, name)), 0o755)
		if err := os.WriteFile(filepath.Join(clone, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, clone, "add", "-A")
	if git(t, clone, "status", "--porcelain") != "" {
		git(t, clone, "-c", "user.name=durabench test", "-c", "user.email=test@durabench.invalid", "commit", "-q", "-m", "the work tree under test")
	}
	return clone
}

// buildIn builds durabench in a clone with VCS stamping asked for (the
// environment may turn it off through GOFLAGS) and returns the binary.
func buildIn(t *testing.T, clone string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "durabench")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/durabench")
	build.Dir = clone
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in the clone: %v\n%s", err, out)
	}
	return bin
}

// run runs bin with args and returns its standard output.
func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("durabench %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// TestVersionOfABuildFromAClone builds durabench from a git clone, as a user
// would, and checks that the revision git reports is what the binary says
// and what its results record: env.json, the JSON Lines stream (on standard
// output and in --out) and the benchmark-format header.
func TestVersionOfABuildFromAClone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds durabench from a clone (seconds): not with -short")
	}
	clone := cloneOfThisTree(t)
	rev := git(t, clone, "rev-parse", "HEAD")
	bin := buildIn(t, clone)

	version := run(t, bin, "version")
	if !strings.Contains(version, "\nrevision   "+rev+"\n") {
		t.Errorf("durabench version does not print the clean revision %s:\n%s", rev, version)
	}
	if !strings.HasPrefix(version, "durabench  ") || !strings.Contains(strings.SplitN(version, "\n", 2)[0], rev[:12]) {
		t.Errorf("durabench version's first line does not carry the revision %s:\n%s", rev[:12], version)
	}
	if flag := run(t, bin, "--version"); flag != version {
		t.Errorf("--version printed\n%s\nwant\n%s", flag, version)
	}

	var env struct {
		Durabench struct {
			Revision string `json:"revision"`
			Modified bool   `json:"modified"`
			Engines  []string
		} `json:"durabench"`
	}
	if err := json.Unmarshal([]byte(run(t, bin, "env", "--json", "--dir", t.TempDir())), &env); err != nil {
		t.Fatal(err)
	}
	if env.Durabench.Revision != rev || env.Durabench.Modified || len(env.Durabench.Engines) == 0 {
		t.Errorf("env --json records build %+v, want revision %s, unmodified, with engines", env.Durabench, rev)
	}

	sync := []string{"sync", "--dir", t.TempDir(), "--workloads", "overwrite", "--block-sizes", "4K", "--methods", "none", "--iterations", "10", "--warmup", "0", "--rounds", "1"}
	stream := run(t, bin, append(sync, "--format", "jsonl")...)
	checkStream(t, "standard output", stream, rev)

	out := filepath.Join(t.TempDir(), "out")
	run(t, bin, append(sync, "--out", out)...)
	b, err := os.ReadFile(filepath.Join(out, "env.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &env); err != nil || env.Durabench.Revision != rev {
		t.Errorf("env.json records revision %q (%v), want %s", env.Durabench.Revision, err, rev)
	}
	b, err = os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	checkStream(t, "results.jsonl", string(b), rev)
	b, err = os.ReadFile(filepath.Join(out, "results.bench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\ndurabench-revision: "+rev+"\n") && !strings.HasPrefix(string(b), "durabench-revision: "+rev+"\n") {
		t.Errorf("results.bench.txt has no line durabench-revision: %s:\n%s", rev, b)
	}
	if !strings.Contains(string(b), "durabench-version: ") {
		t.Errorf("results.bench.txt has no durabench-version line:\n%s", b)
	}

	// An uncommitted change marks the build modified.
	if err := os.WriteFile(filepath.Join(clone, "uncommitted.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	version = run(t, buildIn(t, clone), "version")
	if !strings.Contains(version, "\nrevision   "+rev+" (modified: uncommitted changes)\n") || !strings.Contains(version, "+dirty") {
		t.Errorf("a build with an uncommitted file does not say it is modified:\n%s", version)
	}
}

// checkStream checks a JSON Lines stream: an environment line first that
// records revision rev, then records, each with schema_version 1.
func checkStream(t *testing.T, name, stream, rev string) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	var lines []map[string]json.RawMessage
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v in %s", name, err, sc.Text())
		}
		lines = append(lines, m)
	}
	if len(lines) < 2 {
		t.Fatalf("%s: %d lines, want an environment line and records", name, len(lines))
	}
	var env struct {
		Durabench struct{ Revision string } `json:"durabench"`
	}
	if err := json.Unmarshal(lines[0]["environment"], &env); err != nil || env.Durabench.Revision != rev {
		t.Errorf("%s: first line's environment records revision %q (%v), want %s", name, env.Durabench.Revision, err, rev)
	}
	for i, m := range lines {
		if string(m["schema_version"]) != "1" {
			t.Errorf("%s line %d: schema_version %s, want 1", name, i+1, m["schema_version"])
		}
	}
	envs, recs, err := results.ReadJSONLStream(strings.NewReader(stream))
	if err != nil || len(envs) != 1 || len(recs) != len(lines)-1 {
		t.Errorf("%s: ReadJSONLStream = %d environments, %d records, %v; want 1 and %d", name, len(envs), len(recs), err, len(lines)-1)
	}
}
