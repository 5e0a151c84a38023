package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Invariants:
//   - An Out's directory did not exist before CreateOut made it: a run never
//     mixes its files with an earlier run's.
//   - Every file is created with O_CREATE|O_EXCL on first use, so nothing is
//     ever overwritten, not even a file that appeared in the directory since.
//   - results.csv's header is written once, by the first Write, and fixes its
//     columns (see csv.go).
//   - Close makes the files durable (os.File.Sync, which is F_FULLFSYNC on
//     darwin: here we want the strongest promise, not a measurement) and
//     syncs the directory so their names survive a crash too.

// ErrOutExists is returned (wrapped) by CreateOut when the output directory
// already exists.
var ErrOutExists = errors.New("output directory already exists")

// The files of an output directory.
const (
	CSVFile   = "results.csv"
	JSONLFile = "results.jsonl"
	BenchFile = "results.bench.txt"
	EnvFile   = "env.json"
)

// Out is a run's output directory. Its methods are not safe for concurrent
// use.
type Out struct {
	dir                string
	csv, jsonl, bench  *os.File
	csvLayout          csvLayout
	envWritten, closed bool
	perRound           map[string]bool // cases with per-round records in the bench file
}

// CreateOut makes the output directory dir, which must not exist yet (the
// error then wraps ErrOutExists) and whose parent must.
func CreateOut(dir string) (*Out, error) {
	if dir == "" {
		return nil, errors.New("results: output directory is empty; give a new path")
	}
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("results: %s: %w; choose a new path, results are never overwritten", dir, ErrOutExists)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("results: checking output directory: %w", err)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if fi, err := os.Stat(parent); err != nil {
		return nil, fmt.Errorf("results: parent of output directory %s: %w; create it first", dir, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("results: parent of output directory %s is not a directory: %s", dir, parent)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) { // appeared since the check
			return nil, fmt.Errorf("results: %s: %w; choose a new path, results are never overwritten", dir, ErrOutExists)
		}
		return nil, fmt.Errorf("results: creating output directory: %w", err)
	}
	return &Out{dir: dir, perRound: map[string]bool{}}, nil
}

// Dir returns the output directory's path.
func (o *Out) Dir() string { return o.dir }

// create makes a new file in the directory, refusing to replace one.
func (o *Out) create(name string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(o.dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results: creating %s (never overwritten): %w", name, err)
	}
	return f, nil
}

// ensure opens *f as a new file on first use and reports whether it did.
func (o *Out) ensure(f **os.File, name string) (created bool, err error) {
	if o.closed {
		return false, fmt.Errorf("results: writing %s after Close", name)
	}
	if *f != nil {
		return false, nil
	}
	*f, err = o.create(name)
	return err == nil, err
}

// Write appends recs to results.jsonl, results.bench.txt and results.csv.
// The first Write with records fixes the CSV columns: give it records of
// every parameter and metric the run will write, or write all records at
// once. A pooled record goes to the bench file only if its case had no
// per-round record so far (see bench.go), so write rounds before or with
// their pooled record.
func (o *Out) Write(recs []Record) error {
	if len(recs) == 0 {
		return nil
	}
	if _, err := o.ensure(&o.jsonl, JSONLFile); err != nil {
		return err
	}
	if err := WriteJSONL(o.jsonl, recs); err != nil {
		return fmt.Errorf("results: writing %s: %w", JSONLFile, err)
	}

	created, err := o.ensure(&o.bench, BenchFile)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if created {
		buf.WriteString(benchUnits)
	}
	appendBenchResults(&buf, recs, o.perRound)
	if _, err := o.bench.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("results: writing %s: %w", BenchFile, err)
	}

	layout, header := o.csvLayout, []string(nil)
	if o.csv == nil {
		layout = layoutOf(recs)
		if header, err = layout.header(); err != nil {
			return err
		}
	}
	if _, err := o.ensure(&o.csv, CSVFile); err != nil {
		return err
	}
	o.csvLayout = layout
	if err := writeCSVRows(o.csv, layout, header, recs); err != nil {
		return fmt.Errorf("results: writing %s: %w", CSVFile, err)
	}
	return nil
}

// WriteBenchConfig appends "key: value" configuration lines (goos, fs,
// device, kernel, ...) to results.bench.txt; they apply to the results
// written after them, so call it before the first Write.
func (o *Out) WriteBenchConfig(config [][2]string) error {
	var buf bytes.Buffer
	if err := appendBenchConfig(&buf, config); err != nil {
		return err
	}
	created, err := o.ensure(&o.bench, BenchFile)
	if err != nil {
		return err
	}
	if created {
		buf.WriteString(benchUnits)
	}
	if _, err := o.bench.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("results: writing %s: %w", BenchFile, err)
	}
	return nil
}

// WriteEnv writes env as indented JSON to env.json, once, and as the
// environment line that opens results.jsonl (see WriteJSONLEnv), so that
// the JSON Lines file stands alone too.
func (o *Out) WriteEnv(env any) error {
	switch {
	case o.closed:
		return fmt.Errorf("results: writing %s after Close", EnvFile)
	case o.envWritten:
		return fmt.Errorf("results: %s written already; write the environment once", EnvFile)
	}
	b, err := json.MarshalIndent(env, "", "  ")
	if err != nil {
		return fmt.Errorf("results: encoding the environment: %w", err)
	}
	f, err := o.create(EnvFile)
	if err != nil {
		return err
	}
	o.envWritten = true
	_, err = f.Write(append(b, '\n'))
	if err := errors.Join(err, f.Sync(), f.Close()); err != nil {
		return err
	}
	if _, err := o.ensure(&o.jsonl, JSONLFile); err != nil {
		return err
	}
	if err := WriteJSONLEnv(o.jsonl, env); err != nil {
		return fmt.Errorf("results: writing %s: %w", JSONLFile, err)
	}
	return nil
}

// Close syncs and closes the files and syncs the directory. Calling it
// again does nothing.
func (o *Out) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	var errs []error
	for _, f := range []*os.File{o.jsonl, o.bench, o.csv} {
		if f != nil {
			errs = append(errs, f.Sync(), f.Close())
		}
	}
	d, err := os.Open(o.dir)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	errs = append(errs, d.Sync(), d.Close())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("results: closing %s: %w", o.dir, err)
	}
	return nil
}
