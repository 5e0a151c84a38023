package units

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	good := map[string]int64{
		"4096": 4096, "4K": 4096, "4k": 4096, "4KiB": 4096, "4KB": 4096, " 64MiB ": 64 << 20,
		"1M": 1 << 20, "1G": 1 << 30, "2T": 2 << 40, "512B": 512, "16 K": 16 << 10,
	}
	for in, want := range good {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	bad := map[string]string{
		"":                     "positive whole number",
		"0":                    "greater than zero",
		"0K":                   "greater than zero",
		"-4K":                  "positive whole number",
		"4X":                   `unknown unit "x"`,
		"1.5M":                 `unknown unit ".5m"`,
		"K":                    "positive whole number",
		"9999999T":             "too large",
		"99999999999999999999": "too large",
	}
	for in, want := range bad {
		_, err := ParseSize(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSize(%q) error = %v, want it to say %q", in, err, want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{4096: "4K", 65536: "64K", 1 << 20: "1M", 64 << 20: "64M", 1 << 30: "1G", 1000: "1000", 1536: "1536"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
	for _, n := range []int64{512, 4096, 3 << 20, 100} {
		back, err := ParseSize(FormatSize(n))
		if err != nil || back != n {
			t.Errorf("ParseSize(FormatSize(%d)) = %d, %v", n, back, err)
		}
	}
}
