package results

import (
	"math"
	"strconv"
)

// FormatDuration formats nanoseconds for people, as the macOS articles' tables do:
// below 1 µs in whole ns ("850 ns"); below 100 µs to 0.1 µs ("1.2 µs",
// "16.5 µs"); then to three significant figures ("109 µs", "2.00 ms",
// "16.5 ms", "1.30 s"). A value that rounds up to the next unit takes that
// unit (999,999 ns is "1.00 ms").
func FormatDuration(ns int64) string {
	if ns < 0 {
		return "-" + FormatDuration(-ns)
	}
	if ns < 1000 {
		return strconv.FormatInt(ns, 10) + " ns"
	}
	us := float64(ns) / 1e3
	if math.Round(us*10) < 100*10 {
		return strconv.FormatFloat(us, 'f', 1, 64) + " µs"
	}
	if math.Round(us) < 1000 {
		return strconv.FormatFloat(us, 'f', 0, 64) + " µs"
	}
	if ms := float64(ns) / 1e6; math.Round(ms) < 1000 { // 999.5 ms and up is "1.00 s"
		return threeFigures(ms) + " ms"
	}
	return threeFigures(float64(ns)/1e9) + " s"
}

// threeFigures formats v to three significant figures from 1 up (two
// decimals below 10, one below 100, none above), judging each range by the
// rounded value so that 9.999 is "10.0".
func threeFigures(v float64) string {
	switch {
	case math.Round(v*100) < 10*100:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case math.Round(v*10) < 100*10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// FormatRate formats a rate per second: whole numbers with thousands
// separators from 100 up ("143,769 /s"), else with one decimal from 10 up
// ("12.3 /s") and two below ("1.23 /s", "0.50 /s"); zero is "0 /s".
func FormatRate(ops float64) string {
	if ops < 0 {
		return "-" + FormatRate(-ops)
	}
	if ops != 0 && math.Round(ops*10) < 100*10 {
		return threeFigures(ops) + " /s"
	}
	return groupThousands(strconv.FormatFloat(ops, 'f', 0, 64)) + " /s"
}

// groupThousands inserts "," every three digits from the right of a string
// of digits.
func groupThousands(digits string) string {
	var out []byte
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, digits[i])
	}
	return string(out)
}
