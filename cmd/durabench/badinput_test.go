package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// badInputDoc is the bad-input table: the documentation and this test's
// cases are one source.
const badInputDoc = "../../docs/commands/bad-input.md"

// badInput is one row of the table.
type badInput struct {
	num  string
	line string // the command line, with placeholders
	says string
	exit int
}

// readBadInputs parses the table's rows: | # | `line` | `says` | exit |.
func readBadInputs(t *testing.T) []badInput {
	t.Helper()
	f, err := os.Open(badInputDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []badInput
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| #") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("%s: row %q has %d cells, want 4", badInputDoc, line, len(cells))
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		exit, err := strconv.Atoi(cells[3])
		if err != nil {
			t.Fatalf("%s: row %q: exit %q", badInputDoc, line, cells[3])
		}
		rows = append(rows, badInput{num: cells[0], line: strings.Trim(cells[1], "`"), says: strings.Trim(cells[2], "`"), exit: exit})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// splitWords splits a command line on blanks, keeping "" as an empty word
// and "a b" as one word.
func splitWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// TestBadInputTable runs every row of docs/commands/bad-input.md: the exit
// status, the message, the pointer to --help, and nothing created or
// changed under the test's directory.
func TestBadInputTable(t *testing.T) {
	rows := readBadInputs(t)
	if len(rows) < 40 {
		t.Fatalf("%s has %d cases, want at least 40", badInputDoc, len(rows))
	}
	base := t.TempDir()
	dir := filepath.Join(base, "dir")
	old := filepath.Join(base, "old")
	file := filepath.Join(base, "file")
	for _, d := range []string{dir, old} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, []byte("users"), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := readOnlyDir(t, base)
	vars := strings.NewReplacer("$DIR", dir, "$OLD", old, "$FILE", file, "$RO", ro, "$BASE", base)
	before := listing(t, base)
	for _, row := range rows {
		t.Run(row.num, func(t *testing.T) {
			args := splitWords(vars.Replace(row.line))
			_, stderr, code := durabench(t, args...)
			if code != row.exit {
				t.Errorf("%s: exit status %d, want %d; stderr: %s", row.line, code, row.exit, stderr)
			}
			if !strings.Contains(stderr, row.says) {
				t.Errorf("%s: stderr %q does not say %q", row.line, stderr, row.says)
			}
			if row.exit == exitUsage && !strings.HasPrefix(stderr, "durabench: unknown command") && !strings.Contains(stderr, "--help") {
				t.Errorf("%s: the refusal does not point to --help: %q", row.line, stderr)
			}
			if after := listing(t, base); strings.Join(after, "\n") != strings.Join(before, "\n") {
				t.Errorf("%s: refused input touched files: before %q, after %q", row.line, before, after)
			}
		})
	}
}
