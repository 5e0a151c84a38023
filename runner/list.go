package runner

import (
	"fmt"
	"slices"
	"strings"
)

// ParseList parses a comma-separated list with parse, one item at a time,
// in the one style every list of durabench has: blanks around items and
// empty items are ignored; an item parse refuses is refused with parse's
// error; an item given twice is refused; and an empty list is refused with
// "no WHAT given", followed by hint if not empty (such as "use one or more
// of fsync, fdatasync"). what names one item ("sync method", "size").
func ParseList[T comparable](csv, what, hint string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for part := range strings.SplitSeq(csv, ",") {
		item := strings.TrimSpace(part)
		if item == "" {
			continue
		}
		v, err := parse(item)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("%s %q is given twice: give each once", what, item)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		if hint != "" {
			return nil, fmt.Errorf("no %s given in %q: %s", what, csv, hint)
		}
		return nil, fmt.Errorf("no %s given in %q", what, csv)
	}
	return out, nil
}
