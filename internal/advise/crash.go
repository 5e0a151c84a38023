package advise

import (
	"fmt"
	"slices"
	"strings"

	"github.com/durabench/durabench/results"
)

// The measured verdicts of `durabench crash sqlite`, read from its records
// (experiment "crash", written by crash.Records). What this reader takes
// from a record, the whole of its contract with the crash simulation:
//
//	params   config  "sqlite/<engine>/<journal_mode>/<synchronous>/fullfsync=<0|1>";
//	                 records of other workloads (the log writer, crash run)
//	                 are skipped
//	         model   linux-ext4, posix-strict, or macos with the darwin
//	                 calls the recorded syncs stand for: "macos" (fsync
//	                 stays fsync: fullfsync=0), "macos[fsync=full,...]"
//	                 (the public build's fullfsync=1), "macos[fsync=barrier,...]"
//	                 (Apple's build's fullfsync=1)
//	metrics  states          disk states built and checked
//	         lost_states     states missing an acknowledged commit
//	         corrupt_states  states whose database failed its checks
//	         max_lost        the most acknowledged commits one state lost
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

// crashConfig parses a crash record's config param; ok is false for a
// workload other than SQLite.
func crashConfig(s string) (engine, journal, sync, fullfsync string, ok bool) {
	parts := strings.Split(s, "/")
	if len(parts) != 5 || parts[0] != "sqlite" || !strings.HasPrefix(parts[4], "fullfsync=") {
		return "", "", "", "", false
	}
	return parts[1], parts[2], parts[3], strings.TrimPrefix(parts[4], "fullfsync="), true
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
		engine, journal, sync, fullfsync, ok := crashConfig(rec.Params.Get("config"))
		if !ok {
			continue
		}
		name := rec.Params.Get("model")
		base, token, _ := strings.Cut(name, "[")
		if base != model {
			continue
		}
		states, lost, corrupt, most := rec.Metrics["states"], rec.Metrics["lost_states"], rec.Metrics["corrupt_states"], rec.Metrics["max_lost"]
		if states <= 0 {
			continue
		}
		row := Row{
			Journals:    []string{journal},
			Synchronous: []string{sync},
			Engines:     []string{engine},
			OS:          goos,
			Failures:    failures,
			Source:      fmt.Sprintf("measured: durabench crash, model %s, %s (%s)", name, plural(int(states), "state"), from),
		}
		if goos == "darwin" {
			// The recorded engine stands for the build the mapping names;
			// elsewhere fullfsync changes no call.
			row.FullFsync = fullfsync
			switch {
			case strings.Contains(token, "barrier"):
				row.Engines = []string{"system"}
			case strings.Contains(token, "full"):
				row.Engines = slices.Clone(publicEngs)
			case fullfsync == "0":
				row.Engines = nil // fsync, whatever the build
			default:
				continue // fullfsync=1 without the build it stands for
			}
		}
		switch {
		case corrupt > 0:
			row.Verdict = MayCorrupt
			row.Risk = fmt.Sprintf("measured: %s of %s states corrupt", count(corrupt), count(states))
		case lost > 0:
			row.Verdict = LosesLast
			row.Risk = fmt.Sprintf("measured: %s of %s states lost acknowledged commits (at most %s); none corrupt", count(lost), count(states), count(most))
		default:
			row.Verdict = Keeps
			row.Risk = fmt.Sprintf("measured: no loss and no corruption in %s", plural(int(states), "state"))
		}
		row.Why = "simulated power cuts on the recorded workload under the " + name + " persistence model"
		rows = append(rows, row)
	}
	return rows
}

// count formats a whole count with thousands separators.
func count(v float64) string { return groupInt(int64(v)) }
