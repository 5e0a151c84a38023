package neighbor

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syscalls"
)

// BacklogReport writes the backlog tables: medians in ms per (backlog,
// method) with the neighbor's own sync after each (the layout of the
// macOS article "On a Mac, a full fsync of 4 KB waits for everyone else's
// writes"), then what the kernel and the device did, which explains them.
func BacklogReport(w io.Writer, r *BacklogResult) error {
	cfg := r.Config
	fmt.Fprintf(w, "Backlog: one %s write + sync of the probe's own file while another process holds unsynced buffered data in its own directory.\n",
		units.FormatSize(ProbeWrite))
	fmt.Fprintf(w, "%s\n", variantLine(cfg.Config))
	fmt.Fprintf(w, "Afterwards the neighbor times %s of its own file. %d trials, a fresh neighbor per cell, method order reversed on odd trials.\n\n",
		FullSync().Syscall(), cfg.Trials)

	after := "then nbr " + FullSync().String()
	headers := []string{"backlog"}
	for _, m := range cfg.Methods {
		headers = append(headers, m.String())
		if cfg.PreSync {
			headers = append(headers, "untimed pre-sync")
		}
		headers = append(headers, after)
	}
	labels := padded("backlog", cfg.Backlogs, sizeLabel)
	t := results.NewTable(headers...)
	t.Title = "Median ms: the probe's write + sync, and the neighbor's own sync right after it"
	for i, b := range cfg.Backlogs {
		row := []string{labels[i]}
		for _, m := range cfg.Methods {
			cell := r.Cell(b, m)
			row = append(row, ms(medianOf(cell, func(s BacklogSample) int64 { return s.Total })))
			if cfg.PreSync {
				row = append(row, ms(medianOf(cell, func(s BacklogSample) int64 { return s.PreSync })))
			}
			row = append(row, ms(medianOf(cell, func(s BacklogSample) int64 { return s.NeighborSync })))
		}
		t.AddRow(row...)
	}
	if err := t.Render(w); err != nil {
		return err
	}
	fmt.Fprintln(w)

	headers = []string{"backlog", "dirty MiB"}
	for _, m := range cfg.Methods {
		headers = append(headers, m.String()+" min–max ms", "dev KiB in "+m.String(), "dev MiB in nbr sync")
	}
	t = results.NewTable(headers...)
	t.Title = "Spread and evidence: the probe's fastest and slowest trial; medians of the machine's dirty page cache when the clock started, " +
		"and of what the device wrote (for anyone) during the probe's sync and during the neighbor's"
	for i, b := range cfg.Backlogs {
		cell0 := r.Cell(b, cfg.Methods[0])
		row := []string{labels[i], mib(medianOf(cell0, func(s BacklogSample) int64 { return s.Dirty }))}
		for _, m := range cfg.Methods {
			cell := r.Cell(b, m)
			lo, hi := spread(cell)
			row = append(row, ms(lo)+"–"+ms(hi),
				kib(medianOf(cell, func(s BacklogSample) int64 { return s.DeviceDuringProbe })),
				mib(medianOf(cell, func(s BacklogSample) int64 { return s.DeviceDuringNeighbor })))
		}
		t.AddRow(row...)
	}
	if err := t.Render(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	methodLines(w, cfg.Methods)
	return nil
}

// StreamReport writes one table per method: rows are target rate and pass,
// columns the probe's p50, p99 and p99.9 in ms and the rate the neighbor
// achieved.
func StreamReport(w io.Writer, r *StreamResult) error {
	cfg := r.Config
	fmt.Fprintf(w, "Stream: the probe loops %s write + sync of its own file for %v while another process writes %s blocks at a target rate, rewriting a file of at most %s.\n",
		units.FormatSize(ProbeWrite), cfg.Duration, units.FormatSize(chunk), units.FormatSize(cfg.FileSize))
	fmt.Fprintf(w, "%s\n", variantLine(cfg.Config))
	fmt.Fprintf(w, "%d passes, rates and methods reversed on odd passes; a fresh neighbor per cell.\n\n", cfg.Passes)
	for _, m := range cfg.Methods {
		t := results.NewTable("rate", "pass", "samples", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "neighbor MiB/s", "device MiB/s")
		t.Title = fmt.Sprintf("%s (%s) next to a writing neighbor", m, m.Syscall())
		labels := padded("rate", cfg.Rates, rateLabel)
		for i, rate := range cfg.Rates {
			for _, s := range r.Cell(rate, m) {
				st := measure.Summarize(s.Total)
				samples := strconv.Itoa(st.N)
				if s.Full {
					samples += " (cap)"
				}
				dev := "-"
				if s.DeviceWritten != unknown && s.Wall > 0 {
					dev = strconv.FormatFloat(measure.PerSec(float64(s.DeviceWritten)/(1<<20), s.Wall), 'f', 0, 64)
				}
				t.AddRow(labels[i], strconv.Itoa(s.Pass+1), samples,
					ms(st.P50), ms(st.P99), ms(st.P999), ms(st.Max),
					strconv.FormatFloat(s.Achieved()/(1<<20), 'f', 0, 64), dev)
			}
		}
		if err := t.Render(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	methodLines(w, cfg.Methods)
	return nil
}

// variantLine says which probe ran.
func variantLine(cfg Config) string {
	if cfg.PreSync {
		return "Variant: PRE-SYNC (flawed on purpose): the probe synced its file once, untimed, after the neighbor was ready and before the clock started."
	}
	return "Variant: clean: the probe's file was created and synced before the neighbor started; nothing synced untimed after that."
}

// methodLines says what each method calls and promises here.
func methodLines(w io.Writer, ms []syscalls.Method) {
	for _, m := range ms {
		fmt.Fprintf(w, "%-10s %s: %s\n", m, m.Syscall(), m.Promise())
	}
}

// medianOf returns the nearest-rank median of f over ss, skipping unknown
// figures; unknown if none is known.
func medianOf(ss []BacklogSample, f func(BacklogSample) int64) int64 {
	var xs []int64
	for _, s := range ss {
		if v := f(s); v != unknown {
			xs = append(xs, v)
		}
	}
	if len(xs) == 0 {
		return unknown
	}
	return measure.Summarize(xs).P50
}

// spread returns the smallest and largest probe write + sync of ss.
func spread(ss []BacklogSample) (lo, hi int64) {
	xs := make([]int64, len(ss))
	for i, s := range ss {
		xs[i] = s.Total
	}
	st := measure.Summarize(xs)
	return st.Min, st.Max
}

// ms prints ns as milliseconds with three decimals; "-" when unknown.
func ms(ns int64) string {
	if ns == unknown {
		return "-"
	}
	return strconv.FormatFloat(float64(ns)/1e6, 'f', 3, 64)
}

// mib prints bytes in MiB to one decimal; "-" when unknown.
func mib(b int64) string {
	if b == unknown {
		return "-"
	}
	return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64)
}

// padded labels xs and pads the labels to the width of the widest label or
// the column's header, so that a column mixing numbers ("0") and words
// ("1G", "max") lines up on the left.
func padded[T any](header string, xs []T, label func(T) string) []string {
	out := make([]string, len(xs))
	width := utf8.RuneCountInString(header)
	for i, x := range xs {
		out[i] = label(x)
		width = max(width, utf8.RuneCountInString(out[i]))
	}
	for i := range out {
		out[i] += strings.Repeat(" ", width-utf8.RuneCountInString(out[i]))
	}
	return out
}

// kib prints bytes in whole KiB; "-" when unknown.
func kib(b int64) string {
	if b == unknown {
		return "-"
	}
	return strconv.FormatInt(b>>10, 10)
}

// rateLabel prints a target rate for a table.
func rateLabel(r Rate) string {
	switch r {
	case RateMax, RateIdle:
		return r.String()
	}
	return r.String() + "/s"
}
