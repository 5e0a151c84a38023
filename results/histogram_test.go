package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/durabench/durabench/measure"
)

func TestHistogramJSONRoundTrip(t *testing.T) {
	rec := Record{Experiment: "sync", Params: Params{{Key: "method", Value: "fsync"}}, Round: PooledRound, N: 4,
		Histogram: Histogram(measure.Distribute([]int64{150_000, 150_400, 1_020_000, 999}).Bins)}
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, []Record{rec}); err != nil {
		t.Fatal(err)
	}
	if want := `"histogram":[[999,1000,1],[150000,151000,2],[1020000,1030000,1]]`; !strings.Contains(buf.String(), want) {
		t.Errorf("JSON Lines = %s, want it to contain %s", buf.String(), want)
	}
	back, err := ReadJSONL(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back[0].Histogram, rec.Histogram) {
		t.Errorf("read back %v, want %v", back[0].Histogram, rec.Histogram)
	}
}

func TestHistogramOmittedWhenEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, []Record{{Experiment: "sync", Round: 1}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "histogram") {
		t.Errorf("a record without a histogram wrote the key: %s", buf.String())
	}
}

func TestHistogramRefusesBadBins(t *testing.T) {
	for _, in := range []string{`[[5,5,1]]`, `[[1,2,-1]]`, `[1,2,3]`, `{"a":1}`} {
		var h Histogram
		if err := h.UnmarshalJSON([]byte(in)); err == nil || !strings.Contains(err.Error(), "histogram") {
			t.Errorf("UnmarshalJSON(%s) = %v, want an error naming the histogram", in, err)
		}
	}
}
