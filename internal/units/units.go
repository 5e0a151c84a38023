// Package units parses and prints the byte sizes that durabench's flags take
// ("4K", "64MiB") and its tables show. Multiples are binary: K = KiB = 1024.
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

var multipliers = []struct {
	suffixes []string
	shift    uint
}{
	{[]string{"k", "kb", "kib"}, 10},
	{[]string{"m", "mb", "mib"}, 20},
	{[]string{"g", "gb", "gib"}, 30},
	{[]string{"t", "tb", "tib"}, 40},
	{[]string{"b", ""}, 0},
}

// ParseSize parses a positive byte size: a whole number with an optional unit
// K, M, G or T (also KB/KiB...; all binary, case-insensitive) or B.
func ParseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("size %q: want a positive whole number with an optional unit (4096, 4K, 64MiB, 1G)", s)
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %s is too large", s, num)
	}
	for _, m := range multipliers {
		for _, suf := range m.suffixes {
			if unit != suf {
				continue
			}
			if n == 0 {
				return 0, fmt.Errorf("size %q: must be greater than zero", s)
			}
			if n > math.MaxInt64>>m.shift {
				return 0, fmt.Errorf("size %q is too large", s)
			}
			return n << m.shift, nil
		}
	}
	return 0, fmt.Errorf("size %q: unknown unit %q; use K, M, G or T (binary: 1K = 1024 bytes)", s, t[i:])
}

// FormatSize prints n with the largest binary unit that divides it exactly:
// 4096 is "4K", 1048576 is "1M", 1000 is "1000".
func FormatSize(n int64) string {
	for _, u := range []struct {
		name  string
		shift uint
	}{{"T", 40}, {"G", 30}, {"M", 20}, {"K", 10}} {
		if n != 0 && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
