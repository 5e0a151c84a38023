package saved

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
)

func writeRun(t *testing.T, dir string, withEnvFile bool) {
	t.Helper()
	env := envinfo.Env{ID: "abc123", OS: "darwin", FSType: "apfs"}
	recs := []results.Record{
		{Experiment: "sqlite", Params: results.Params{{Key: "engine", Value: "mattn"}}, Round: 1, N: 3},
		{Experiment: "sqlite", Params: results.Params{{Key: "engine", Value: "mattn"}}, Round: results.PooledRound, N: 3},
		{Experiment: "wal", Params: results.Params{{Key: "writers", Value: "1"}}, Round: results.PooledRound, N: 2},
	}
	var buf bytes.Buffer
	if err := results.WriteJSONLEnv(&buf, env); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJSONL(&buf, recs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, results.JSONLFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if withEnvFile {
		// A different record tells the two sources apart: env.json wins.
		b := []byte(`{"id":"def456","os":"linux","fs_type":"ext4"}`)
		if err := os.WriteFile(filepath.Join(dir, results.EnvFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadDirectory(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, true)
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Records) != 3 || !r.HasEnv || r.OS() != "linux" || r.Env.ID != "def456" {
		t.Fatalf("%d records, env %v %q %q; want 3 records and env.json's linux record", len(r.Records), r.HasEnv, r.OS(), r.Env.ID)
	}
	if got := Pooled(r.Records, "sqlite"); len(got) != 1 || got[0].Round != results.PooledRound {
		t.Errorf("pooled sqlite records: %+v", got)
	}
	if got := r.Of("wal"); len(got) != 1 {
		t.Errorf("wal records: %d, want 1", len(got))
	}
}

// A bare JSON Lines file without env.json beside it takes the environment
// line it opens with.
func TestLoadStreamEnvironment(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, false)
	r, err := Load(filepath.Join(dir, results.JSONLFile))
	if err != nil {
		t.Fatal(err)
	}
	if !r.HasEnv || r.OS() != "darwin" || r.Env.ID != "abc123" {
		t.Errorf("env %v %q %q: want the stream's darwin record", r.HasEnv, r.OS(), r.Env.ID)
	}
}

func TestLoadMissing(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); !errors.Is(err, ErrNoResults) {
		t.Errorf("empty directory: %v, want ErrNoResults", err)
	}
	if _, err := Load(filepath.Join(dir, "nothing")); err == nil {
		t.Error("a missing path loaded")
	}
}
