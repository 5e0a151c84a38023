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

// envLine is the line that opens a JSON Lines stream: the environment
// record the stream's records name in their "env" key.
type envLine struct {
	SchemaVersion int             `json:"schema_version"`
	Environment   json.RawMessage `json:"environment"`
}

// WriteJSONLEnv writes env, the run's environment record (what env.json
// holds), as one line {"schema_version":N,"environment":{...}}. A stream
// opens with it, so that it stands alone without env.json.
func WriteJSONLEnv(w io.Writer, env any) error {
	b, err := json.Marshal(env)
	if err != nil {
		return fmt.Errorf("results: encoding the environment: %w", err)
	}
	line, err := json.Marshal(envLine{SchemaVersion, b})
	if err != nil {
		return fmt.Errorf("results: encoding the environment: %w", err)
	}
	_, err = w.Write(append(line, '\n'))
	return err
}

// ReadJSONL reads the records written by WriteJSONL, skipping environment
// lines (see ReadJSONLStream) and blank lines.
func ReadJSONL(r io.Reader) ([]Record, error) {
	_, recs, err := ReadJSONLStream(r)
	return recs, err
}

// ReadJSONLStream reads a JSON Lines stream: the environment records
// written by WriteJSONLEnv, as raw JSON in the order met, and the result
// records. Blank lines are skipped. On error it returns what it read before
// the bad line.
func ReadJSONLStream(r io.Reader) (envs []json.RawMessage, recs []Record, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20) // a record with many notes can exceed the default 64 KiB
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var probe struct {
			envLine
			Experiment *string `json:"experiment"`
		}
		if err := json.Unmarshal(sc.Bytes(), &probe); err != nil {
			return envs, recs, fmt.Errorf("results: JSON Lines line %d: %w", line, err)
		}
		if probe.Environment != nil && probe.Experiment == nil {
			if probe.SchemaVersion > SchemaVersion {
				return envs, recs, fmt.Errorf("results: JSON Lines line %d: schema_version %d, newer than this build reads (%d): use a newer durabench", line, probe.SchemaVersion, SchemaVersion)
			}
			envs = append(envs, append(json.RawMessage(nil), probe.Environment...))
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return envs, recs, fmt.Errorf("results: JSON Lines line %d: %w", line, err)
		}
		recs = append(recs, rec)
	}
	return envs, recs, sc.Err()
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
