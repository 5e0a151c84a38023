package units

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestMulAddChecked(t *testing.T) {
	for _, tt := range []struct {
		name    string
		f       func(...int64) (int64, error)
		xs      []int64
		want    int64
		wantErr error
		exact   string
	}{
		{"mul", Mul, []int64{4096, 2100}, 4096 * 2100, nil, ""},
		{"mul zero", Mul, []int64{math.MaxInt64, 2, 0}, 0, nil, ""},
		{"mul nothing", Mul, nil, 1, nil, ""},
		// The fault of issue 10: (warmup + iterations) × 1M wrapped to 0.
		{"warmup times 1M", Mul, []int64{8796093022208 + 2000, 1 << 20}, 0, ErrOverflow, "9223372038951927808"},
		{"add", Add, []int64{math.MaxInt64 - 1, 1}, math.MaxInt64, nil, ""},
		{"add over", Add, []int64{math.MaxInt64, 1}, 0, ErrOverflow, "9223372036854775808"},
		{"negative", Mul, []int64{-1, 5}, 0, ErrNegative, ""},
		{"negative add", Add, []int64{5, -1}, 0, ErrNegative, ""},
	} {
		got, err := tt.f(tt.xs...)
		if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.wantErr)
			continue
		}
		if err == nil && got != tt.want {
			t.Errorf("%s = %d, want %d", tt.name, got, tt.want)
		}
		if tt.exact != "" && (err == nil || !strings.Contains(err.Error(), tt.exact)) {
			t.Errorf("%s: error %v does not state the exact figure %s", tt.name, err, tt.exact)
		}
	}
}

func TestCalcSticksAtFirstError(t *testing.T) {
	n, err := Of(100).Add(2000).Mul(1 << 20).Result()
	if err != nil || n != 2100<<20 {
		t.Fatalf("Of(100).Add(2000).Mul(1M) = %d, %v", n, err)
	}
	_, err = Of(8796093022208).Add(100).Mul(1 << 20).Add(1).Result()
	if !errors.Is(err, ErrOverflow) || !strings.Contains(err.Error(), "8.0 EiB") {
		t.Fatalf("overflowing chain: %v, want ErrOverflow stating 8.0 EiB", err)
	}
}

func TestHuman(t *testing.T) {
	for n, want := range map[int64]string{512: "512 bytes", 64 << 20: "64.0 MiB", 3 << 30: "3.0 GiB", math.MaxInt64: "8.0 EiB"} {
		if got := Human(n); got != want {
			t.Errorf("Human(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestSaturate: a figure comes through; an overflow becomes math.MaxInt64.
func TestSaturate(t *testing.T) {
	if got := Saturate(Add(1, 2)); got != 3 {
		t.Errorf("Saturate(Add(1, 2)) = %d, want 3", got)
	}
	if got := Saturate(Mul(math.MaxInt64, 2)); got != math.MaxInt64 {
		t.Errorf("Saturate(an overflow) = %d, want math.MaxInt64", got)
	}
	if got := Saturate(Of(-1).Add(5).Result()); got != math.MaxInt64 {
		t.Errorf("Saturate(a negative start) = %d, want math.MaxInt64", got)
	}
}
