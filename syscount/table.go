package syscount

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syscalls/trace"
)

// classOrder is the order file classes are printed in.
var classOrder = []trace.Class{trace.ClassDB, trace.ClassJournal, trace.ClassWAL, trace.ClassSHM, trace.ClassDirectory, trace.ClassOther}

// WriteCounts prints what durabench trace counted, as text: the command and
// how it ended, then three tables (results.Table): calls by name, by file
// class, and by path.
func WriteCounts(w io.Writer, c *trace.Counts) error {
	var b strings.Builder
	fmt.Fprintf(&b, "method:  %s\ncommand: %s\nexit:    %s\n", c.Method, shellJoin(c.Command), c.Exit)
	switch {
	case c.Windowed:
		fmt.Fprintf(&b, "counted: inside the marked windows only\n")
	case c.Window:
		fmt.Fprintf(&b, "counted: nothing (no window start mark was seen)\n")
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "note:    %s\n", n)
	}

	calls := results.NewTable("calls", "syscall")
	for _, name := range sortedKeys(c.Syscalls) {
		calls.AddRow(strconv.FormatUint(c.Syscalls[name], 10), name)
	}
	for _, flag := range sortedKeys(c.OpenFlags) {
		calls.AddRow(strconv.FormatUint(c.OpenFlags[flag], 10), "opens with "+flag)
	}
	if c.WriteBytes > 0 {
		calls.AddRow(strconv.FormatUint(c.WriteBytes, 10), "bytes written")
	}
	tables := []*results.Table{calls}

	if len(c.ByFile) > 0 {
		files := results.NewTable("file", "calls", "syscall")
		for _, class := range classOrder {
			byName := c.ByFile[class]
			for _, name := range sortedKeys(byName) {
				files.AddRow(string(class), strconv.FormatUint(byName[name], 10), name)
			}
			if n := c.WriteBytesByFile[class]; n > 0 {
				files.AddRow(string(class), strconv.FormatUint(n, 10), "bytes written")
			}
		}
		tables = append(tables, files)
	}

	if len(c.ByPath) > 0 {
		paths := results.NewTable("path", "class", "calls")
		for _, path := range sortedKeys(c.ByPath) {
			f := c.ByPath[path]
			var parts []string
			for _, name := range sortedKeys(f.Calls) {
				parts = append(parts, fmt.Sprintf("%s %d", name, f.Calls[name]))
			}
			if f.WriteBytes > 0 {
				parts = append(parts, fmt.Sprintf("bytes written %d", f.WriteBytes))
			}
			paths.AddRow(path, string(f.Class), strings.Join(parts, ", "))
		}
		tables = append(tables, paths)
	}
	for _, t := range tables {
		b.WriteString("\n")
		if err := t.Render(&b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// shellJoin joins args as a shell user would type them, quoting those that
// need it.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if a == "" || strings.IndexFunc(a, needsQuote) >= 0 {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}

func needsQuote(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return false
	}
	return !strings.ContainsRune("-_./:=,+@%", r)
}

// sortedKeys returns m's keys in order.
func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
