package results

import "testing"

func TestFormatDuration(t *testing.T) {
	for ns, want := range map[int64]string{
		0:             "0 ns",
		999:           "999 ns",
		1_000:         "1.0 µs",
		1_200:         "1.2 µs",
		16_500:        "16.5 µs",
		99_949:        "99.9 µs",
		99_950:        "100 µs",
		109_000:       "109 µs",
		999_499:       "999 µs",
		999_500:       "1.00 ms",
		2_000_000:     "2.00 ms",
		16_540_000:    "16.5 ms",
		109_000_000:   "109 ms",
		999_499_999:   "999 ms",
		999_500_000:   "1.00 s",
		1_300_000_000: "1.30 s",
		125e9:         "125 s",
		4321e9:        "4321 s",
		-1_200:        "-1.2 µs",
	} {
		if got := FormatDuration(ns); got != want {
			t.Errorf("FormatDuration(%d) = %q, want %q", ns, got, want)
		}
	}
}

func TestFormatRate(t *testing.T) {
	for ops, want := range map[float64]string{
		0:           "0 /s",
		0.5:         "0.50 /s",
		1.234:       "1.23 /s",
		9.999:       "10.0 /s",
		12.34:       "12.3 /s",
		99.96:       "100 /s",
		500:         "500 /s",
		1_000:       "1,000 /s",
		143_769.4:   "143,769 /s",
		1_234_567.8: "1,234,568 /s",
		-2_500:      "-2,500 /s",
	} {
		if got := FormatRate(ops); got != want {
			t.Errorf("FormatRate(%v) = %q, want %q", ops, got, want)
		}
	}
}
