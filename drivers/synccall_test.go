//go:build linux

package drivers

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemSyncCall checks SystemSyncCall against an independent reading
// of the same library: objdump's (or, without it, debug/elf's) list of the
// library's undefined dynamic symbols.
func TestSystemSyncCall(t *testing.T) {
	call, file, err := SystemSyncCall(Options{})
	if err != nil {
		t.Skipf("system engine unavailable: %v", err)
	}
	if !filepath.IsAbs(file) || !strings.Contains(filepath.Base(file), "sqlite3") {
		t.Fatalf("SystemSyncCall read %q, want the absolute path of a libsqlite3", file)
	}
	imports := ""
	if out, err := exec.Command("objdump", "-T", file).Output(); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "*UND*") {
				imports += " " + strings.Fields(line)[len(strings.Fields(line))-1]
			}
		}
	} else {
		ef, err := elf.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		syms, _ := ef.ImportedSymbols()
		for _, s := range syms {
			imports += " " + s.Name
		}
		ef.Close()
	}
	want := "fsync"
	if strings.Contains(imports+" ", " fdatasync ") {
		want = "fdatasync"
	}
	if call != want {
		t.Fatalf("SystemSyncCall = %s, but %s imports%s", call, file, imports)
	}
	t.Logf("%s syncs with %s", file, call)
}
