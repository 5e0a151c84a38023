package syncbench

import (
	"fmt"
	"io"
	"strconv"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscount"
)

// maxCountOps caps the writes of a counting pass: counts per write do not
// need thousands, and tracing slows every call.
const maxCountOps = 500

// Count is one case's counting pass: what one write (or batch) + sync
// made reach the kernel and the device.
type Count struct {
	Workload  Workload
	BlockSize int64
	Method    syscalls.Method
	syscount.Result
}

// Counter counts one case of a Config in a traced child (see
// syscount.Counter).
type Counter = syscount.Counter[Config]

// CountConfig is the configuration of the counting pass for one workload,
// size and method: one round, one thread, sequential, at most maxCountOps
// measured writes in whole batches. The warm-up stays, outside the window.
func CountConfig(cfg Config, w Workload, bs int64, m syscalls.Method) Config {
	c := cfg
	c.Workloads, c.BlockSizes, c.Methods = []Workload{w}, []int64{bs}, []syscalls.Method{m}
	c.Rounds, c.Threads, c.Order, c.Staircase = 1, []int{1}, Sequential, false
	c.Iterations = syscount.CapOps(cfg.IterationsFor(bs), maxCountOps, c.SyncEvery)
	c.MaxCaseBytes = 0
	return c
}

// CountAll runs a counting pass for every workload, size and method of cfg.
// Thread counts and order do not change what one write + sync calls, so
// they are not repeated.
func CountAll(cfg Config, counter Counter, progress Progress) ([]Count, error) {
	progress = runner.Quiet(progress)
	var out []Count
	for _, w := range cfg.Workloads {
		for _, bs := range cfg.BlockSizes {
			for _, m := range cfg.Methods {
				progress(fmt.Sprintf("counting syscalls (traced, not timed): %s %s %s", w, units.FormatSize(bs), m))
				r, err := counter(CountConfig(cfg, w, bs, m), nil)
				if err != nil {
					return nil, fmt.Errorf("syncbench: counting %s %s %s: %w", w, units.FormatSize(bs), m, err)
				}
				out = append(out, Count{Workload: w, BlockSize: bs, Method: m, Result: r})
			}
		}
	}
	return out, nil
}

// countedCalls are the columns of the count table, in this order, when any
// count has them.
var countedCalls = []string{"fsync", "fdatasync", "sync_file_range", "msync", "syncfs", "sync", "fcntl", "pwrite64", "pwrite", "write", "pwritev", "pwritev2", "writev"}

// CountReport writes the counting passes as a table: calls per write (or
// per batch with --sync-every) by kind, the device's flushes, and the open
// flags that change durability.
func CountReport(w io.Writer, cfg Config, counts []Count) error {
	if len(counts) == 0 {
		return nil
	}
	var cols []string
	for _, name := range countedCalls {
		for _, c := range counts {
			if c.Counts.Total(name) > 0 {
				cols = append(cols, name)
				break
			}
		}
	}
	unit := "write"
	if cfg.SyncEvery > 1 {
		unit = "write (batches of " + strconv.Itoa(cfg.SyncEvery) + ")"
	}
	headers := append([]string{"workload", "size", "method"}, cols...)
	headers = append(headers, "device flushes")
	t := results.NewTable(headers...)
	t.Title = "System calls and device flushes per " + unit + ", from a separate traced pass (counts only; timing passes are never traced)"
	for _, c := range counts {
		row := []string{c.Workload.String(), units.FormatSize(c.BlockSize), c.Method.String()}
		for _, name := range cols {
			row = append(row, syscount.FormatPerOp(c.PerOp(name)))
		}
		t.AddRow(append(row, c.FlushesText())...)
	}
	if err := t.Render(w); err != nil {
		return err
	}
	fmt.Fprintln(w, syscount.FlushesFootnote("writes"))
	return nil
}

// CountWarnings says where the device saw something other than what the
// method promises: a durable method that sent no flush, or a method that
// promises nothing that did.
func CountWarnings(counts []Count) []string {
	var out []string
	for _, c := range counts {
		name := fmt.Sprintf("%s %s %s", c.Workload, units.FormatSize(c.BlockSize), c.Method)
		var flushing, quiet string
		switch p := c.Method.Promise(); {
		case p == syscalls.PromiseStable:
			flushing = name + " promises stable storage"
		case p < syscalls.PromiseOrdered:
			quiet = name + " promises no durability"
		}
		if w := c.FlushMismatch(flushing, quiet, "write"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// countMetrics returns the metrics a case's pooled record carries from its
// counting pass.
func countMetrics(c Count) map[string]float64 { return c.Metrics(countedCalls) }
