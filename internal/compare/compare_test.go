package compare

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/golden"
	"github.com/durabench/durabench/internal/saved"
	"github.com/durabench/durabench/results"
)

// Two committed runs measured here on different file systems (ext4 on the
// VM's disk, tmpfs), standing for two machines: every case lines up
// although the environments differ, each later run gets a ratio, and with
// 5 rounds each the U test can judge every case.
func TestCompareTwoMachines(t *testing.T) {
	var runs []saved.Run
	for _, n := range []string{"ext4", "tmpfs"} {
		r, err := saved.Load(filepath.Join("testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	if runs[0].Env.FSType == runs[1].Env.FSType {
		t.Fatalf("the fixtures share a file system (%s): they should stand for two machines", runs[0].Env.FSType)
	}
	c, err := Compare(runs)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Render(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "ext4-tmpfs.golden", buf.Bytes())
	if len(c.Tables) != 1 || c.Tables[0].Experiment != "sqlite" {
		t.Fatalf("tables %+v, want one sqlite table", c.Tables)
	}
	rows := c.Tables[0].Rows
	if len(rows) != 8 { // 2 engines × 2 journal modes × 2 synchronous levels
		t.Errorf("%d cases, want 8", len(rows))
	}
	for _, r := range rows {
		if strings.Contains(r.Key, "sqlite_version") {
			t.Errorf("an environment param keys %s", r.Key)
		}
		cells := r.Cells["per s"]
		if !cells[0].Present || !cells[1].Present {
			t.Errorf("%s is missing from a run: the keys did not line up", r.Key)
			continue
		}
		if len(cells[0].Values) != 5 || len(cells[1].Values) != 5 {
			t.Errorf("%s: %d and %d rounds, want 5 each", r.Key, len(cells[0].Values), len(cells[1].Values))
		}
		if want := cells[1].Center / cells[0].Center; math.Abs(cells[1].Ratio-want) > 1e-9 {
			t.Errorf("%s: ratio %v, want %v", r.Key, cells[1].Ratio, want)
		}
		if m := cells[1].Mark; m != "*" && m != "~" {
			t.Errorf("%s: mark %q with 5 rounds each, want * or ~", r.Key, m)
		}
		if m := cells[1].Mark; (m == "*") != (cells[1].P < Alpha) {
			t.Errorf("%s: mark %q at p=%v", r.Key, m, cells[1].P)
		}
	}
}

// rec is a sqlite record of one round (round 0: pooled) at ops/s.
func rec(engine, version string, round int, ops float64) results.Record {
	r := results.Record{Experiment: "sqlite", Params: results.Params{
		{Key: "engine", Value: engine}, {Key: "sqlite_version", Value: version},
		{Key: "journal_mode", Value: "wal"}, {Key: "synchronous", Value: "full"},
		{Key: "checkpoint_fullfsync", Value: "1"}, {Key: "asked_checkpoint_fullfsync", Value: "default"},
	}, Round: results.Round(round), OpsPerSec: ops}
	r.Stats.Total.P99 = int64(1e9 / ops)
	if round == 0 {
		r.Round = results.PooledRound
	}
	return r
}

// With 3 rounds each the U test cannot reach p < 0.05 whatever the
// figures: the mark is "?" and the note says so, never a silent "~". A
// run without rounds cannot be judged either. The engine's version and
// an effective checkpoint_fullfsync that differs between machines (asked
// as "default" on both) do not split the case.
func TestCompareTooFewRounds(t *testing.T) {
	a := saved.Run{Path: "a", HasEnv: true, Env: envinfo.Env{OS: "linux", FSType: "ext4"}}
	b := saved.Run{Path: "b", HasEnv: true, Env: envinfo.Env{OS: "darwin", FSType: "apfs"}}
	c := saved.Run{Path: "c"}
	for i, v := range []float64{1000, 1010, 990} {
		a.Records = append(a.Records, rec("mattn", "3.54.1", i+1, v))
		r := rec("mattn", "3.53.1", i+1, 3*v)
		r.Params[4].Value = "0"
		b.Records = append(b.Records, r)
	}
	c.Records = []results.Record{rec("mattn", "3.40.1", 0, 2000)}
	cmp, err := Compare([]saved.Run{a, b, c})
	if err != nil {
		t.Fatal(err)
	}
	rows := cmp.Tables[0].Rows
	if len(rows) != 1 {
		t.Fatalf("%d rows, want the one case on every run", len(rows))
	}
	cells := rows[0].Cells["per s"]
	if cells[1].Mark != "?" || cells[2].Mark != "?" {
		t.Errorf("marks %q and %q, want ? for 3+3 rounds and for a run without rounds", cells[1].Mark, cells[2].Mark)
	}
	if math.Abs(cells[1].Ratio-3) > 1e-9 || math.Abs(cells[2].Ratio-2) > 1e-9 {
		t.Errorf("ratios %v, %v, want 3 and 2", cells[1].Ratio, cells[2].Ratio)
	}
	var buf bytes.Buffer
	if err := cmp.Render(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"need >= 4 samples", "one value per run", "mattn sqlite_version=3.53.1", "no env.json"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCompareNeedsTwoRuns(t *testing.T) {
	if _, err := Compare([]saved.Run{{Path: "a"}}); err == nil || !strings.Contains(err.Error(), "two or more") {
		t.Errorf("one run: %v", err)
	}
}
