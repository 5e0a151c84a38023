// Package dirtest lists what a directory holds, for tests that check what a
// run left behind. It is for tests only.
package dirtest

import (
	"os"
	"testing"
)

// Names returns the names of the entries directly inside dir, sorted; it
// fails t if dir cannot be read.
func Names(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
