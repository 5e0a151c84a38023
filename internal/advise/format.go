package advise

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/durabench/durabench/results"
)

// groupInt writes n with "," every three digits: 12,345.
func groupInt(n int64) string {
	if n < 0 {
		return "-" + groupInt(-n)
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// plural is "1 state", "1,000 states".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return groupInt(int64(n)) + " " + noun + "s"
}

// rate formats commits per second without the unit: "6,646", "12.3".
func rate(v float64) string { return strings.TrimSuffix(results.FormatRate(v), " /s") }

// ratio formats how many times a is b: "14×", "1.6×", "1×", or for a
// smaller a "÷123" (b is 123 times a).
func ratio(a, b float64) string {
	if a <= 0 || b <= 0 {
		return "?×"
	}
	r := a / b
	switch {
	case r < 0.95:
		return "÷" + strings.TrimSuffix(ratio(b, a), "×")
	case r >= 10:
		return strconv.FormatFloat(math.Round(r), 'f', 0, 64) + "×"
	case r >= 1.05:
		return strconv.FormatFloat(r, 'f', 1, 64) + "×"
	}
	return "1×"
}

// dur formats nanoseconds as the tables do.
func dur(ns int64) string { return results.FormatDuration(ns) }

// p99 formats a p99 latency, or says it was not recorded (0: a record
// built from a source that published none).
func p99(ns int64) string {
	if ns <= 0 {
		return "not recorded"
	}
	return dur(ns)
}

// upper is the pragma value as people write it in SQL: WAL, FULL.
func upper(s string) string { return strings.ToUpper(s) }

// sentence joins parts with ", " and a final " and ".
func sentence(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// errorf prefixes the package's name.
func errorf(format string, args ...any) error { return fmt.Errorf("advise: "+format, args...) }
