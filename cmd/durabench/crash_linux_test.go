//go:build linux && (amd64 || arm64)

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durabench/durabench/results"
)

// renamer builds crash/testdata/renamer, the rename-without-fsync program.
func renamer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "renamer")
	build := exec.Command("go", "build", "-o", bin, "../../crash/testdata/renamer")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build renamer: %v\n%s", err, out)
	}
	return bin
}

// crashRun runs durabench crash run on the renamer and returns its records
// by model.
func crashRun(t *testing.T, bin string, extra []string, save ...string) map[string]results.Record {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	args := append([]string{"crash", "run", "--dir", t.TempDir(), "--states", "300", "--out", out, "--check", bin + " check {dir} {acked}"}, extra...)
	args = append(append(args, "--", bin, "save"), save...)
	_, stderr, code := durabench(t, args...)
	if code != 0 {
		t.Fatalf("crash run: exit %d\n%s", code, stderr)
	}
	recs := map[string]results.Record{}
	for _, r := range readRecords(t, out) {
		if r.Experiment != "crash" {
			t.Errorf("record of experiment %q", r.Experiment)
		}
		recs[r.Params.Get("model")] = r
	}
	return recs
}

// crash run finds the rename-without-fsync bug and passes the fixed
// program, as the models say it must:
//   - the bug (write settings.tmp, rename it over settings, fsync the
//     directory; the file's data never synced): under linux-ext4 the
//     directory's fsync commits the rename in the journal and under
//     posix-strict it makes the rename durable, while the data is not, so
//     a cut can leave settings empty (corrupt) and the acknowledged
//     versions lost;
//   - the fix (fsync settings.tmp before the rename, the directory after):
//     every state holds a whole version, at least the acknowledged one,
//     in both Linux models;
//   - under macos the same fsyncs persist nothing, so even the fix loses
//     versions, unless its fsyncs stand for F_FULLFSYNC.
func TestCrashRunRenameWithoutFsync(t *testing.T) {
	if testing.Short() {
		t.Skip("records programs under ptrace")
	}
	bin := renamer(t)
	bug := crashRun(t, bin, nil, "5")
	for _, m := range []string{"linux-ext4", "posix-strict", "macos"} {
		r, ok := bug[m]
		if !ok {
			t.Fatalf("no record for model %s: %v", m, bug)
		}
		if r.Metrics["lost_states"] == 0 || r.Metrics["corrupt_states"] == 0 || r.Metrics["max_lost"] != 5 {
			t.Errorf("the bug under %s: %v lost, %v corrupt, most lost %v; want states losing all 5 versions and empty (corrupt) files",
				m, r.Metrics["lost_states"], r.Metrics["corrupt_states"], r.Metrics["max_lost"])
		}
		if r.N < 300 {
			t.Errorf("%s: %d states checked, want at least 300", m, r.N)
		}
	}
	fixed := crashRun(t, bin, nil, "5", "--fixed")
	for _, m := range []string{"linux-ext4", "posix-strict"} {
		if r := fixed[m]; r.Metrics["lost_states"] != 0 || r.Metrics["corrupt_states"] != 0 {
			t.Errorf("the fix under %s: %v states lost versions, %v corrupt; want none (%v)", m, r.Metrics["lost_states"], r.Metrics["corrupt_states"], r.Notes)
		}
	}
	if r := fixed["macos"]; r.Metrics["lost_states"] == 0 {
		t.Errorf("the fix under macos with plain fsync: no state lost a version, but fsync persists nothing there")
	}
	full := crashRun(t, bin, []string{"--models", "macos", "--macos-map", "fsync=full"}, "5", "--fixed")
	if r, ok := full["macos[fsync=full]"]; !ok || r.Metrics["lost_states"] != 0 || r.Metrics["corrupt_states"] != 0 {
		t.Errorf("the fix under macos with fsync as F_FULLFSYNC: %v; want it safe", full)
	}
}

// The same seed gives the same table; a reported state rebuilds from its
// identifier into the directory named, holding what its verdict said.
func TestCrashRunReproducibleAndRebuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("records programs under ptrace")
	}
	bin := renamer(t)
	a := crashRun(t, bin, []string{"--models", "linux-ext4", "--seed", "9"}, "4")
	b := crashRun(t, bin, []string{"--models", "linux-ext4", "--seed", "9"}, "4")
	ra, rb := a["linux-ext4"], b["linux-ext4"]
	for _, k := range []string{"states", "distinct_states", "lost_states", "max_lost", "corrupt_states", "cuts"} {
		if ra.Metrics[k] != rb.Metrics[k] {
			t.Errorf("seed 9 twice: %s %v then %v", k, ra.Metrics[k], rb.Metrics[k])
		}
	}
	if strings.Join(ra.Notes, "|") != strings.Join(rb.Notes, "|") {
		t.Errorf("seed 9 twice, different notes:\n%q\n%q", ra.Notes, rb.Notes)
	}
	var id string
	for _, n := range ra.Notes {
		if s, ok := strings.CutPrefix(n, "smallest losing state: "); ok {
			id = s
		}
	}
	if id == "" {
		t.Fatalf("no losing state reported: %q", ra.Notes)
	}
	into := filepath.Join(t.TempDir(), "state")
	stdout, stderr, code := durabench(t, "crash", "run", "--dir", t.TempDir(), "--state", id, "--into", into, "--", bin, "save", "4")
	if code != 0 {
		t.Fatalf("rebuild %s: exit %d\n%s", id, code, stderr)
	}
	if !strings.Contains(stdout, id) {
		t.Errorf("rebuild output does not name the state:\n%s", stdout)
	}
	check := exec.Command(bin, "check", into, acked(t, stdout))
	out, err := check.Output()
	if err == nil || !strings.HasPrefix(string(out), "lost ") && !strings.HasPrefix(string(out), "corrupt ") {
		t.Errorf("the rebuilt losing state passes its check: %v %q", err, out)
	}
	if _, err := os.Stat(into); err != nil {
		t.Errorf("state directory: %v", err)
	}
}

// acked reads the acknowledged count from a rebuilt state's description.
func acked(t *testing.T, out string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if s, ok := strings.CutPrefix(line, "acknowledged before the cut: "); ok {
			return s
		}
	}
	t.Fatalf("no acknowledged count in %q", out)
	return ""
}

func TestCrashRefusesBadInput(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "measure")
	os.Mkdir(dir, 0o755)
	existing := filepath.Join(base, "exists")
	os.Mkdir(existing, 0o755)
	ok := []string{"run", "--dir", dir, "--check", "true"}
	refusals := []refusal{
		{"no command", nil, "give the command to record after --"},
		{"unknown model", []string{"--models", "ext3", "--", "true"}, `unknown persistence model "ext3"`},
		{"states 0", []string{"--states", "0", "--", "true"}, "--states 0"},
		{"torn", []string{"--torn", "zeros", "--", "true"}, `torn mode "zeros": use garbage or mix`},
		{"map without macos", []string{"--models", "linux-ext4", "--macos-map", "fsync=full", "--", "true"}, "add macos to --models"},
		{"bad map", []string{"--macos-map", "fsync=fulll", "--", "true"}, `unknown sync kind "fulll"`},
		{"check not found", []string{"--check", "no-such-checker", "--", "true"}, `"no-such-checker": executable file not found`},
		{"into exists", []string{"--state", "linux-ext4:1:2:3:abcdef01", "--into", existing, "--", "true"}, "exists already"},
		{"bad state", []string{"--state", "linux-ext4:1:2", "--into", filepath.Join(base, "new"), "--", "true"}, "bad state identifier"},
	}
	checkRefusals(t, "crash", ok, base, refusals)
	checkRefusals(t, "crash", []string{"wal", "--dir", dir}, base, []refusal{
		{"full without macos", []string{"--methods", "full", "--models", "linux-ext4"}, "judge it under the macos model"},
		{"unknown method", []string{"--methods", "fsnyc"}, `sync method "fsnyc": use fsync, fdatasync, full or barrier`},
		{"records", []string{"--records", "0"}, "--records 0"},
	})
	checkRefusals(t, "crash", []string{"show"}, base, []refusal{
		{"no id", nil, "give one state identifier"},
		{"not wal", []string{"--into", filepath.Join(base, "x"), "renamer@linux-ext4:1:2:3:abcdef01"}, "is not a log writer configuration"},
	})
}

// crash wal judges the recorded writer; crash show rebuilds a reported
// state and the checker gives it the verdict the table counted.
func TestCrashWALAndShow(t *testing.T) {
	if testing.Short() {
		t.Skip("records the writer under ptrace")
	}
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := durabench(t, "crash", "wal", "--dir", t.TempDir(), "--layouts", "append", "--io-modes", "buffered",
		"--methods", "fdatasync,full", "--records", "8", "--states", "300", "--out", out)
	if code != 0 {
		t.Fatalf("crash wal: exit %d\n%s", code, stderr)
	}
	byModel := map[string]results.Record{}
	for _, r := range readRecords(t, out) {
		byModel[r.Params.Get("model")] = r
		if got := r.Params.Get("config"); got != "wal/append/buffered/fdatasync/records=8" {
			t.Errorf("config %q", got)
		}
	}
	for _, m := range []string{"linux-ext4", "posix-strict", "macos[fdatasync=full]"} {
		if r, ok := byModel[m]; !ok || r.Metrics["lost_states"] != 0 || r.Metrics["corrupt_states"] != 0 || r.N < 300 {
			t.Errorf("%s: %+v; want 300 states, none losing or corrupt", m, r)
		}
	}
	plain := byModel["macos"]
	if plain.Metrics["lost_states"] == 0 || !strings.Contains(plain.Params.Get("mapping"), "fdatasync→fdatasync") {
		t.Fatalf("macos with plain fdatasync: %+v; want states losing records and the mapping named", plain)
	}
	var id string
	for _, n := range plain.Notes {
		if s, ok := strings.CutPrefix(n, "smallest losing state: "); ok {
			id = s
		}
	}
	into := filepath.Join(t.TempDir(), "state")
	stdout, stderr, code := durabench(t, "crash", "show", "--into", into, id)
	if code != 0 {
		t.Fatalf("crash show %s: exit %d\n%s", id, code, stderr)
	}
	if !strings.Contains(stdout, "verdict: lost ") || strings.Contains(stdout, "verdict: lost 0 ") {
		t.Errorf("crash show of a losing state does not show the loss:\n%s", stdout)
	}
	if _, err := os.Stat(into); err != nil {
		t.Errorf("state directory: %v", err)
	}
}

// A recorded program that fails is not judged: its log would be judged
// as if it had acknowledged everything it meant to.
func TestCrashRunRefusesFailedProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("records a program under ptrace")
	}
	bin := renamer(t)
	_, stderr, code := durabench(t, "crash", "run", "--dir", t.TempDir(), "--check", bin+" check", "--", bin, "save", "notanumber")
	if code != 1 || !strings.Contains(stderr, "ended with exit status 2; only a run that succeeds is judged") {
		t.Errorf("exit %d, stderr %q; want status 1 naming the program's exit status", code, stderr)
	}
}
