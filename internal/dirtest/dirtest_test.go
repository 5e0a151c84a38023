package dirtest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestNames(t *testing.T) {
	dir := t.TempDir()
	if got := Names(t, dir); len(got) != 0 {
		t.Fatalf("Names(empty) = %q", got)
	}
	for _, name := range []string{"b", "a"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c", "d"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := Names(t, dir), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q (sorted, not recursive)", got, want)
	}
}
