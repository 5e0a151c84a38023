package drivers

import (
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// systemLibPath returns the path of the installed libsqlite3.so.0, or skips.
func systemLibPath(t *testing.T) string {
	t.Helper()
	for _, pat := range []string{"/usr/lib/*/libsqlite3.so.0", "/lib/*/libsqlite3.so.0", "/usr/lib64/libsqlite3.so.0", "/usr/lib/libsqlite3.so.0"} {
		if m, _ := filepath.Glob(pat); len(m) > 0 {
			return m[0]
		}
	}
	t.Skip("no libsqlite3.so.0 installed (Debian: apt-get install libsqlite3-0)")
	return ""
}

// copyPrefix copies the first n bytes of src (all of it for n < 0) to a new
// file in dir and returns its path.
func copyPrefix(t *testing.T, src string, n int, name string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if n >= 0 {
		b = b[:n]
	}
	dst := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestSystemLibValidation gives the system engine libraries that would
// crash the process if loaded and called (SIGBUS from a truncated mapping,
// SIGSEGV from calling what is not SQLite): each must be refused as
// unavailable, before it is loaded, with a reason that names the fault.
func TestSystemLibValidation(t *testing.T) {
	lib := systemLibPath(t)
	size := func() int {
		st, err := os.Stat(lib)
		if err != nil {
			t.Fatal(err)
		}
		return int(st.Size())
	}()
	wrongArch := copyPrefix(t, lib, -1, "libsqlite3-otherarch.so")
	b, _ := os.ReadFile(wrongArch)
	other := uint16(62) // EM_X86_64
	if runtime.GOARCH == "amd64" {
		other = 183 // EM_AARCH64
	}
	binary.LittleEndian.PutUint16(b[18:], other)
	if err := os.WriteFile(wrongArch, b, 0o644); err != nil {
		t.Fatal(err)
	}
	notELF := filepath.Join(t.TempDir(), "notlib.so")
	if err := os.WriteFile(notELF, []byte("not a shared library\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	libc := ""
	for _, pat := range []string{"/lib/*/libc.so.6", "/usr/lib/*/libc.so.6", "/usr/lib64/libc.so.6"} {
		if m, _ := filepath.Glob(pat); len(m) > 0 && libc == "" {
			libc = m[0]
		}
	}

	for _, tc := range []struct {
		name, path, want string
	}{
		{"truncated to half", copyPrefix(t, lib, size/2, "libsqlite3-half.so"), "is truncated: it has " + strconv.Itoa(size/2) + " bytes"},
		{"truncated before its last page", copyPrefix(t, lib, size-4096, "libsqlite3-short.so"), "is truncated"},
		{"truncated to its header", copyPrefix(t, lib, 64, "libsqlite3-64.so"), "is truncated: it has 64 bytes"},
		{"empty", copyPrefix(t, lib, 0, "libsqlite3-empty.so"), "is not an ELF shared library"},
		{"not ELF", notELF, "is not an ELF shared library"},
		{"directory", t.TempDir(), "is a directory, not a shared library file"},
		{"other machine", wrongArch, "is built for EM_"},
		{"no SQLite functions (libc)", libc, "has no sqlite3_open_v2: is it a libsqlite3"},
		{"device", "/dev/null", "is not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path == "" {
				t.Skip("no libc.so.6 found")
			}
			_, err := Lookup("system", Options{SystemLib: tc.path})
			if !errors.Is(err, ErrUnavailable) || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Lookup(system, %s) = %v; want ErrUnavailable saying %q", tc.path, err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.path) {
				t.Errorf("error %q does not name the library %s", err, tc.path)
			}
			if err := checkLib(tc.path, symbolNames()); err == nil {
				t.Errorf("checkLib(%s) = nil, want the file refused before loading", tc.path)
			}
		})
	}

	t.Run("a whole copy loads and works", func(t *testing.T) {
		whole := copyPrefix(t, lib, -1, "libsqlite3-copy.so.0")
		if err := checkLib(whole, symbolNames()); err != nil {
			t.Fatalf("checkLib(a copy of %s) = %v", lib, err)
		}
		e, err := Lookup("system", Options{SystemLib: whole})
		if err != nil {
			t.Fatal(err)
		}
		c, err := e.Open(filepath.Join(t.TempDir(), "db"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if v, err := c.Query("SELECT sqlite_version()"); err != nil || len(v) != 1 || v[0] == "" {
			t.Fatalf("sqlite_version() = %q, %v", v, err)
		}
	})
}

// TestSystemLibVersionCheck builds stand-in libraries that export every
// function the engine needs but answer a version no SQLite 3 would: a
// number out of range, or text that disagrees with the number. Each must be
// refused after loading, before any connection is opened.
func TestSystemLibVersionCheck(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is needed to build the stand-in libraries")
	}
	for _, tc := range []struct {
		name   string
		number int
		text   string
		want   string
	}{
		{"number out of range", 42, "3.40.1", "reports SQLite version number 42, outside 3.8.7"},
		{"SQLite 4", 4000000, "4.0.0", "reports SQLite version number 4000000"},
		{"text disagrees", 3040001, "9.9.9", `reports version "9.9.9" as text but 3040001 as a number`},
		{"text not a version", 3040001, "", `reports version "" as text`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var src strings.Builder
			for _, name := range symbolNames() {
				switch name {
				case "sqlite3_libversion_number":
					src.WriteString("int " + name + "(void) { return " + strconv.Itoa(tc.number) + "; }\n")
				case "sqlite3_libversion":
					src.WriteString("const char *" + name + "(void) { return \"" + tc.text + "\"; }\n")
				default:
					src.WriteString("int " + name + "(void) { return 0; }\n")
				}
			}
			c := filepath.Join(dir, "fake.c")
			so := filepath.Join(dir, "libsqlite3-fake.so")
			if err := os.WriteFile(c, []byte(src.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("gcc", "-shared", "-fPIC", "-o", so, c).CombinedOutput(); err != nil {
				t.Fatalf("gcc: %v\n%s", err, out)
			}
			if err := checkLib(so, symbolNames()); err != nil {
				t.Fatalf("the stand-in should pass the file checks: %v", err)
			}
			_, err := Lookup("system", Options{SystemLib: so})
			if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Lookup(system, stand-in) = %v; want ErrUnavailable saying %q", err, tc.want)
			}
		})
	}
}

// TestGuardedRecoversFaults reads a C string at an address nothing maps, as
// a library handing back a bad pointer would make the engine do: without
// guarded's SetPanicOnFault this is a fatal "unexpected fault address"; with
// it, an error naming the library and the call.
func TestGuardedRecoversFaults(t *testing.T) {
	err := guarded("libbroken.so", "sqlite3_libversion", func() error {
		goString(1 << 46)
		return nil
	})
	if err == nil || !strings.HasPrefix(err.Error(), "the SQLite library libbroken.so failed in sqlite3_libversion: ") {
		t.Fatalf("guarded = %v, want the fault as an error naming the library and the call", err)
	}
	if err := guarded("lib", "op", func() error { return errors.New("plain") }); err == nil || err.Error() != "plain" {
		t.Fatalf("guarded passed on %v, want f's own error", err)
	}
}
