// Package report turns a run's records and environment into a Markdown
// report and one self-contained HTML page with SVG plots: latency
// histograms per sync method on a whole-millisecond grid, their CDFs, the
// group-commit curve with its knee, the SQLite matrix with what each
// configuration risks, and the neighbor interference, under the
// environment and its warnings.
//
// The HTML page needs no network when viewed: its plots are inline SVG,
// its style and its one script (which counts the plots the browser drew)
// are inline too.
package report

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

// Input is what a report is made from.
type Input struct {
	Env     envinfo.Env
	Records []results.Record
	// Partial says the run was interrupted: the figures are those of the
	// cases that finished.
	Partial bool
}

// Plot is one drawn figure.
type Plot struct {
	Name    string // file name without extension: sync-hist-fsync
	Title   string
	Caption string
	SVG     []byte
}

// Table is a table of figures, its cells already formatted.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
}

// Section is one experiment's part of the report.
type Section struct {
	Title  string
	Intro  string
	Plots  []Plot
	Tables []Table
	// Beside is a table shown next to the plot of the same index (the
	// SQLite matrix's risks), or nil.
	Beside []*Table
}

// Report is a built report, ready to write.
type Report struct {
	Input
	Sections []Section
}

// Files of a report directory.
const (
	MarkdownFile = "report.md"
	HTMLFile     = "report.html"
	PlotDir      = "plots"
)

// ErrNoRecords is returned (wrapped) by Load when a directory has no
// results to report on.
var ErrNoRecords = errors.New("no results to report on")

// Load reads a results directory written by a measuring command:
// env.json and results.jsonl.
func Load(dir string) (Input, error) {
	var in Input
	b, err := os.ReadFile(filepath.Join(dir, results.EnvFile))
	if err != nil {
		return in, fmt.Errorf("report: %w; give a results directory a measuring command wrote", err)
	}
	if err := json.Unmarshal(b, &in.Env); err != nil {
		return in, fmt.Errorf("report: %s: %w", filepath.Join(dir, results.EnvFile), err)
	}
	f, err := os.Open(filepath.Join(dir, results.JSONLFile))
	if err != nil {
		return in, fmt.Errorf("report: %w; give a results directory a measuring command wrote", err)
	}
	defer f.Close()
	if in.Records, err = results.ReadJSONL(f); err != nil {
		return in, fmt.Errorf("report: %s: %w", f.Name(), err)
	}
	if len(in.Records) == 0 {
		return in, fmt.Errorf("report: %s: %w", f.Name(), ErrNoRecords)
	}
	in.Partial = isPartial(dir, in.Records)
	return in, nil
}

// isPartial reports whether the results are marked as those of an
// interrupted run: results.PartialFile in the directory, or a record noting it.
func isPartial(dir string, recs []results.Record) bool {
	if _, err := os.Stat(filepath.Join(dir, results.PartialFile)); err == nil {
		return true
	}
	for _, r := range recs {
		for _, n := range r.Notes {
			if n == PartialNote {
				return true
			}
		}
	}
	return false
}

// PartialNote is the note on every record of an interrupted run.
const PartialNote = "partial: the run was interrupted; only cases that finished are here"

// Build draws the plots and lays out the tables of in.
func Build(in Input) (*Report, error) {
	r := &Report{Input: in}
	builders := []func([]results.Record) (*Section, error){syncSection, walSection, sqliteSection, neighborSection, otherSection}
	for _, b := range builders {
		s, err := b(in.Records)
		if err != nil {
			return nil, err
		}
		if s != nil {
			r.Sections = append(r.Sections, *s)
		}
	}
	if len(r.Sections) == 0 {
		return nil, fmt.Errorf("report: %w", ErrNoRecords)
	}
	return r, nil
}

// Plots returns the number of plots in the report.
func (r *Report) Plots() int {
	n := 0
	for _, s := range r.Sections {
		n += len(s.Plots)
	}
	return n
}

// Write builds the report of in and writes report.md, report.html and
// plots/*.svg into dir, creating dir if it does not exist (its parent
// must). No file is ever overwritten: if one exists, Write fails.
func Write(dir string, in Input) (*Report, error) {
	r, err := Build(in)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("report: creating %s: %w", dir, err)
	}
	for _, name := range []string{MarkdownFile, HTMLFile, PlotDir} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return nil, fmt.Errorf("report: %s exists already in %s: reports are never overwritten; choose a new directory", name, dir)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, PlotDir), 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	for _, s := range r.Sections {
		for _, p := range s.Plots {
			if err := writeNew(filepath.Join(dir, PlotDir, p.Name+".svg"), p.SVG); err != nil {
				return nil, err
			}
		}
	}
	if err := writeNew(filepath.Join(dir, MarkdownFile), r.Markdown()); err != nil {
		return nil, err
	}
	html, err := r.HTML()
	if err != nil {
		return nil, err
	}
	if err := writeNew(filepath.Join(dir, HTMLFile), html); err != nil {
		return nil, err
	}
	return r, nil
}

// writeNew writes b to a new file at path, refusing to replace one.
func writeNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("report: %w (never overwritten)", err)
	}
	_, err = f.Write(b)
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err != nil {
		return fmt.Errorf("report: writing %s: %w", path, err)
	}
	return nil
}
