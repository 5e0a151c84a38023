package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSONL writes recs as JSON Lines, one record per line, in the schema of
// the package doc.
func WriteJSONL(w io.Writer, recs []Record) error {
	var buf bytes.Buffer
	for i := range recs {
		b, err := json.Marshal(&recs[i])
		if err != nil {
			return fmt.Errorf("results: encoding record %d (%s %s): %w", i, recs[i].Experiment, caseName(recs[i]), err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// ReadJSONL reads records written by WriteJSONL. Blank lines are skipped.
func ReadJSONL(r io.Reader) ([]Record, error) {
	var recs []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20) // a record with many notes can exceed the default 64 KiB
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return recs, fmt.Errorf("results: JSON Lines line %d: %w", line, err)
		}
		recs = append(recs, rec)
	}
	return recs, sc.Err()
}

// caseName names a record's case for messages: its params as key=value
// joined by "/".
func caseName(rec Record) string {
	var buf bytes.Buffer
	for i, p := range rec.Params {
		if i > 0 {
			buf.WriteByte('/')
		}
		buf.WriteString(p.Key + "=" + p.Value)
	}
	return buf.String()
}
