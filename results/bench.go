package results

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The Go benchmark format, as benchstat (golang.org/x/perf) reads it:
//
//	key: value                      a configuration line; applies to the results after it
//	Unit ops/s better=higher        declares how to compare a unit
//	BenchmarkName N v unit v unit…  a result: name, iterations, value-unit pairs
//
// Invariants:
//   - A result is written per round, so benchstat sees repetitions; a case
//     (experiment + params) appears pooled only when it has no per-round
//     record.
//   - Names contain no white space and no "/" inside a key or value (both
//     become "_"), and never end in "-N", which benchstat would read as
//     GOMAXPROCS.
//   - ns/op is the mean of the whole interval; MB/s is in the format's
//     10^6 bytes per second, so it is mib_per_sec × 1.048576 (2^20/10^6).

// benchUnits declares the units where higher is better; benchstat takes the
// others (ns/op, p50-ns, p99-ns, and metrics) as lower-is-better.
const benchUnits = "Unit MB/s better=higher\nUnit ops/s better=higher\n"

// mbPerMiB converts MiB/s (2^20 bytes) into the format's MB/s (10^6 bytes).
const mbPerMiB = 1.048576

// WriteBench writes recs in Go benchmark format: the config lines ("goos",
// "fs", "device", ... as the caller gives them), the unit declarations, then
// one result line per round (see the invariants at the top of bench.go).
func WriteBench(w io.Writer, config [][2]string, recs []Record) error {
	var buf bytes.Buffer
	if err := appendBenchConfig(&buf, config); err != nil {
		return err
	}
	buf.WriteString(benchUnits)
	appendBenchResults(&buf, recs, map[string]bool{})
	_, err := w.Write(buf.Bytes())
	return err
}

// appendBenchConfig appends "key: value" lines. Keys must start with a
// lower-case letter and hold no upper-case letters or white space, as the
// format requires; line breaks in values become spaces.
func appendBenchConfig(buf *bytes.Buffer, config [][2]string) error {
	for _, kv := range config {
		key, value := kv[0], kv[1]
		first, _ := utf8.DecodeRuneInString(key)
		if !unicode.IsLower(first) || strings.ContainsFunc(key, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsSpace(r) || r == ':' }) {
			return fmt.Errorf("results: benchmark config key %q must start with a lower-case letter and hold no upper-case letters, spaces or colons", key)
		}
		value = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, value)
		fmt.Fprintf(buf, "%s: %s\n", key, value)
	}
	return nil
}

// appendBenchResults appends the result lines of recs. perRound holds the
// keys of cases that have per-round records, from recs and from earlier
// calls, and is updated; a pooled record of such a case is left out.
func appendBenchResults(buf *bytes.Buffer, recs []Record, perRound map[string]bool) {
	for _, rec := range recs {
		if rec.Round != PooledRound {
			perRound[caseKey(rec)] = true
		}
	}
	for _, rec := range recs {
		if rec.Round == PooledRound && perRound[caseKey(rec)] {
			continue
		}
		appendBenchLine(buf, rec)
	}
}

// caseKey identifies a record's case: experiment and params.
func caseKey(rec Record) string { return rec.Experiment + "\x00" + caseName(rec) }

// appendBenchLine appends one result line for rec.
func appendBenchLine(buf *bytes.Buffer, rec Record) {
	buf.WriteString(benchName(rec))
	fmt.Fprintf(buf, "\t%d\t%s ns/op", rec.N, benchNum(rec.Stats.Total.Mean))
	if rec.MiBPerSec != 0 {
		fmt.Fprintf(buf, "\t%s MB/s", benchNum(rec.MiBPerSec*mbPerMiB))
	}
	fmt.Fprintf(buf, "\t%d p50-ns\t%d p99-ns", rec.Stats.Total.P50, rec.Stats.Total.P99)
	if rec.OpsPerSec != 0 {
		fmt.Fprintf(buf, "\t%s ops/s", benchNum(rec.OpsPerSec))
	}
	for _, k := range slices.Sorted(maps.Keys(rec.Metrics)) {
		fmt.Fprintf(buf, "\t%s %s", benchNum(rec.Metrics[k]), metricUnit(k))
	}
	buf.WriteByte('\n')
}

// gomaxprocsSuffix matches the "-N" ending that benchstat reads as GOMAXPROCS.
var gomaxprocsSuffix = regexp.MustCompile(`-[0-9]+$`)

// benchName is "Benchmark" + the capitalised experiment + "/key=value" per
// parameter, made safe for the format.
func benchName(rec Record) string {
	var sb strings.Builder
	sb.WriteString("Benchmark")
	exp := benchSafe(rec.Experiment)
	if r, size := utf8.DecodeRuneInString(exp); size > 0 {
		sb.WriteRune(unicode.ToUpper(r))
		sb.WriteString(exp[size:])
	}
	for _, p := range rec.Params {
		sb.WriteString("/" + benchSafe(p.Key) + "=" + benchSafe(p.Value))
	}
	name := sb.String()
	if gomaxprocsSuffix.MatchString(name) {
		name += "_"
	}
	return name
}

// benchSafe replaces white space and "/" with "_".
func benchSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '/' {
			return '_'
		}
		return r
	}, s)
}

// metricUnit names a metric's unit: "_per_" becomes "/" (records_per_sync ->
// records/sync), white space becomes "_".
func metricUnit(key string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return '_'
		}
		return r
	}, strings.ReplaceAll(key, "_per_", "/"))
}

// benchNum formats a value with at least four significant figures, without
// an exponent from 1e-4 upward.
func benchNum(v float64) string {
	if v >= 1000 || v <= -1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
