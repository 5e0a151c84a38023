package results

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

// FuzzReadJSONL feeds arbitrary bytes to ReadJSONL. Whatever it accepts is
// one record per non-blank line, and is a fixed point after one
// normalisation: WriteJSONL writes it back, ReadJSONL reads that to the same
// records, and writing those gives the same bytes. A refusal names the line.
func FuzzReadJSONL(f *testing.F) {
	golden, err := os.ReadFile("testdata/records.jsonl.golden")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	for _, line := range bytes.SplitAfter(golden, []byte("\n"))[:3] {
		f.Add(line)
	}
	for _, s := range []string{"", "\n\n", "{}", "null", `{"round":"pooled"}`, `{"round":-1}`,
		`{"params":{"a":"1","a":"2"}}`, `{"params":{"a":1}}`, `{"stats":{"sync_mean_ns":5}}`,
		`{"metrics":{}, "notes":[]}`, "{}\r\n{}", "{} {}", `{"n":1e3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadJSONL(bytes.NewReader(data))
		lines := nonBlankLines(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "results: JSON Lines line ") {
				t.Fatalf("ReadJSONL error %q does not name the line", err)
			}
			if len(recs) >= lines {
				t.Fatalf("ReadJSONL failed but returned %d records of %d lines", len(recs), lines)
			}
			return
		}
		if len(recs) != lines {
			t.Fatalf("ReadJSONL read %d records from %d non-blank lines", len(recs), lines)
		}
		var b1 bytes.Buffer
		if err := WriteJSONL(&b1, recs); err != nil {
			t.Fatalf("ReadJSONL accepted records that WriteJSONL cannot write: %v", err)
		}
		recs2, err := ReadJSONL(bytes.NewReader(b1.Bytes()))
		if err != nil || len(recs2) != len(recs) {
			t.Fatalf("reading back what WriteJSONL wrote: %d records, %v; want %d", len(recs2), err, len(recs))
		}
		for i := range recs {
			if a, b := normalized(recs[i]), normalized(recs2[i]); !reflect.DeepEqual(a, b) {
				t.Fatalf("record %d changed in a write and read:\n%#v\n%#v", i, a, b)
			}
		}
		var b2 bytes.Buffer
		if err := WriteJSONL(&b2, recs2); err != nil || !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("writing the records read back gives other bytes (%v):\n%s\n%s", err, b1.Bytes(), b2.Bytes())
		}
	})
}

// nonBlankLines counts the lines ReadJSONL must turn into records.
func nonBlankLines(data []byte) int {
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			n++
		}
	}
	return n
}

// normalized treats empty and absent lists and maps alike, as the JSON form
// (omitempty) does.
func normalized(r Record) Record {
	if len(r.Params) == 0 {
		r.Params = nil
	}
	if len(r.Metrics) == 0 {
		r.Metrics = nil
	}
	if len(r.Notes) == 0 {
		r.Notes = nil
	}
	return r
}
