package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Invariants:
//   - The output directory did not exist before the run: a run never mixes
//     its files with an earlier run's.
//   - Outputs appear whole or not at all: every file is written into a new
//     hidden sibling directory (".NAME.partial-XXXX") and Commit renames it
//     to the output path only at the end, refusing to replace anything that
//     appeared there meanwhile. Abort, for a failed run, removes the files
//     it created and the hidden directory, so nothing is left at the output
//     path to block a rerun. An interrupted run that keeps what it measured
//     commits with CommitPartial, which marks the directory with PartialFile.
//   - Every file is created with O_CREATE|O_EXCL on first use, so nothing is
//     ever overwritten, not even a file that appeared in the directory since.
//   - results.csv's header is written once, by the first Write, and fixes its
//     columns (see csv.go).
//   - Commit makes the files durable (os.File.Sync, which is F_FULLFSYNC on
//     darwin: here we want the strongest promise, not a measurement) and
//     syncs the directories so their names survive a crash too.

// ErrOutExists is returned (wrapped) by CreateOut when the output directory
// already exists, and by Commit when one appeared while the run went on.
var ErrOutExists = errors.New("output directory already exists")

// The files of an output directory.
const (
	CSVFile   = "results.csv"
	JSONLFile = "results.jsonl"
	BenchFile = "results.bench.txt"
	EnvFile   = "env.json"
	// PartialFile marks the results of an interrupted run: it says why
	// they are partial.
	PartialFile = "PARTIAL.txt"
)

// Out is a run's output directory. Its methods are not safe for concurrent
// use.
type Out struct {
	final              string // the output path
	dir                string // where the files are: a hidden sibling until Commit
	created            []string
	csv, jsonl, bench  *os.File
	csvLayout          csvLayout
	envWritten, closed bool
	committed          bool
	perRound           map[string]bool // cases with per-round records in the bench file
}

// CreateOut starts the output directory dir, which must not exist yet (the
// error then wraps ErrOutExists) and whose parent must be a writable
// directory. Its files are written aside until Commit puts them at dir.
func CreateOut(dir string) (*Out, error) {
	if err := CheckOut(dir); err != nil {
		return nil, err
	}
	clean := filepath.Clean(dir)
	tmp, err := os.MkdirTemp(filepath.Dir(clean), "."+filepath.Base(clean)+".partial-")
	if err != nil {
		return nil, fmt.Errorf("results: creating the output directory beside %s: %w", dir, err)
	}
	return &Out{final: dir, dir: tmp, perRound: map[string]bool{}}, nil
}

// CheckOut returns an error, with what to do, unless dir is a new path in
// an existing, writable directory: what CreateOut needs. It creates nothing.
func CheckOut(dir string) error {
	if dir == "" {
		return errors.New("results: output directory is empty; give a new path")
	}
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("results: %s: %w; choose a new path, results are never overwritten", dir, ErrOutExists)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("results: checking output directory %s: %w", dir, err)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if fi, err := os.Stat(parent); err != nil {
		return fmt.Errorf("results: parent of output directory %s: %w; create it first", dir, err)
	} else if !fi.IsDir() {
		return fmt.Errorf("results: parent of output directory %s is not a directory: %s", dir, parent)
	}
	if err := syscall.Access(parent, 0x2|0x1); err != nil { // W_OK|X_OK; EROFS on a read-only mount
		return fmt.Errorf("results: cannot create output directory %s in %s (%v); name a directory you can write to", dir, parent, err)
	}
	return nil
}

// Dir returns where the output files are now: a hidden directory beside the
// output path until Commit, the output path after it.
func (o *Out) Dir() string { return o.dir }

// Path returns the output path the files are committed to.
func (o *Out) Path() string { return o.final }

// Create makes a new file name in the output directory, for outputs other
// than the records (reports); it refuses to replace one. The caller closes
// it before Commit.
func (o *Out) Create(name string) (*os.File, error) {
	if o.closed {
		return nil, fmt.Errorf("results: creating %s after the output was closed", name)
	}
	if name != filepath.Base(name) || name == "." || name == ".." {
		return nil, fmt.Errorf("results: %q is not a plain file name", name)
	}
	return o.create(name)
}

// create makes a new file in the directory, refusing to replace one.
func (o *Out) create(name string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(o.dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results: creating %s (never overwritten): %w", name, err)
	}
	o.created = append(o.created, name)
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

// Close commits the output: see Commit.
func (o *Out) Close() error { return o.Commit() }

// closeFiles syncs (if sync) and closes the open files, once.
func (o *Out) closeFiles(sync bool) error {
	if o.closed {
		return nil
	}
	o.closed = true
	var errs []error
	for _, f := range []*os.File{o.jsonl, o.bench, o.csv} {
		if f != nil {
			if sync {
				errs = append(errs, f.Sync())
			}
			errs = append(errs, f.Close())
		}
	}
	return errors.Join(errs...)
}

// Commit syncs and closes the files, then renames the directory to the
// output path, never over anything that appeared there since CreateOut
// (the error then wraps ErrOutExists and says where the results are), and
// syncs the parent. Calling it again does nothing.
func (o *Out) Commit() error {
	if o.committed {
		return nil
	}
	err := o.closeFiles(true)
	if err == nil {
		err = syncDir(o.dir)
	}
	if err != nil {
		return fmt.Errorf("results: closing %s: %w", o.dir, err)
	}
	if err := renameNoReplace(o.dir, o.final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("results: %s appeared while the run went on: %w; the results are in %s", o.final, ErrOutExists, o.dir)
		}
		return fmt.Errorf("results: moving %s to %s: %w; the results are in %s", o.dir, o.final, err, o.dir)
	}
	o.committed, o.dir = true, o.final
	if err := syncDir(filepath.Dir(filepath.Clean(o.final))); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// CommitPartial marks the output as partial, with reason (what stopped the
// run and what the files hold), in PartialFile, then commits it.
func (o *Out) CommitPartial(reason string) error {
	if o.committed {
		return errors.New("results: output committed already; mark it partial before committing")
	}
	f, err := o.Create(PartialFile)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, strings.TrimRight(reason, "\n"))
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("results: writing %s: %w", PartialFile, err)
	}
	return o.Commit()
}

// Abort closes the files and removes them and the hidden directory: a
// failed run leaves nothing behind. It removes only the files this Out
// created; if anything else appeared there, the directory stays and the
// error says so. After Commit it does nothing.
func (o *Out) Abort() error {
	if o.committed {
		return nil
	}
	o.committed = true // nothing more to do, whatever happens
	errs := []error{o.closeFiles(false)}
	for _, name := range o.created {
		if err := os.Remove(filepath.Join(o.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := os.Remove(o.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("results: removing the unfinished output %s: %w", o.dir, err)
	}
	return nil
}

// syncDir fsyncs a directory so that the names in it are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
