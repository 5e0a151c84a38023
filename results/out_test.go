package results

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durabench/durabench/internal/dirtest"
)

func TestCreateOutRefusesAnExistingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	o, err := CreateOut(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	_, err = CreateOut(dir)
	if !errors.Is(err, ErrOutExists) {
		t.Fatalf("second CreateOut(%s) error = %v, want ErrOutExists", dir, err)
	}
	if !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "choose a new path") {
		t.Errorf("error %q should name the directory and say to choose a new path", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateOut(file); !errors.Is(err, ErrOutExists) {
		t.Errorf("CreateOut on an existing file: error = %v, want ErrOutExists", err)
	}
}

func TestCreateOutNeedsTheParent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing", "out")
	_, err := CreateOut(dir)
	if err == nil || errors.Is(err, ErrOutExists) || !strings.Contains(err.Error(), "create it first") {
		t.Fatalf("CreateOut(%s) error = %v, want one saying to create the parent", dir, err)
	}
	if _, statErr := os.Stat(filepath.Dir(dir)); !errors.Is(statErr, os.ErrNotExist) {
		t.Fatalf("CreateOut created the missing parent: %v", statErr)
	}
	if _, err := CreateOut(""); err == nil {
		t.Fatal("CreateOut(\"\") succeeded")
	}
}

func TestOutNeverOverwritesAFile(t *testing.T) {
	for _, name := range []string{JSONLFile, BenchFile, CSVFile, EnvFile} {
		t.Run(name, func(t *testing.T) {
			o, err := CreateOut(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(o.Dir(), name)
			if err := os.WriteFile(path, []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if name == EnvFile {
				err = o.WriteEnv(map[string]string{"id": "env-1"})
			} else {
				err = o.Write(fixtureRecords())
			}
			if !errors.Is(err, os.ErrExist) || !strings.Contains(err.Error(), name) {
				t.Errorf("writing over %s: error = %v, want one naming the file and wrapping os.ErrExist", name, err)
			}
			if got, _ := os.ReadFile(path); string(got) != "precious\n" {
				t.Errorf("%s was overwritten: %q", name, got)
			}
			if err := o.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestOutWritesAndReadsBack(t *testing.T) {
	o, err := CreateOut(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	recs := fixtureRecords()
	if err := o.WriteBenchConfig([][2]string{{"goos", "linux"}, {"fs", "ext4"}}); err != nil {
		t.Fatal(err)
	}
	// Rounds in one Write, their pooled record in the next: the bench file
	// must still leave the pooled record out. The first Write holds every
	// parameter and metric, as the CSV columns require.
	for _, batch := range [][]Record{append(recs[:2:2], recs[5:]...), recs[2:5], nil} {
		if err := o.Write(batch); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]any{"id": "env-1", "fs": "ext4"}
	if err := o.WriteEnv(env); err != nil {
		t.Fatal(err)
	}
	if err := o.WriteEnv(env); err == nil || !strings.Contains(err.Error(), "written already") {
		t.Errorf("second WriteEnv: error = %v", err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := o.Write(recs); err == nil || !strings.Contains(err.Error(), "after Close") {
		t.Errorf("Write after Close: error = %v", err)
	}

	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(o.Dir(), name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	envs, back, err := ReadJSONLStream(bytes.NewReader(read(JSONLFile)))
	if err != nil || len(back) != len(recs) {
		t.Fatalf("%s: %d records, %v; want %d", JSONLFile, len(back), err, len(recs))
	}
	if len(envs) != 1 || string(envs[0]) != `{"fs":"ext4","id":"env-1"}` {
		t.Errorf("%s holds environments %q, want the one WriteEnv wrote", JSONLFile, envs)
	}
	if back[2].Experiment != "wal" || back[4].Round != PooledRound {
		t.Errorf("%s does not hold the records in the order written", JSONLFile)
	}

	rows, err := csv.NewReader(bytes.NewReader(read(CSVFile))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(recs) || rows[0][0] != "experiment" || rows[3][0] != "wal" || rows[5][0] != "sync" {
		t.Errorf("%s: %d rows (first %v), want one header then %d records in order", CSVFile, len(rows), rows[0], len(recs))
	}
	wantHeader, _ := layoutOf(recs).header()
	if strings.Join(rows[0], ",") != strings.Join(wantHeader, ",") {
		t.Errorf("%s header = %v, want %v", CSVFile, rows[0], wantHeader)
	}

	bench := string(read(BenchFile))
	if !strings.HasPrefix(bench, "goos: linux\nfs: ext4\n"+benchUnits) {
		t.Errorf("%s does not start with the config and unit lines:\n%s", BenchFile, bench)
	}
	if n := strings.Count(bench, "BenchmarkSync/workload=overwrite/bs=4K/method=fdatasync\t"); n != 2 {
		t.Errorf("%s has %d overwrite lines, want the 2 rounds only:\n%s", BenchFile, n, bench)
	}
	if n := len(parseBench(t, bench)); n != 5 {
		t.Errorf("%s has %d results, want 5", BenchFile, n)
	}

	var gotEnv map[string]any
	if err := json.Unmarshal(read(EnvFile), &gotEnv); err != nil || gotEnv["fs"] != "ext4" {
		t.Errorf("%s = %v, %v", EnvFile, gotEnv, err)
	}
	if !bytes.Contains(read(EnvFile), []byte("\n  \"fs\": \"ext4\"")) {
		t.Errorf("%s is not indented:\n%s", EnvFile, read(EnvFile))
	}
}

func TestOutRefusesANewCSVColumnButKeepsTheRecords(t *testing.T) {
	o, err := CreateOut(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	recs := fixtureRecords()
	if err := o.Write(recs[:1]); err != nil {
		t.Fatal(err)
	}
	err = o.Write(recs[5:6]) // the wal record brings new params and metrics
	if err == nil || !strings.Contains(err.Error(), `parameter "writers"`) || !strings.Contains(err.Error(), CSVFile) {
		t.Fatalf("Write with a new parameter: error = %v, want one naming it and %s", err, CSVFile)
	}
	b, _ := os.ReadFile(filepath.Join(o.Dir(), JSONLFile))
	if back, _ := ReadJSONL(bytes.NewReader(b)); len(back) != 2 {
		t.Errorf("%s holds %d records, want both", JSONLFile, len(back))
	}
	b, _ = os.ReadFile(filepath.Join(o.Dir(), CSVFile))
	if rows, _ := csv.NewReader(bytes.NewReader(b)).ReadAll(); len(rows) != 2 {
		t.Errorf("%s has %d rows, want the header and the first record only", CSVFile, len(rows))
	}
}

// A failed run's output (issue 10: a stub env.json and bench header that
// blocked the rerun) leaves nothing behind: not at the output path, not
// beside it.
func TestAbortLeavesNothing(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	o, err := CreateOut(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.WriteEnv(map[string]string{"os": "linux"}); err != nil {
		t.Fatal(err)
	}
	if err := o.WriteBenchConfig([][2]string{{"goos", "linux"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the output path exists before Commit: %v", err)
	}
	if err := o.Abort(); err != nil {
		t.Fatal(err)
	}
	if names := dirtest.Names(t, parent); len(names) != 0 {
		t.Fatalf("Abort left %q in the parent", names)
	}
	// The rerun is not blocked.
	o2, err := CreateOut(dir)
	if err != nil {
		t.Fatalf("rerun refused after an aborted run: %v", err)
	}
	if err := o2.Commit(); err != nil {
		t.Fatal(err)
	}
	if names := dirtest.Names(t, parent); strings.Join(names, ",") != "out" {
		t.Fatalf("after Commit the parent holds %q, want only out", names)
	}
}

// Commit never replaces what appeared at the output path meanwhile, even an
// empty directory (which rename(2) alone would replace), and says where the
// results are.
func TestCommitRefusesAPathThatAppeared(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	o, err := CreateOut(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.WriteEnv(map[string]string{"os": "linux"}); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	err = o.Commit()
	if !errors.Is(err, ErrOutExists) || !strings.Contains(err.Error(), o.Dir()) {
		t.Fatalf("Commit over a directory that appeared: %v, want ErrOutExists naming %s", err, o.Dir())
	}
	if names := dirtest.Names(t, dir); len(names) != 0 {
		t.Errorf("Commit wrote into the directory that appeared: %q", names)
	}
	if _, err := os.Stat(filepath.Join(o.Dir(), EnvFile)); err != nil {
		t.Errorf("the results are not where the error says: %v", err)
	}
}

// CommitPartial marks the output with PartialFile and its reason.
func TestCommitPartialMarksTheOutput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	o, err := CreateOut(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.CommitPartial("interrupted by SIGINT after 3 of 8 rounds"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, PartialFile))
	if err != nil || string(b) != "interrupted by SIGINT after 3 of 8 rounds\n" {
		t.Fatalf("%s = %q, %v", PartialFile, b, err)
	}
}
