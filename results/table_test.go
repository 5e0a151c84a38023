package results

import (
	"bytes"
	"strings"
	"testing"

	"github.com/durabench/durabench/internal/golden"
)

func TestTableGolden(t *testing.T) {
	tb := NewTable("workload", "size", "none", "fsync", "full", "note")
	tb.Title = "write + sync, median"
	tb.AddRow("overwrite", "4K", "1.2 µs", "16.5 µs", "2.00 ms", "")
	tb.AddRow("overwrite", "1M", "109 µs", "1.30 s", "-", "slow disk")
	tb.AddRow("append", "64K", "143,769 /s", "97.7%")
	var buf bytes.Buffer
	if err := tb.Render(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "table.golden", buf.Bytes())
}

func TestTableAlignment(t *testing.T) {
	tb := NewTable("name", "µs")
	tb.AddRow("a", "1.5")
	tb.AddRow("long name", "12,345.5")
	var buf bytes.Buffer
	if err := tb.Render(&buf); err != nil {
		t.Fatal(err)
	}
	want := "name             µs\n" +
		"---------  --------\n" +
		"a               1.5\n" +
		"long name  12,345.5\n"
	if buf.String() != want {
		t.Fatalf("Render =\n%s\nwant\n%s", &buf, want)
	}
}

func TestTableRowTooLongPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "3 cells for 2 columns") {
			t.Fatalf("recover() = %v, want a panic about 3 cells for 2 columns", r)
		}
	}()
	NewTable("a", "b").AddRow("1", "2", "3")
}

func TestNumeric(t *testing.T) {
	for cell, want := range map[string]bool{
		"16.5 µs": true, "143,769 /s": true, "97.7%": true, "-3": true, "1.5x": true, "-": true, "0": true,
		"4K": false, "fdatasync": false, "": false, "n/a": false, "x1": false,
	} {
		if got := numeric(cell); got != want {
			t.Errorf("numeric(%q) = %v, want %v", cell, got, want)
		}
	}
}
