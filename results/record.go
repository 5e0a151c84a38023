package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/durabench/durabench/measure"
)

// Invariants:
//   - Params marshal to a JSON object whose keys keep the slice's order; keys
//     are unique (marshalling refuses duplicates).
//   - Round marshals as a number, or as the string "pooled" for PooledRound;
//     both parse back to the same Round.
//   - Stats marshal the write/sync keys only when HasSplit, and a parsed Stats
//     has HasSplit exactly when those keys were present.

// Param is one parameter of a case, such as method=fdatasync.
type Param struct{ Key, Value string }

// Params are the parameters of a case, in the order they are reported.
type Params []Param

// Get returns the value of key, or "" if there is none.
func (ps Params) Get(key string) string {
	for _, p := range ps {
		if p.Key == key {
			return p.Value
		}
	}
	return ""
}

// MarshalJSON writes ps as a JSON object with its keys in order. Duplicate
// keys are an error.
func (ps Params) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	seen := make(map[string]bool, len(ps))
	for i, p := range ps {
		if seen[p.Key] {
			return nil, fmt.Errorf("results: parameter %q given twice; each key must appear once", p.Key)
		}
		seen[p.Key] = true
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(p.Key) // strings always marshal
		v, _ := json.Marshal(p.Value)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a JSON object of string values, keeping its key order.
// Duplicate keys are an error, as in MarshalJSON. JSON null leaves ps
// unchanged.
func (ps *Params) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("results: params must be a JSON object, got %s", data)
	}
	out := Params{}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("results: reading params: %w", err)
		}
		key := tok.(string) // object keys are always strings
		if seen[key] {
			return fmt.Errorf("results: params key %q given twice; each key must appear once", key)
		}
		seen[key] = true
		var value string
		if err := dec.Decode(&value); err != nil {
			return fmt.Errorf("results: params key %q: value must be a string: %w", key, err)
		}
		out = append(out, Param{Key: key, Value: value})
	}
	*ps = out
	return nil
}

// Round numbers a round of a case (1, 2, ...), or is PooledRound.
type Round int

// PooledRound marks a record summarising the raw samples of all rounds.
const PooledRound Round = -1

// String returns the round number, or "pooled".
func (r Round) String() string {
	if r == PooledRound {
		return "pooled"
	}
	return strconv.Itoa(int(r))
}

// MarshalJSON writes the round number, or the string "pooled".
func (r Round) MarshalJSON() ([]byte, error) {
	switch {
	case r == PooledRound:
		return []byte(`"pooled"`), nil
	case r < 0:
		return nil, fmt.Errorf("results: round %d is negative; a round is a number >= 0, or PooledRound", int(r))
	}
	return strconv.AppendInt(nil, int64(r), 10), nil
}

// UnmarshalJSON reads a round number or "pooled". JSON null leaves r
// unchanged.
func (r *Round) UnmarshalJSON(data []byte) error {
	switch string(data) {
	case "null":
		return nil
	case `"pooled"`:
		*r = PooledRound
		return nil
	}
	n, err := strconv.Atoi(string(data))
	if err != nil || n < 0 {
		return fmt.Errorf("results: round must be a non-negative integer or \"pooled\", got %s", data)
	}
	*r = Round(n)
	return nil
}

// Record is one result: a case of an experiment, for one round or pooled
// over all rounds. Its JSON form is the package's stable schema.
type Record struct {
	Experiment string             `json:"experiment"`
	Params     Params             `json:"params"`
	Round      Round              `json:"round"`
	N          int                `json:"n"`
	Stats      Stats              `json:"stats"`
	OpsPerSec  float64            `json:"ops_per_sec"`
	MiBPerSec  float64            `json:"mib_per_sec"`
	Metrics    map[string]float64 `json:"metrics,omitempty"`
	Notes      []string           `json:"notes,omitempty"`
	Env        string             `json:"env"`
	// Histogram is the shape of the samples behind Stats.Total, kept on
	// pooled records so that a report can draw histograms and CDFs.
	Histogram Histogram `json:"histogram,omitempty"`
}

// Histogram is the bins of a measure.Distribution: sparse, ascending,
// each [Lo, Hi) nanoseconds holding Count samples. Its JSON form is an
// array of [lo_ns, hi_ns, count] triples.
type Histogram []measure.Bucket

// MarshalJSON writes the bins as [lo_ns, hi_ns, count] triples.
func (h Histogram) MarshalJSON() ([]byte, error) {
	buf := []byte{'['}
	for i, b := range h {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		buf = strconv.AppendInt(buf, b.Lo, 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, b.Hi, 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(b.Count), 10)
		buf = append(buf, ']')
	}
	return append(buf, ']'), nil
}

// UnmarshalJSON reads [lo_ns, hi_ns, count] triples. JSON null leaves h
// unchanged.
func (h *Histogram) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var triples [][3]int64
	if err := json.Unmarshal(data, &triples); err != nil {
		return fmt.Errorf("results: histogram must be an array of [lo_ns, hi_ns, count]: %w", err)
	}
	out := make(Histogram, len(triples))
	for i, t := range triples {
		if t[0] >= t[1] || t[2] < 0 {
			return fmt.Errorf("results: histogram bin %d %v: want lo < hi and count >= 0", i, t)
		}
		out[i] = measure.Bucket{Lo: t[0], Hi: t[1], Count: int(t[2])}
	}
	*h = out
	return nil
}

// SchemaVersion is the version of the JSON Lines schema (see the package
// doc) this package writes, as each line's schema_version. It grows by one
// whenever a key changes meaning or disappears; new optional keys keep it.
const SchemaVersion = 1

// plainRecord is Record without its methods, so that its JSON methods can
// use the default encoding without recursing.
type plainRecord Record

// versionedRecord is a record line: schema_version first, then the record's
// keys.
type versionedRecord struct {
	SchemaVersion int `json:"schema_version"`
	plainRecord
}

// MarshalJSON writes the record with schema_version (SchemaVersion) as its
// first key.
func (rec Record) MarshalJSON() ([]byte, error) {
	return json.Marshal(versionedRecord{SchemaVersion, plainRecord(rec)})
}

// UnmarshalJSON reads a record; since the JSON gives n once, it is copied
// into the parsed Stats (Total, and Write and Sync when split). A record
// of a newer schema_version than SchemaVersion is refused; one without
// schema_version predates it and has version 1's keys.
func (rec *Record) UnmarshalJSON(data []byte) error {
	var v versionedRecord
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v.SchemaVersion > SchemaVersion {
		return fmt.Errorf("results: record has schema_version %d, newer than this build reads (%d): use a newer durabench", v.SchemaVersion, SchemaVersion)
	}
	p := v.plainRecord
	p.Stats.Total.N = p.N
	if p.Stats.HasSplit {
		p.Stats.Write.N, p.Stats.Sync.N = p.N, p.N
	}
	*rec = Record(p)
	return nil
}

// Stats are a record's latency statistics: the whole interval (Total) and,
// when HasSplit, its write and sync parts timed apart.
type Stats struct {
	Total, Write, Sync measure.Stats
	HasSplit           bool
}

// NewStats summarises the samples of a round or a pool. Pass nil write and
// sync when the parts were not timed apart.
func NewStats(total, write, sync []int64) Stats {
	s := Stats{Total: measure.Summarize(total)}
	if write != nil || sync != nil {
		s.Write, s.Sync, s.HasSplit = measure.Summarize(write), measure.Summarize(sync), true
	}
	return s
}

// statsJSON is the stable JSON shape of Stats; the split keys are pointers so
// that they are absent, not zero, when not measured.
type statsJSON struct {
	Mean      float64  `json:"mean_ns"`
	P50       int64    `json:"p50_ns"`
	P90       int64    `json:"p90_ns"`
	P99       int64    `json:"p99_ns"`
	P999      int64    `json:"p999_ns"`
	Max       int64    `json:"max_ns"`
	Min       int64    `json:"min_ns"`
	Std       float64  `json:"std_ns"`
	WriteMean *float64 `json:"write_mean_ns,omitempty"`
	WriteP50  *int64   `json:"write_p50_ns,omitempty"`
	WriteP99  *int64   `json:"write_p99_ns,omitempty"`
	SyncMean  *float64 `json:"sync_mean_ns,omitempty"`
	SyncP50   *int64   `json:"sync_p50_ns,omitempty"`
	SyncP99   *int64   `json:"sync_p99_ns,omitempty"`
}

// MarshalJSON writes the stats keys of the schema (see the package doc).
func (s Stats) MarshalJSON() ([]byte, error) {
	t := s.Total
	j := statsJSON{Mean: t.Mean, P50: t.P50, P90: t.P90, P99: t.P99, P999: t.P999, Max: t.Max, Min: t.Min, Std: t.Std}
	if s.HasSplit {
		j.WriteMean, j.WriteP50, j.WriteP99 = &s.Write.Mean, &s.Write.P50, &s.Write.P99
		j.SyncMean, j.SyncP50, j.SyncP99 = &s.Sync.Mean, &s.Sync.P50, &s.Sync.P99
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the stats keys of the schema. Figures the schema does
// not carry (N, and the split parts' other percentiles) stay zero.
func (s *Stats) UnmarshalJSON(data []byte) error {
	var j statsJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("results: reading stats: %w", err)
	}
	*s = Stats{Total: measure.Stats{Mean: j.Mean, Std: j.Std, Min: j.Min, P50: j.P50, P90: j.P90, P99: j.P99, P999: j.P999, Max: j.Max}}
	if j.WriteMean == nil && j.SyncMean == nil {
		return nil
	}
	s.HasSplit = true
	s.Write = measure.Stats{Mean: deref(j.WriteMean), P50: deref(j.WriteP50), P99: deref(j.WriteP99)}
	s.Sync = measure.Stats{Mean: deref(j.SyncMean), P50: deref(j.SyncP50), P99: deref(j.SyncP99)}
	return nil
}

// deref returns *p, or zero for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
