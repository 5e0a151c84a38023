package advise

import (
	"fmt"

	"github.com/durabench/durabench/results"
)

// The measured verdicts of `durabench crash sqlite`, read from its records
// (experiment "crash"). What this reader expects of a record, the whole of
// its contract with the crash simulation:
//
//	params   engine, journal_mode, synchronous, fullfsync (the configuration,
//	         as SQLite reported it), model (linux-ext4, posix-strict, macos);
//	         records with a workload or target param other than "sqlite" are
//	         not SQLite's and are skipped
//	metrics  states           disk states built and checked
//	         states_lost      states missing an acknowledged commit
//	         states_corrupt   states whose database failed integrity_check
//	         most_lost        the most acknowledged commits one state lost
//
// Only pooled records (or records without rounds, round 0) count.

// CrashExperiment is the experiment name of the crash simulation's records.
const CrashExperiment = "crash"

// crashModelFor names the persistence model whose verdicts stand for a
// machine running goos on file system fs, and the failures they speak for.
func crashModelFor(goos, fs string) (string, []Failure) {
	switch {
	case goos == "darwin":
		return "macos", []Failure{PowerLoss}
	case goos == "linux" && fs == "ext4":
		return "linux-ext4", []Failure{OSCrash, PowerLoss}
	}
	return "posix-strict", []Failure{OSCrash, PowerLoss}
}

// CrashRows turns the crash simulation's verdicts among recs into promise
// rows for a machine running goos on file system fs: only the model that
// stands for that machine is used (macos on darwin, linux-ext4 on ext4,
// posix-strict elsewhere). from names where the records came from.
func CrashRows(recs []results.Record, goos, fs, from string) []Row {
	model, failures := crashModelFor(goos, fs)
	var rows []Row
	for _, rec := range recs {
		if rec.Experiment != CrashExperiment || (rec.Round != results.PooledRound && rec.Round != 0) {
			continue
		}
		p := rec.Params
		if w := p.Get("workload") + p.Get("target"); w != "" && w != "sqlite" {
			continue
		}
		if p.Get("model") != model || p.Get("journal_mode") == "" || p.Get("synchronous") == "" {
			continue
		}
		states, lost, corrupt, most := rec.Metrics["states"], rec.Metrics["states_lost"], rec.Metrics["states_corrupt"], rec.Metrics["most_lost"]
		if states <= 0 {
			continue
		}
		row := Row{
			Journals:    []string{p.Get("journal_mode")},
			Synchronous: []string{p.Get("synchronous")},
			OS:          goos,
			Failures:    failures,
			Source:      fmt.Sprintf("measured: durabench crash, model %s, %s (%s)", model, plural(int(states), "state"), from),
		}
		if e := p.Get("engine"); e != "" {
			row.Engines = []string{e}
		}
		if goos == "darwin" { // elsewhere fullfsync changes no call
			row.FullFsync = p.Get("fullfsync")
		}
		switch {
		case corrupt > 0:
			row.Verdict = MayCorrupt
			row.Risk = fmt.Sprintf("measured: %s of %s corrupt", count(corrupt), count(states))
		case lost > 0:
			row.Verdict = LosesLast
			row.Risk = fmt.Sprintf("measured: %s of %s lost acknowledged commits (at most %s); none corrupt", count(lost), count(states), count(most))
		default:
			row.Verdict = Keeps
			row.Risk = fmt.Sprintf("measured: no loss and no corruption in %s", plural(int(states), "state"))
		}
		row.Why = "simulated power cuts on the recorded workload under the " + model + " persistence model"
		rows = append(rows, row)
	}
	return rows
}

// count formats a whole count with thousands separators.
func count(v float64) string { return groupInt(int64(v)) }
