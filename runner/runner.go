// Package runner holds the pieces every benchmark runner (syncbench,
// walbench, sqlitebench, neighbor) shares around its timed loops: the
// configuration error that names fields rather than flags, the parser of
// comma-separated lists, the payload pattern its writes carry, and the
// small helpers of its run loop (Quiet, Each).
//
// It speaks in the runners' terms, never in a command line's: an error says
// which configuration field is wrong and why, and a command line that maps
// fields to its flags (FieldsOf) names the flag itself. It imports nothing
// of durabench, so every runner and the command can use it.
package runner

// Quiet returns progress, or a progress that says nothing if it is nil: a
// runner's Run calls it first, so that its loops can always report.
func Quiet(progress func(line string)) func(line string) {
	if progress == nil {
		return func(string) {}
	}
	return progress
}

// Each returns f of every item, in order: a runner's accumulator for each
// case, or its result for each accumulator.
func Each[T, U any](items []T, f func(T) U) []U {
	out := make([]U, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}
