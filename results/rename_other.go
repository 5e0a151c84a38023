//go:build !linux && !darwin

package results

// renameNoReplace renames from to to unless to exists.
func renameNoReplace(from, to string) error { return renameChecked(from, to) }
