// Package saved reads back what a measuring command wrote to its --out
// directory: the records of results.jsonl and the environment of env.json.
// advise, compare and report all start from it.
package saved

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
)

// Run is one saved run: where it came from, its records, and the
// environment it was measured in.
type Run struct {
	// Path is the directory or file it was read from, as given.
	Path string
	// Records are every record of results.jsonl, in file order.
	Records []results.Record
	// Env is env.json; HasEnv is false when the run has none (a bare
	// JSONL file given without its directory).
	Env    envinfo.Env
	HasEnv bool
}

// ErrNoResults is wrapped by Load's error when the path holds no
// results.jsonl.
var ErrNoResults = errors.New("no results")

// Load reads a saved run from path: an --out directory (its results.jsonl
// and env.json), or a JSON Lines file (and the env.json beside it, or else
// the environment line the stream opens with, if any).
func Load(path string) (Run, error) {
	run := Run{Path: path}
	fi, err := os.Stat(path)
	if err != nil {
		return run, fmt.Errorf("saved: %w: give a results directory of durabench (with %s and %s) or its %s", err, results.JSONLFile, results.EnvFile, results.JSONLFile)
	}
	jsonl, envPath := path, filepath.Join(filepath.Dir(path), results.EnvFile)
	if fi.IsDir() {
		jsonl, envPath = filepath.Join(path, results.JSONLFile), filepath.Join(path, results.EnvFile)
	}
	f, err := os.Open(jsonl)
	if errors.Is(err, fs.ErrNotExist) {
		return run, fmt.Errorf("saved: %s: %w (%s missing): give the results directory a measuring command wrote", path, ErrNoResults, results.JSONLFile)
	}
	if err != nil {
		return run, fmt.Errorf("saved: %w", err)
	}
	defer f.Close()
	envs, recs, err := results.ReadJSONLStream(f)
	if err != nil {
		return run, fmt.Errorf("saved: %s: %w", jsonl, err)
	}
	run.Records = recs
	b, err := os.ReadFile(envPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && len(envs) > 0:
		b = envs[0] // a stream that carries its environment line
	case errors.Is(err, fs.ErrNotExist):
		return run, nil
	case err != nil:
		return run, fmt.Errorf("saved: %w", err)
	}
	if err := json.Unmarshal(b, &run.Env); err != nil {
		return run, fmt.Errorf("saved: %s: %w", envPath, err)
	}
	run.HasEnv = true
	return run, nil
}

// Of returns the records of experiment, in file order.
func (r Run) Of(experiment string) []results.Record {
	var out []results.Record
	for _, rec := range r.Records {
		if rec.Experiment == experiment {
			out = append(out, rec)
		}
	}
	return out
}

// Pooled returns the pooled records of experiment: one per case. A case
// with rounds but no pooled record is left out.
func Pooled(recs []results.Record, experiment string) []results.Record {
	var out []results.Record
	for _, rec := range recs {
		if rec.Experiment == experiment && rec.Round == results.PooledRound {
			out = append(out, rec)
		}
	}
	return out
}

// OS returns the operating system the run was measured on, or "" if the
// run has no environment record.
func (r Run) OS() string {
	if !r.HasEnv {
		return ""
	}
	return r.Env.OS
}
