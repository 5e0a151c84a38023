package sqlitebench

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/drivers"
)

func TestSelectEngines(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "libsqlite3.so")

	sel, err := SelectEngines(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, st := range drivers.Available(drivers.Options{}) {
		if st.Available {
			want = append(want, st.Name)
		} else if !slices.Contains(sel.Skipped, st) {
			t.Errorf("unavailable %s not listed as skipped: %+v", st.Name, sel.Skipped)
		}
	}
	if !slices.Equal(sel.Names, want) {
		t.Errorf("default engines %q, want every available one %q", sel.Names, want)
	}

	for _, tc := range []struct {
		asked []string
		lib   string
		want  string
	}{
		{[]string{"modernc", "sqlite"}, "", `engine "sqlite": use one or more of modernc, mattn, system`},
		{nil, missing, "library " + missing + ": no such file: give the path of a libsqlite3 shared library"},
		{[]string{"system"}, missing, "library " + missing + ": no such file"},
		{[]string{"modernc"}, missing, "the library " + missing + " is only for the system engine, which the engines asked for (modernc) leave out"},
	} {
		_, err := SelectEngines(tc.asked, tc.lib)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SelectEngines(%q, %q) = %v, want ErrConfig saying %q", tc.asked, tc.lib, err, tc.want)
		}
	}

	sel, err = SelectEngines([]string{"modernc"}, "")
	if err != nil || !slices.Equal(sel.Names, []string{"modernc"}) || sel.Skipped != nil {
		t.Errorf("SelectEngines(modernc) = %+v, %v", sel, err)
	}
}

// TestSelectEnginesRefusesUnavailable asks by name for mattn in a build
// without cgo: refused, with the reason.
func TestSelectEnginesRefusesUnavailable(t *testing.T) {
	for _, st := range drivers.Available(drivers.Options{}) {
		if st.Available {
			continue
		}
		_, err := SelectEngines([]string{st.Name}, "")
		if want := "engine " + st.Name + " is unavailable: " + st.Reason; !errors.Is(err, ErrConfig) || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("SelectEngines(%s) = %v, want %q", st.Name, err, want)
		}
		return
	}
	t.Skip("every engine is available in this build (run with CGO_ENABLED=0 to test mattn's absence)")
}
