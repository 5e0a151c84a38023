package units

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

// FuzzParseSize checks ParseSize against an independent model: a size is
// accepted exactly when, trimmed and lower-cased, it is decimal digits, then
// optional spaces and a known unit, and its value (computed with big
// integers, so it cannot wrap) is in 1..MaxInt64; the value is then the one
// returned. Accepted sizes survive FormatSize. (Lists of sizes are
// runner.ParseList's, tested there.)
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"4096", "4K", "64MiB", " 1g ", "2T", "512B", "16 K", "0", "-4K",
		"1.5M", "9999999T", "8388607T", "8388608T", "9223372036854775807", "9223372036854775808",
		"8796093022208k", "1kb", "1 kib ", "4X", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseSize(s)
		want, ok := modelSize(s)
		if ok != (err == nil) {
			t.Fatalf("ParseSize(%q) = %d, %v; the model says accepted=%v (%v)", s, got, err, ok, want)
		}
		if !ok {
			if err.Error() == "" || !strings.Contains(err.Error(), "size") {
				t.Fatalf("ParseSize(%q): error %q does not say what was wrong", s, err)
			}
			return
		}
		if want.Cmp(big.NewInt(got)) != 0 {
			t.Fatalf("ParseSize(%q) = %d, want %s", s, got, want)
		}
		if back, err := ParseSize(FormatSize(got)); err != nil || back != got {
			t.Fatalf("ParseSize(FormatSize(%d)=%q) = %d, %v", got, FormatSize(got), back, err)
		}
	})
}

// modelSize is the size grammar written out independently of ParseSize.
func modelSize(s string) (*big.Int, bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return nil, false
	}
	digits := t[:i]
	unit := strings.TrimSpace(t[i:])
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20,
		"g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40}
	sh, ok := shift[unit]
	if !ok {
		return nil, false
	}
	n, _ := new(big.Int).SetString(digits, 10)
	n.Lsh(n, sh)
	if n.Sign() <= 0 || n.Cmp(big.NewInt(math.MaxInt64)) > 0 {
		return nil, false
	}
	return n, true
}
