// Package golden compares a test's printed output with a file under
// testdata, and rewrites that file when the tests run with -update. It
// declares the -update flag for the whole test binary: a test package that
// imports it must not define one of its own, and a test that rewrites other
// generated files asks Updating.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata (and other generated files a test checks) from the current output")

// Updating reports whether the tests run with -update, for a test that
// checks a generated file of its own (not one Check compares).
func Updating() bool { return *update }

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
