package main

import (
	"fmt"
	"slices"
)

// refuseRepeats refuses a list flag that names a value twice: each value
// is one case, and a repeat would run it twice (--methods, --threads and
// --block-sizes alike). name prints a value as the flag takes it.
func refuseRepeats[T comparable](flag string, vals []T, name func(T) string) error {
	for i, v := range vals {
		if slices.Contains(vals[:i], v) {
			return usageErrorf("--%s: %s is given twice; each value is one case: drop the repeat", flag, name(v))
		}
	}
	return nil
}

// str prints a value with fmt, for refuseRepeats.
func str[T any](v T) string { return fmt.Sprint(v) }
