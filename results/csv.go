package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Invariants:
//   - The columns are: experiment, one per parameter key (in first-seen
//     order), round, n, the stats columns (the write/sync ones always present,
//     empty where not measured), ops_per_sec, mib_per_sec, one per metric
//     (sorted), notes (joined with "; "), env.
//   - A record lacking a parameter or metric of the layout gets an empty cell;
//     a record with one the layout lacks is an error, never a silent drop.
//   - Column names are unique: a parameter or metric named like another
//     column is an error.

// csvLayout is the column set of a CSV file.
type csvLayout struct {
	params, metrics []string
}

// statsColumns are the stats columns, in order, with their JSON names.
var statsColumns = []string{
	"mean_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns", "min_ns", "std_ns",
	"write_mean_ns", "write_p50_ns", "write_p99_ns", "sync_mean_ns", "sync_p50_ns", "sync_p99_ns",
}

// layoutOf returns the columns that hold every record of recs.
func layoutOf(recs []Record) csvLayout {
	var l csvLayout
	metrics := map[string]bool{}
	for _, rec := range recs {
		for _, p := range rec.Params {
			if !slices.Contains(l.params, p.Key) {
				l.params = append(l.params, p.Key)
			}
		}
		for k := range rec.Metrics {
			metrics[k] = true
		}
	}
	l.metrics = slices.Sorted(maps.Keys(metrics))
	return l
}

// header returns the column names, or an error if two are the same.
func (l csvLayout) header() ([]string, error) {
	h := []string{"experiment"}
	h = append(h, l.params...)
	h = append(h, "round", "n")
	h = append(h, statsColumns...)
	h = append(h, "ops_per_sec", "mib_per_sec")
	h = append(h, l.metrics...)
	h = append(h, "notes", "env")
	seen := map[string]bool{}
	for _, c := range h {
		if seen[c] {
			return nil, fmt.Errorf("results: CSV column %q would appear twice; rename the parameter or metric", c)
		}
		seen[c] = true
	}
	return h, nil
}

// row returns rec's cells in the layout's columns.
func (l csvLayout) row(rec Record) ([]string, error) {
	for _, p := range rec.Params {
		if !slices.Contains(l.params, p.Key) {
			return nil, fmt.Errorf("record %s %s has parameter %q, which is not among the CSV columns fixed by the first write; give the first Write records with every parameter and metric", rec.Experiment, caseName(rec), p.Key)
		}
	}
	for k := range rec.Metrics {
		if !slices.Contains(l.metrics, k) {
			return nil, fmt.Errorf("record %s %s has metric %q, which is not among the CSV columns fixed by the first write; give the first Write records with every parameter and metric", rec.Experiment, caseName(rec), k)
		}
	}
	r := []string{rec.Experiment}
	for _, k := range l.params {
		r = append(r, rec.Params.Get(k))
	}
	t := rec.Stats.Total
	r = append(r, rec.Round.String(), strconv.Itoa(rec.N),
		formatFloat(t.Mean), itoa(t.P50), itoa(t.P90), itoa(t.P99), itoa(t.P999), itoa(t.Max), itoa(t.Min), formatFloat(t.Std))
	if s := rec.Stats; s.HasSplit {
		r = append(r, formatFloat(s.Write.Mean), itoa(s.Write.P50), itoa(s.Write.P99),
			formatFloat(s.Sync.Mean), itoa(s.Sync.P50), itoa(s.Sync.P99))
	} else {
		r = append(r, "", "", "", "", "", "")
	}
	r = append(r, formatFloat(rec.OpsPerSec), formatFloat(rec.MiBPerSec))
	for _, k := range l.metrics {
		if v, ok := rec.Metrics[k]; ok {
			r = append(r, formatFloat(v))
		} else {
			r = append(r, "")
		}
	}
	return append(r, strings.Join(rec.Notes, "; "), rec.Env), nil
}

// WriteCSV writes recs as CSV: a header, then one row per record (per-round
// and pooled alike), with the columns described at the top of csv.go.
func WriteCSV(w io.Writer, recs []Record) error {
	l := layoutOf(recs)
	h, err := l.header()
	if err != nil {
		return err
	}
	if err := writeCSVRows(w, l, h, recs); err != nil {
		return fmt.Errorf("results: writing CSV: %w", err)
	}
	return nil
}

// writeCSVRows writes the header h (unless nil) and recs' rows in layout l.
// It checks every record before writing any, so a refused batch leaves w
// untouched.
func writeCSVRows(w io.Writer, l csvLayout, h []string, recs []Record) error {
	rows := make([][]string, 0, len(recs)+1)
	if h != nil {
		rows = append(rows, h)
	}
	for _, rec := range recs {
		r, err := l.row(rec)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	return csv.NewWriter(w).WriteAll(rows)
}

// formatFloat writes v in the shortest decimal form that reads back exactly,
// without an exponent.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// itoa writes an int64 in decimal.
func itoa(v int64) string { return strconv.FormatInt(v, 10) }
