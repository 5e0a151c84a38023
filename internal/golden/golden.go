// Package golden compares a test's printed output with a file under
// testdata, and rewrites that file when the tests run with -update. A test
// package that imports it must not define an -update flag of its own.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the current output")

// Check compares got with testdata/name, or rewrites that file with
// -update.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (rerun the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (rerun with -update if the change is intended)\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}
