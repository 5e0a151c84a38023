// Package runner holds the pieces every benchmark runner (syncbench,
// walbench, sqlitebench, neighbor) shares around its timed loops: the
// configuration error that names fields rather than flags, the parser of
// comma-separated lists, and the payload pattern its writes carry.
//
// It speaks in the runners' terms, never in a command line's: an error says
// which configuration field is wrong and why, and a command line that maps
// fields to its flags (FieldsOf) names the flag itself. It imports nothing
// of durabench, so every runner and the command can use it.
package runner
