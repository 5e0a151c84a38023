// Package apicheck holds the tests that keep two house rules of durabench,
// read from the source with go/parser:
//
//   - An exported API never names an internal type: no exported declaration
//     of a package outside internal/ refers to a package under internal/
//     (TestNoInternalTypesInExportedAPI).
//   - Library packages never speak in command-line flags: no error a package
//     outside cmd/ and examples/ makes has a flag name ("--dir") in its text;
//     the command layer adds the flag (TestNoFlagsInLibraryErrors).
//
// It has no code of its own.
package apicheck
