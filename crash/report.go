package crash

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/durabench/durabench/results"
)

// Report writes the verdict table of results, one row per configuration
// and model, then the smallest failing state of each kind with the
// identifier that rebuilds it, and the mappings the macos rows assumed.
func Report(w io.Writer, res []Result) error {
	t := results.NewTable("configuration", "model", "states", "distinct", "losing acked", "most lost", "corrupt", "states/s", "verdict")
	t.Title = "Simulated power cuts: states a cut could leave, checked"
	for _, r := range res {
		t.AddRow(r.Config, r.Model, strconv.Itoa(r.States), strconv.Itoa(r.Distinct), strconv.Itoa(r.Lost),
			strconv.FormatUint(r.MaxLost, 10), strconv.Itoa(r.Corrupt), fmt.Sprintf("%.0f", r.rate()), r.Verdict())
	}
	if err := t.Render(w); err != nil {
		return err
	}
	var notes []string
	for _, r := range res {
		for _, n := range r.Notes {
			if line := fmt.Sprintf("  %s: %s", r.Config, n); !slices.Contains(notes, line) {
				notes = append(notes, line)
			}
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w, "\nThe recorder could not record everything; the verdicts judge what it did record:")
		fmt.Fprintln(w, strings.Join(notes, "\n"))
	}
	var mapped []string
	for _, r := range res {
		if line := fmt.Sprintf("  %s: %s", r.Model, r.Mapping); r.Mapping != "" && !slices.Contains(mapped, line) {
			mapped = append(mapped, line)
		}
	}
	if len(mapped) > 0 {
		fmt.Fprintln(w, "\nmacos rows judge a Linux recording by the darwin call each sync stands for:")
		fmt.Fprintln(w, strings.Join(mapped, "\n"))
	}
	for _, r := range res {
		for _, f := range []struct {
			kind string
			f    *Failure
		}{{"losing acknowledged commits", r.SmallestLost}, {"corrupt", r.SmallestCorrupt}} {
			if f.f != nil {
				fmt.Fprintf(w, "\n%s, %s: smallest state %s\n", r.Config, r.Model, f.kind)
				f.f.write(w)
			}
		}
	}
	if len(res) > 0 {
		fmt.Fprintf(w, "\nTorn sectors hold %s. Rebuild a state with 'durabench crash show --into DIR ID' (crash run: --state ID --into DIR).\n", res[0].Torn)
	}
	return nil
}

// maxDeviations is how many changes a printed failure lists.
const maxDeviations = 12

// write prints a failure: its identifier, cut, verdict and what it lost.
func (f *Failure) write(w io.Writer) {
	fmt.Fprintf(w, "  state   %s\n  cut     %s; %d acknowledged before it\n", f.ID, f.Cut, f.Acked)
	fmt.Fprintf(w, "  found   %s\n", f.Verdict.Detail)
	if len(f.Deviations) == 0 {
		fmt.Fprintln(w, "  changes every change before the cut kept: what was made durable is all there is")
	}
	for i, d := range f.Deviations {
		if i == maxDeviations {
			fmt.Fprintf(w, "          ... and %d more\n", len(f.Deviations)-i)
			break
		}
		label := "changes"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(w, "  %-7s %s\n", label, d)
	}
}

// rate is states checked per second.
func (r Result) rate() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.States) / r.Seconds
}

// Records returns the results as records of the "crash" experiment (see
// docs/schema.md): one per configuration and model.
func Records(res []Result, env string) []results.Record {
	recs := make([]results.Record, 0, len(res))
	for _, r := range res {
		params := results.Params{{Key: "config", Value: r.Config}, {Key: "model", Value: r.Model}, {Key: "torn", Value: r.Torn}}
		if r.Mapping != "" {
			params = append(params, results.Param{Key: "mapping", Value: r.Mapping})
		}
		rec := results.Record{
			Experiment: "crash",
			Params:     params,
			Round:      results.PooledRound,
			N:          r.States,
			OpsPerSec:  r.rate(),
			Metrics: map[string]float64{
				"events": float64(r.Events), "acks": float64(r.Acks), "cuts": float64(r.Cuts),
				"states": float64(r.States), "distinct_states": float64(r.Distinct),
				"lost_states": float64(r.Lost), "max_lost": float64(r.MaxLost), "corrupt_states": float64(r.Corrupt),
				"seconds": r.Seconds,
			},
			Notes: append([]string{"verdict: " + r.Verdict()}, prefixed("recorder: ", r.Notes)...),
			Env:   env,
		}
		if r.SmallestLost != nil {
			rec.Notes = append(rec.Notes, "smallest losing state: "+r.SmallestLost.ID.String())
		}
		if r.SmallestCorrupt != nil {
			rec.Notes = append(rec.Notes, "smallest corrupt state: "+r.SmallestCorrupt.ID.String())
		}
		recs = append(recs, rec)
	}
	return recs
}

// prefixed returns each of notes with prefix before it.
func prefixed(prefix string, notes []string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = prefix + n
	}
	return out
}
