package sqlitebench

// The report. Invariants: every figure stands under the settings SQLite
// reported (rows, columns and per-case values are Effective, never Asked);
// a case that did not run as asked carries a numbered mark in its cell
// and a footnote under its table, and "*" on each differing value in the
// per-case list.

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/results"
)

// Report writes the human report of a run: one line per engine with what a
// user who sets nothing gets; per engine the table of the macOS article "On
// a Mac, a real fsync takes a whole number of milliseconds" (rows
// journal × synchronous, columns fullfsync, commits/s with p99) and what
// each row risks; every case's figures; each engine's build; warnings.
// Every figure stands under the settings SQLite reported; a case that did
// not run as asked is marked and explained under its table.
func Report(w io.Writer, cfg Config, out Outcome) error {
	fmt.Fprintf(w, "SQLite commits: BEGIN; %s; COMMIT through reused prepared statements, one sample per commit; %s × %s after %d warm-up, a fresh database per case and round; commits/s over the timed wall time, percentiles pooled over all rounds (nearest rank)\n\n",
		rowsPhrase(cfg), plural(cfg.Rounds, "round"), commitsPhrase(cfg), cfg.Warmup)
	if err := defaultsTable(out).Render(w); err != nil {
		return err
	}
	for _, st := range cfg.Skipped {
		fmt.Fprintf(w, "Not run: %s: %s\n", st.Name, st.Reason)
	}
	fmt.Fprintln(w)
	for _, info := range out.Engines {
		if err := engineBlock(w, info, out.Results); err != nil {
			return err
		}
	}
	if err := detail(w, out.Results); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if len(out.Counts) > 0 {
		if err := CountReport(w, out); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	builds(w, out.Engines)
	for _, warn := range append(Warnings(cfg, out, runtime.GOOS), CountWarnings(out.Counts)...) {
		fmt.Fprintf(w, "Warning: %s\n", warn)
	}
	return nil
}

// rowsPhrase says what a commit inserts: "1 insert of 100 bytes".
func rowsPhrase(cfg Config) string {
	return fmt.Sprintf("%s of %d bytes", plural(cfg.RowsPerCommit, "insert"), cfg.RowBytes)
}

// commitsPhrase says how many commits a round times: "500 commits", or
// "500 commits (3000 in WAL mode, enough to hold checkpoints)".
func commitsPhrase(cfg Config) string {
	s := plural(cfg.Commits, "commit")
	if cfg.WALCommits > 0 && cfg.WALCommits != cfg.Commits && slices.Contains(cfg.JournalModes, "wal") {
		s += fmt.Sprintf(" (%d in WAL mode, enough to hold checkpoints)", cfg.WALCommits)
	}
	return s
}

// plural is "1 round", "3 rounds".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// defaultsTable has one line per engine: what a fresh connection reports.
func defaultsTable(out Outcome) *results.Table {
	t := results.NewTable("engine", "sqlite", "journal_mode", "synchronous", "fullfsync", "checkpoint_fullfsync", "synchronous after journal_mode=wal", "wal_autocheckpoint")
	t.Title = "What each engine gives a user who sets nothing (a fresh database, a new connection)"
	for _, e := range out.Engines {
		d := e.Defaults
		t.AddRow(e.Name, e.Version, d.JournalMode, d.Synchronous, d.FullFsync, d.CheckpointFullFsync, e.WALSynchronous, e.WALAutocheckpoint)
	}
	return t
}

// cellKey places a result in an engine's table by the settings it ran
// with: rows journal × synchronous, columns fullfsync × checkpoint_fullfsync
// (the latter as "default" where it was left alone).
type cellKey struct{ journal, sync, fullfsync, ckpt string }

func keyOf(r Result) cellKey {
	ckpt := r.Effective.CheckpointFullFsync
	if r.Asked.CheckpointFullFsync == CheckpointDefault {
		ckpt = CheckpointDefault
	}
	return cellKey{r.Effective.JournalMode, r.Effective.Synchronous, r.Effective.FullFsync, ckpt}
}

// engineBlock writes one engine's table (journal × synchronous by fullfsync), then
// footnotes for the cases that did not run as asked.
func engineBlock(w io.Writer, info EngineInfo, all []Result) error {
	var res []Result
	for _, r := range all {
		if r.Engine == info.Name {
			res = append(res, r)
		}
	}
	type rowKey struct{ journal, sync string }
	type colKey struct{ fullfsync, ckpt string }
	var rows []rowKey
	var cols []colKey
	cells := map[cellKey][]string{}
	var notes []string
	onlyDefaultCkpt := true
	for _, r := range res {
		k := keyOf(r)
		if rk := (rowKey{k.journal, k.sync}); !slices.Contains(rows, rk) {
			rows = append(rows, rk)
		}
		if ck := (colKey{k.fullfsync, k.ckpt}); !slices.Contains(cols, ck) {
			cols = append(cols, ck)
		}
		onlyDefaultCkpt = onlyDefaultCkpt && k.ckpt == CheckpointDefault
		cell := fmt.Sprintf("%s (p99 %s)", results.FormatRate(r.CommitsPerSec()), results.FormatDuration(r.Total.P99))
		if !r.AsAsked() {
			notes = append(notes, fmt.Sprintf("*%d asked %s: %s", len(notes)+1, askedPhrase(r.Asked), strings.Join(r.Notes, "; ")))
			cell += fmt.Sprintf(" *%d", len(notes))
		}
		cells[k] = append(cells[k], cell)
	}
	headers := []string{"journal", "synchronous"}
	for _, c := range cols {
		h := "fullfsync=" + c.fullfsync
		if !onlyDefaultCkpt {
			h += " checkpoint_fullfsync=" + c.ckpt
		}
		headers = append(headers, h)
	}
	headers = append(headers, "if the app crashes", "if the OS crashes or power fails")
	t := results.NewTable(headers...)
	t.Title = fmt.Sprintf("%s (SQLite %s): commits/s (p99 commit latency)", info.Name, info.Version)
	for _, rk := range rows {
		row := []string{rk.journal, rk.sync}
		for _, c := range cols {
			row = append(row, strings.Join(cells[cellKey{rk.journal, rk.sync, c.fullfsync, c.ckpt}], " | "))
		}
		risk := RiskOf(rk.journal, rk.sync)
		t.AddRow(append(row, risk.AppCrash, risk.PowerLoss)...)
	}
	if err := t.Render(w); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintln(w)
	return nil
}

// askedPhrase lists asked pragma values: "journal_mode=wal synchronous=full
// fullfsync=0 checkpoint_fullfsync=default".
func askedPhrase(s drivers.Settings) string {
	parts := make([]string, len(pragmaFields))
	for i, p := range pragmaFields {
		parts[i] = p.name + "=" + *p.field(&s)
	}
	return strings.Join(parts, " ")
}

// detail lists every case with its percentiles, the engine's allocations
// and the checked row count. A value that differs from the one asked is
// marked with "*".
func detail(w io.Writer, res []Result) error {
	t := results.NewTable("engine", "journal", "synchronous", "fullfsync", "checkpoint_fullfsync", "commits/s", "slowest–fastest round", "p50", "p99", "p99.9", "max", "allocs/commit", "rows checked", "notes")
	t.Title = "Per case (the settings as SQLite reported them; * where they differ from what was asked; rounds far apart mean the machine was disturbed)"
	for _, r := range res {
		row := []string{r.Engine}
		for _, p := range pragmaFields {
			v := *p.field(&r.Effective)
			if a := *p.field(&r.Asked); a != CheckpointDefault && a != v {
				v += "*"
			}
			row = append(row, v)
		}
		var rows int64
		for _, rd := range r.Rounds {
			rows += rd.Rows
		}
		row = append(row, results.FormatRate(r.CommitsPerSec()), roundSpread(r.Rounds), results.FormatDuration(r.Total.P50),
			results.FormatDuration(r.Total.P99), results.FormatDuration(r.Total.P999), results.FormatDuration(r.Total.Max),
			strconv.FormatFloat(r.AllocsPerCommit, 'f', 1, 64), strconv.FormatInt(rows, 10), strings.Join(r.Notes, "; "))
		t.AddRow(row...)
	}
	return t.Render(w)
}

// roundSpread is the slowest and the fastest round's commits/s:
// "2,056–9,078 /s".
func roundSpread(rounds []Round) string {
	if len(rounds) == 0 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, rd := range rounds {
		v := measure.PerSec(float64(rd.Samples), rd.Wall)
		lo, hi = min(lo, v), max(hi, v)
	}
	return strings.TrimSuffix(results.FormatRate(lo), " /s") + "–" + results.FormatRate(hi)
}

// builds writes each engine's build: where it comes from, its source id,
// and the compile options that bear on syncing.
func builds(w io.Writer, engines []EngineInfo) {
	for _, e := range engines {
		fmt.Fprintf(w, "%s: SQLite %s from %s\n", e.Name, e.Version, e.Library)
		fmt.Fprintf(w, "  %-28s %s\n", "source id", e.SourceID)
		for _, o := range e.SyncOptions {
			fmt.Fprintf(w, "  %-28s %s\n", o.Key, o.Value)
		}
		fmt.Fprintln(w)
	}
}

// Warnings says where the figures may mislead: engines that give a user
// who sets nothing different settings; fullfsync on an OS where it changes
// nothing; cases that did not run as asked; WAL rounds too short to hold a
// checkpoint.
func Warnings(cfg Config, out Outcome, goos string) []string {
	var warns []string
	defaults := []struct {
		name string
		get  func(EngineInfo) string
	}{
		{"journal_mode", func(e EngineInfo) string { return e.Defaults.JournalMode }},
		{"synchronous", func(e EngineInfo) string { return e.Defaults.Synchronous }},
		{"fullfsync", func(e EngineInfo) string { return e.Defaults.FullFsync }},
		{"checkpoint_fullfsync", func(e EngineInfo) string { return e.Defaults.CheckpointFullFsync }},
		{"synchronous after journal_mode=wal", func(e EngineInfo) string { return e.WALSynchronous }},
	}
	for _, d := range defaults {
		var order []string
		by := map[string][]string{}
		for _, e := range out.Engines {
			v := d.get(e)
			if _, ok := by[v]; !ok {
				order = append(order, v)
			}
			by[v] = append(by[v], e.Name)
		}
		if len(order) < 2 {
			continue
		}
		parts := make([]string, len(order))
		for i, v := range order {
			parts[i] = fmt.Sprintf("%s in %s", v, strings.Join(by[v], ", "))
		}
		warns = append(warns, fmt.Sprintf("engines differ when nothing is set: %s is %s; the same code gets a different durability from each engine unless it sets the pragma itself",
			d.name, strings.Join(parts, " but ")))
	}
	if goos != "darwin" {
		for _, r := range out.Results {
			if r.Effective.FullFsync == "1" || r.Effective.CheckpointFullFsync == "1" {
				warns = append(warns, fmt.Sprintf("on %s SQLite has no F_FULLFSYNC (HAVE_FULLFSYNC=0): fullfsync=1 and checkpoint_fullfsync=1 read back 1 but change no system call, so their columns time the same syncs as 0", goos))
				break
			}
		}
	}
	marked := 0
	for _, r := range out.Results {
		if !r.AsAsked() {
			marked++
		}
	}
	if marked > 0 {
		warns = append(warns, fmt.Sprintf("%d case(s) did not run as asked (marked *): their figures stand under the settings SQLite reported", marked))
	}
	for _, e := range out.Engines {
		if !ranWAL(out.Results, e.Name) {
			continue
		}
		walCommits := cfg.CommitsFor(Case{Asked: drivers.Settings{JournalMode: "wal"}})
		if pages, err := strconv.Atoi(e.WALAutocheckpoint); err == nil && cfg.Warmup+walCommits < pages {
			warns = append(warns, fmt.Sprintf("WAL checkpoints (and at synchronous=normal the only syncs) run when the WAL reaches %d pages; a small commit adds about one page, so WAL rounds of %d commits after %d warm-up hold few or none: use --wal-commits %d or more to include them",
				pages, walCommits, cfg.Warmup, 2*pages))
			break
		}
	}
	return warns
}

// ranWAL reports whether any case of engine ran in WAL mode.
func ranWAL(res []Result, engine string) bool {
	for _, r := range res {
		if r.Engine == engine && r.Effective.JournalMode == "wal" {
			return true
		}
	}
	return false
}
