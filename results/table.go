package results

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Invariants:
//   - Every row has as many cells as there are headers (AddRow pads short
//     rows with empty cells and panics on long ones).
//   - Widths are counted in runes, so "µs" takes two columns, not three.
//   - A numeric-looking cell (see numeric) is right-aligned, any other is
//     left-aligned; a header is right-aligned when every non-empty cell of its
//     column is.

// Table is an aligned text table for terminals: an optional title line, a
// header line, a rule under it, then the rows, columns two spaces apart.
type Table struct {
	// Title, if not empty, is printed on its own line above the table.
	Title   string
	headers []string
	rows    [][]string
}

// NewTable returns an empty table with the given column headers.
func NewTable(headers ...string) *Table {
	return &Table{headers: headers}
}

// AddRow appends a row. Missing trailing cells are empty; more cells than
// headers is a programming error and panics.
func (t *Table) AddRow(cells ...string) {
	if len(cells) > len(t.headers) {
		panic(fmt.Sprintf("results: table row has %d cells for %d columns: %q", len(cells), len(t.headers), cells))
	}
	row := make([]string, len(t.headers))
	copy(row, cells)
	t.rows = append(t.rows, row)
}

// Render writes the table to w.
func (t *Table) Render(w io.Writer) error {
	widths := make([]int, len(t.headers))
	headerRight := make([]bool, len(t.headers))
	for c, h := range t.headers {
		widths[c] = utf8.RuneCountInString(h)
		headerRight[c] = len(t.rows) > 0
		for _, row := range t.rows {
			widths[c] = max(widths[c], utf8.RuneCountInString(row[c]))
			if row[c] != "" && !numeric(row[c]) {
				headerRight[c] = false
			}
		}
	}
	var sb strings.Builder
	if t.Title != "" {
		sb.WriteString(t.Title + "\n")
	}
	line := func(cells []string, right func(c int) bool) {
		var l strings.Builder
		for c, cell := range cells {
			if c > 0 {
				l.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[c]-utf8.RuneCountInString(cell))
			if right(c) {
				l.WriteString(pad + cell)
			} else {
				l.WriteString(cell + pad)
			}
		}
		sb.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	line(t.headers, func(c int) bool { return headerRight[c] })
	rule := make([]string, len(t.headers))
	for c := range rule {
		rule[c] = strings.Repeat("-", widths[c])
	}
	line(rule, func(int) bool { return false })
	for _, row := range t.rows {
		line(row, func(c int) bool { return numeric(row[c]) })
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// numeric reports whether a cell looks like a number, possibly with a unit:
// its first word, without thousands separators and a trailing "%" or "x",
// parses as a number ("16.5 µs", "143,769 /s", "97.7%", "-3", "1.5x").
// The placeholder "-" counts as numeric, so missing figures line up too.
func numeric(cell string) bool {
	if cell == "-" {
		return true
	}
	word, _, _ := strings.Cut(cell, " ")
	word = strings.ReplaceAll(word, ",", "")
	word = strings.TrimSuffix(strings.TrimSuffix(word, "%"), "x")
	_, err := strconv.ParseFloat(word, 64)
	return err == nil
}
