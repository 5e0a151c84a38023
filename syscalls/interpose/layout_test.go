package interpose

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/durabench/durabench/syscalls/trace"
)

// encode returns s as the library would leave the counters file.
func encode(t *testing.T, s *shared) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := binary.Write(&b, binary.NativeEndian, s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func newShared() *shared {
	s := &shared{}
	if err := binary.Read(bytes.NewReader(newHeader(false)), binary.NativeEndian, &s.header); err != nil {
		panic(err) // reading a header from memory
	}
	s.Processes = 1
	return s
}

// TestDecodeDarwin decodes counters as the library counts them on macOS,
// where fcntl 51 is F_FULLFSYNC, 85 F_BARRIERFSYNC, and pwrite is pwrite.
func TestDecodeDarwin(t *testing.T) {
	s := newShared()
	s.Total.Fcntl[51] = 2
	s.Total.Fcntl[85] = 3
	s.Total.Calls[callPwrite] = 4
	s.Total.Calls[callFcntl] = 5 // the sum of the split above: not reported twice
	s.Total.WriteBytes = 4096
	f := &s.Files[0]
	f.State = 2
	copy(f.Path[:], "/Users/me/x.db-wal")
	f.N.Fcntl[85] = 3
	f.N.Calls[callPwrite] = 4
	f.N.WriteBytes = 4096
	d := &s.Files[1]
	d.State, d.IsDir = 2, 1
	copy(d.Path[:], "/Users/me")
	d.N.Fcntl[51] = 2

	c := trace.NewCounts("interpose", nil)
	if err := decode(encode(t, s), "darwin", trace.ClassifyPath, c); err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"fcntl(F_FULLFSYNC)": 2, "fcntl(F_BARRIERFSYNC)": 3, "pwrite": 4}
	if !equal(c.Syscalls, want) {
		t.Errorf("Syscalls = %v, want %v", c.Syscalls, want)
	}
	if got := c.ByFile[trace.ClassWAL]; !equal(got, map[string]uint64{"fcntl(F_BARRIERFSYNC)": 3, "pwrite": 4}) {
		t.Errorf("ByFile[wal] = %v", got)
	}
	if got := c.ByFile[trace.ClassDirectory]["fcntl(F_FULLFSYNC)"]; got != 2 {
		t.Errorf("directory F_FULLFSYNC = %d, want 2", got)
	}
	if c.WriteBytes != 4096 || c.WriteBytesByFile[trace.ClassWAL] != 4096 {
		t.Errorf("bytes %d, by file %v; want 4096 on the WAL", c.WriteBytes, c.WriteBytesByFile)
	}
}

func TestDecodeLinuxHighFcntl(t *testing.T) {
	s := newShared()
	s.Total.Fcntl[192+1030-1024] = 1 // F_DUPFD_CLOEXEC
	s.Total.Fcntl[255] = 1
	c := trace.NewCounts("interpose", nil)
	if err := decode(encode(t, s), "linux", trace.ClassifyPath, c); err != nil {
		t.Fatal(err)
	}
	if want := map[string]uint64{"fcntl(F_DUPFD_CLOEXEC)": 1, "fcntl(other)": 1}; !equal(c.Syscalls, want) {
		t.Errorf("Syscalls = %v, want %v", c.Syscalls, want)
	}
}

func TestDecodeNotes(t *testing.T) {
	s := newShared()
	s.Processes = 0
	s.FilesFull = 1
	c := trace.NewCounts("interpose", nil)
	if err := decode(encode(t, s), "linux", trace.ClassifyPath, c); err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(c.Notes, "\n")
	for _, want := range []string{"never loaded", "more than 256 files"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	s := newShared()
	s.BadLayout = 1
	err := decode(encode(t, s), "linux", trace.ClassifyPath, trace.NewCounts("interpose", nil))
	if !errors.Is(err, errBadLayout) {
		t.Errorf("bad layout: err = %v, want errBadLayout", err)
	}
	err = decode(make([]byte, 10), "linux", trace.ClassifyPath, trace.NewCounts("interpose", nil))
	if err == nil || !strings.Contains(err.Error(), "counters file is 10 bytes") {
		t.Errorf("short file: err = %v", err)
	}
}

func equal(a, b map[string]uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
