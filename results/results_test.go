package results

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/durabench/durabench/internal/golden"
)

func TestGoldenJSONL(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, fixtureRecords()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "records.jsonl.golden", buf.Bytes())
}

func TestGoldenCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, fixtureRecords()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "records.csv.golden", buf.Bytes())
}

func TestGoldenBench(t *testing.T) {
	var buf bytes.Buffer
	config := [][2]string{{"goos", "linux"}, {"goarch", "amd64"}, {"cpu", "Test CPU @ 2.00GHz"}, {"fs", "ext4"}, {"device", "vda"}}
	if err := WriteBench(&buf, config, fixtureRecords()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "records.bench.golden", buf.Bytes())
}

func TestJSONLRoundTrip(t *testing.T) {
	recs := fixtureRecords()
	var first bytes.Buffer
	if err := WriteJSONL(&first, recs); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSONL(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(recs) {
		t.Fatalf("read %d records, wrote %d", len(back), len(recs))
	}
	var second bytes.Buffer
	if err := WriteJSONL(&second, back); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Fatalf("rewriting what was read changed it:\nfirst:\n%s\nsecond:\n%s", &first, &second)
	}
	for i, got := range back {
		want := recs[i]
		if got.Experiment != want.Experiment || !slices.Equal(got.Params, want.Params) || got.Round != want.Round ||
			got.N != want.N || got.Env != want.Env || !slices.Equal(got.Notes, want.Notes) || len(got.Metrics) != len(want.Metrics) {
			t.Errorf("record %d read back as %+v, want %+v", i, got, want)
		}
		for k, v := range want.Metrics {
			if got.Metrics[k] != v {
				t.Errorf("record %d metric %s = %v, want %v", i, k, got.Metrics[k], v)
			}
		}
		gs, ws := got.Stats, want.Stats
		if gs.Total != ws.Total || gs.HasSplit != ws.HasSplit {
			t.Errorf("record %d stats read back as %+v, want %+v", i, gs.Total, ws.Total)
		}
		if ws.HasSplit && (gs.Write.Mean != ws.Write.Mean || gs.Write.P99 != ws.Write.P99 ||
			gs.Sync.P50 != ws.Sync.P50 || gs.Sync.N != ws.Sync.N) {
			t.Errorf("record %d split read back as %+v / %+v, want %+v / %+v", i, gs.Write, gs.Sync, ws.Write, ws.Sync)
		}
	}
}

func TestReadJSONLReportsTheBadLine(t *testing.T) {
	in := `{"experiment":"sync","params":{},"round":1,"n":1,"stats":{},"ops_per_sec":0,"mib_per_sec":0,"env":""}` + "\n\n" +
		`{"experiment":"sync","params":{},"round":"first","n":1}` + "\n"
	recs, err := ReadJSONL(strings.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), `"first"`) {
		t.Fatalf("ReadJSONL error = %v, want one naming line 3 and the bad round", err)
	}
	if len(recs) != 1 {
		t.Fatalf("ReadJSONL returned %d records before the bad line, want 1", len(recs))
	}
}

func TestRoundJSON(t *testing.T) {
	for _, tt := range []struct {
		r    Round
		want string
	}{{0, "0"}, {3, "3"}, {PooledRound, `"pooled"`}} {
		b, err := json.Marshal(tt.r)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal(Round(%d)) = %s, %v; want %s", tt.r, b, err, tt.want)
		}
		var back Round
		if err := json.Unmarshal(b, &back); err != nil || back != tt.r {
			t.Errorf("Unmarshal(%s) = %d, %v; want %d", b, back, err, tt.r)
		}
	}
	if _, err := json.Marshal(Round(-2)); err == nil || !strings.Contains(err.Error(), "round -2") {
		t.Errorf("Marshal(Round(-2)) error = %v, want one naming round -2", err)
	}
	for _, bad := range []string{`"all"`, `-3`, `1.5`, `true`} {
		var r Round
		if err := json.Unmarshal([]byte(bad), &r); err == nil {
			t.Errorf("Unmarshal(%s) accepted as round %d", bad, r)
		}
	}
}

func TestParamsJSONKeepsOrder(t *testing.T) {
	ps := Params{{"workload", "overwrite"}, {"bs", "4K"}, {"method", "fdatasync"}, {"a", `quote " and \`}}
	b, err := json.Marshal(ps)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"workload":"overwrite","bs":"4K","method":"fdatasync","a":"quote \" and \\"}`; string(b) != want {
		t.Fatalf("Marshal = %s, want %s", b, want)
	}
	var back Params
	if err := json.Unmarshal(b, &back); err != nil || !slices.Equal(back, ps) {
		t.Fatalf("Unmarshal = %v, %v; want %v", back, err, ps)
	}
	if got := back.Get("bs"); got != "4K" {
		t.Errorf("Get(bs) = %q", got)
	}
	if got := back.Get("missing"); got != "" {
		t.Errorf("Get(missing) = %q, want empty", got)
	}
	if b, _ := json.Marshal(Params(nil)); string(b) != "{}" {
		t.Errorf("Marshal(nil Params) = %s, want {}", b)
	}
}

func TestParamsJSONRefusals(t *testing.T) {
	if _, err := json.Marshal(Params{{"bs", "4K"}, {"bs", "8K"}}); err == nil || !strings.Contains(err.Error(), `"bs" given twice`) {
		t.Errorf("duplicate key: error = %v", err)
	}
	for _, bad := range []string{`{"bs":4096}`, `["bs","4K"]`, `"bs"`} {
		var ps Params
		if err := json.Unmarshal([]byte(bad), &ps); err == nil {
			t.Errorf("Unmarshal(%s) accepted as %v", bad, ps)
		}
	}
}

// jsonKeys returns the keys of a JSON object in order.
func jsonKeys(t *testing.T, obj []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(obj))
	var keys []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestStatsJSONKeys(t *testing.T) {
	base := []string{"mean_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns", "min_ns", "std_ns"}
	split := []string{"write_mean_ns", "write_p50_ns", "write_p99_ns", "sync_mean_ns", "sync_p50_ns", "sync_p99_ns"}

	b, _ := json.Marshal(NewStats([]int64{1, 2}, nil, nil))
	if got := jsonKeys(t, b); !slices.Equal(got, base) {
		t.Errorf("keys without split = %v, want %v", got, base)
	}
	b, _ = json.Marshal(NewStats([]int64{3, 5}, []int64{1, 1}, []int64{2, 4}))
	if got, want := jsonKeys(t, b), append(slices.Clone(base), split...); !slices.Equal(got, want) {
		t.Errorf("keys with split = %v, want %v", got, want)
	}
	var s Stats
	if err := json.Unmarshal(b, &s); err != nil || !s.HasSplit || s.Sync.Mean != 3 || s.Write.P50 != 1 || s.Total.Max != 5 {
		t.Errorf("Unmarshal(%s) = %+v, %v", b, s, err)
	}
}

func TestRecordJSONKeys(t *testing.T) {
	rec := fixtureRecords()[5]
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"schema_version", "experiment", "params", "round", "n", "stats", "ops_per_sec", "mib_per_sec", "metrics", "notes", "env"}
	if got := jsonKeys(t, b); !slices.Equal(got, want) {
		t.Errorf("record keys = %v, want %v", got, want)
	}
	rec.Metrics, rec.Notes = nil, nil
	b, _ = json.Marshal(rec)
	want = slices.DeleteFunc(want, func(k string) bool { return k == "metrics" || k == "notes" })
	if got := jsonKeys(t, b); !slices.Equal(got, want) {
		t.Errorf("record keys without metrics and notes = %v, want %v", got, want)
	}
}

func TestSchemaVersion(t *testing.T) {
	b, err := json.Marshal(fixtureRecords()[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte(`{"schema_version":1,"experiment":`)) {
		t.Errorf("record line %s does not open with schema_version 1", b)
	}
	// A line without schema_version predates it: read as version 1.
	old := `{"experiment":"sync","params":{"m":"x"},"round":1,"n":2,"stats":{},"ops_per_sec":0,"mib_per_sec":0,"env":"e"}`
	if recs, err := ReadJSONL(strings.NewReader(old)); err != nil || len(recs) != 1 || recs[0].N != 2 {
		t.Errorf("ReadJSONL of a line without schema_version = %+v, %v; want one record with n 2", recs, err)
	}
	newer := `{"schema_version":2,"experiment":"sync","params":{},"round":1,"n":2,"stats":{},"env":"e"}`
	if _, err := ReadJSONL(strings.NewReader(newer)); err == nil || !strings.Contains(err.Error(), "schema_version 2") || !strings.Contains(err.Error(), "use a newer durabench") {
		t.Errorf("ReadJSONL of schema_version 2 = %v, want a refusal naming the version and what to do", err)
	}
}

func TestJSONLStreamWithEnvironment(t *testing.T) {
	env := map[string]any{"id": "abc123", "durabench": map[string]any{"revision": "183fe529"}}
	var buf bytes.Buffer
	if err := WriteJSONLEnv(&buf, env); err != nil {
		t.Fatal(err)
	}
	first := buf.String()
	if want := `{"schema_version":1,"environment":{"durabench":{"revision":"183fe529"},"id":"abc123"}}` + "\n"; first != want {
		t.Errorf("environment line = %s, want %s", first, want)
	}
	if err := WriteJSONL(&buf, fixtureRecords()); err != nil {
		t.Fatal(err)
	}
	envs, recs, err := ReadJSONLStream(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(envs) != 1 || string(envs[0]) != `{"durabench":{"revision":"183fe529"},"id":"abc123"}` {
		t.Errorf("environments read = %q, want the one written", envs)
	}
	if len(recs) != len(fixtureRecords()) {
		t.Errorf("read %d records after the environment line, want %d", len(recs), len(fixtureRecords()))
	}
	if plain, err := ReadJSONL(bytes.NewReader(buf.Bytes())); err != nil || len(plain) != len(recs) {
		t.Errorf("ReadJSONL = %d records, %v; want %d, the environment line skipped", len(plain), err, len(recs))
	}
	newer := `{"schema_version":9,"environment":{}}`
	if _, _, err := ReadJSONLStream(strings.NewReader(newer)); err == nil || !strings.Contains(err.Error(), "schema_version 9") {
		t.Errorf("ReadJSONLStream of a version 9 environment = %v, want a refusal", err)
	}
}

func TestCSVColumnsAndCells(t *testing.T) {
	var buf bytes.Buffer
	recs := fixtureRecords()
	if err := WriteCSV(&buf, recs); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(recs)+1 {
		t.Fatalf("%d CSV rows, want a header and %d records", len(rows), len(recs))
	}
	header := rows[0]
	wantHeader := []string{"experiment", "workload", "bs", "method", "writers", "sync_every", "engine", "journal_mode", "threads",
		"round", "n", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns", "min_ns", "std_ns",
		"write_mean_ns", "write_p50_ns", "write_p99_ns", "sync_mean_ns", "sync_p50_ns", "sync_p99_ns",
		"ops_per_sec", "mib_per_sec", "records_per_sync", "syncs_per_op", "notes", "env"}
	if !slices.Equal(header, wantHeader) {
		t.Fatalf("header = %v\nwant     %v", header, wantHeader)
	}
	cell := func(row int, col string) string { return rows[row][slices.Index(header, col)] }
	checks := []struct {
		row       int
		col, want string
	}{
		{1, "method", "fdatasync"}, {1, "round", "1"}, {1, "p50_ns", "36000"}, {1, "sync_p99_ns", "46000"},
		{1, "writers", ""}, {1, "records_per_sync", ""},
		{3, "round", "pooled"}, {3, "n", "8"}, {3, "p50_ns", "36000"}, {3, "max_ns", "90000"},
		{4, "write_mean_ns", ""}, {4, "mean_ns", "1362.5"},
		{6, "records_per_sync", "16"}, {6, "syncs_per_op", "0.0625"}, {6, "workload", ""},
		{7, "engine", "system /usr/lib/libsqlite3.so.0"},
		{7, "notes", "asked synchronous=full, got normal; fullfsync=1 ignored"},
	}
	for _, c := range checks {
		if got := cell(c.row, c.col); got != c.want {
			t.Errorf("row %d %s = %q, want %q", c.row, c.col, got, c.want)
		}
	}
}

func TestCSVRefusesDuplicateColumns(t *testing.T) {
	rec := Record{Experiment: "sync", Params: Params{{"n", "3"}}}
	err := WriteCSV(&bytes.Buffer{}, []Record{rec})
	if err == nil || !strings.Contains(err.Error(), `column "n" would appear twice`) {
		t.Fatalf("WriteCSV with a parameter named n: error = %v", err)
	}
}

// Result lines of the Go benchmark format, checked field by field below.
var (
	benchConfigLine = regexp.MustCompile(`^[\p{Ll}][^\s\p{Lu}:]*: .*$`)
	benchUnitLine   = regexp.MustCompile(`^Unit \S+( [a-z]+=\S+)+$`)
	benchNameField  = regexp.MustCompile(`^Benchmark\p{Lu}\S*$`)
)

// benchResult is one parsed result line.
type benchResult struct {
	name   string
	n      int
	values map[string]float64
}

// parseBench checks every line of a benchmark file against the format's
// grammar and returns the results.
func parseBench(t *testing.T, text string) []benchResult {
	t.Helper()
	var results []benchResult
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "Benchmark"):
			fields := strings.Fields(line)
			if !benchNameField.MatchString(fields[0]) || len(fields) < 4 || len(fields)%2 != 0 {
				t.Fatalf("line %d: not a result line: %q", i+1, line)
			}
			n, err := strconv.Atoi(fields[1])
			if err != nil {
				t.Fatalf("line %d: iterations %q are not an integer", i+1, fields[1])
			}
			r := benchResult{name: fields[0], n: n, values: map[string]float64{}}
			for j := 2; j < len(fields); j += 2 {
				v, err := strconv.ParseFloat(fields[j], 64)
				if err != nil {
					t.Fatalf("line %d: value %q is not a number", i+1, fields[j])
				}
				if _, dup := r.values[fields[j+1]]; dup {
					t.Fatalf("line %d: unit %s twice", i+1, fields[j+1])
				}
				r.values[fields[j+1]] = v
			}
			results = append(results, r)
		case strings.HasPrefix(line, "Unit "):
			if !benchUnitLine.MatchString(line) {
				t.Fatalf("line %d: bad unit line %q", i+1, line)
			}
		default:
			if !benchConfigLine.MatchString(line) {
				t.Fatalf("line %d: neither a result, a unit nor a config line: %q", i+1, line)
			}
		}
	}
	return results
}

func TestBenchFollowsTheFormat(t *testing.T) {
	var buf bytes.Buffer
	recs := fixtureRecords()
	if err := WriteBench(&buf, [][2]string{{"goos", "linux"}, {"kernel", "6.18 #1 SMP\nPREEMPT"}}, recs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "kernel: 6.18 #1 SMP PREEMPT\n") {
		t.Errorf("a line break in a config value was not flattened:\n%s", &buf)
	}
	results := parseBench(t, buf.String())

	count := map[string]int{}
	for _, r := range results {
		count[r.name]++
	}
	wantCount := map[string]int{
		"BenchmarkSync/workload=overwrite/bs=4K/method=fdatasync":                              2, // rounds only
		"BenchmarkSync/workload=append/bs=4K/method=none":                                      1,
		"BenchmarkWal/writers=4/sync_every=16/method=fdatasync":                                1, // pooled only
		"BenchmarkSqlite/engine=system__usr_lib_libsqlite3.so.0/journal_mode=wal/threads=1-4_": 1,
	}
	if len(count) != len(wantCount) {
		t.Errorf("result names %v, want %v", count, wantCount)
	}
	for name, want := range wantCount {
		if count[name] != want {
			t.Errorf("%s: %d lines, want %d", name, count[name], want)
		}
	}

	first := results[0]
	if first.n != recs[0].N || first.values["ns/op"] != math.Round(recs[0].Stats.Total.Mean) ||
		first.values["p50-ns"] != float64(recs[0].Stats.Total.P50) || first.values["p99-ns"] != float64(recs[0].Stats.Total.P99) ||
		first.values["ops/s"] != math.Round(recs[0].OpsPerSec) {
		t.Errorf("first result %+v does not match record %+v", first, recs[0])
	}
	// MB/s is 10^6 bytes: 99.5 MiB/s is 104.333312 MB/s, written to 4 figures.
	if got := first.values["MB/s"]; got != 104.3 {
		t.Errorf("MB/s = %v, want 104.3 (99.5 MiB/s)", got)
	}
	wal := results[3]
	if wal.values["records/sync"] != 16 || wal.values["syncs/op"] != 0.0625 {
		t.Errorf("wal metrics = %v, want records/sync 16 and syncs/op 0.0625", wal.values)
	}
	if _, ok := results[4].values["MB/s"]; ok {
		t.Errorf("a record without throughput reports MB/s: %v", results[4].values)
	}
}

func TestBenchRefusesBadConfigKeys(t *testing.T) {
	for _, key := range []string{"", "GOOS", "go os", "Kernel", "fs:type"} {
		err := WriteBench(&bytes.Buffer{}, [][2]string{{key, "x"}}, nil)
		if err == nil || !strings.Contains(err.Error(), strconv.Quote(key)) {
			t.Errorf("config key %q: error = %v", key, err)
		}
	}
}
