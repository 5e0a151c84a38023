package syscalls

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// A file system that keeps unwritten extents: /tmp may be tmpfs, which has no
// FIEMAP, so the test creates its files next to the test binary's working dir.
func extentDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp(".", "extents-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestExtentsShowFileStates(t *testing.T) {
	dir := extentDir(t)
	const size = 1 << 20

	fa, err := OpenFile(filepath.Join(dir, "fallocated"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer fa.Close()
	if err := Preallocate(fa, size); err != nil {
		if errors.Is(err, unix.EOPNOTSUPP) {
			t.Skipf("file system under %s cannot fallocate: %v", dir, err)
		}
		t.Fatal(err)
	}
	ext, err := Extents(fa)
	if err != nil {
		t.Skipf("FIEMAP not available here: %v", err)
	}
	if len(ext) == 0 {
		t.Fatal("a fallocated file has no extents")
	}
	var mapped uint64
	for _, e := range ext {
		if !e.Unwritten() {
			t.Errorf("fallocated extent %+v is not unwritten", e)
		}
		mapped += e.Length
	}
	if mapped < size {
		t.Errorf("fallocated extents cover %d bytes, want %d", mapped, size)
	}
	if st, _ := fa.Stat(); st.Size() != size {
		t.Errorf("fallocated size = %d, want %d", st.Size(), size)
	}

	// Writing every byte converts the extents.
	if err := fa.Pwrite(make([]byte, size), 0); err != nil {
		t.Fatal(err)
	}
	if err := fa.Sync(Fsync); err != nil {
		t.Fatal(err)
	}
	ext, err = Extents(fa)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ext {
		if e.Unwritten() {
			t.Errorf("written extent %+v is still unwritten", e)
		}
	}
}

func TestDropCacheAndDirect(t *testing.T) {
	dir := extentDir(t)
	f, err := OpenFile(filepath.Join(dir, "direct"), os.O_RDWR|os.O_CREATE|DirectOpenFlag, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := SetDirect(f); err != nil {
		t.Fatal(err)
	}
	buf := AlignedBuffer(4096, 4096)
	buf[0] = 'x'
	if err := f.Pwrite(buf, 0); err != nil {
		t.Fatalf("aligned direct write: %v", err)
	}
	if err := f.Pwrite(buf[:100], 4096); !errors.Is(err, unix.EINVAL) {
		t.Errorf("a 100-byte O_DIRECT write gave %v, want EINVAL", err)
	}
	if err := DropCache(f); err != nil {
		t.Fatal(err)
	}
}

func TestDirectIOAlignment(t *testing.T) {
	f, err := OpenFile(filepath.Join(extentDir(t), "dio"), os.O_RDWR|os.O_CREATE|DirectOpenFlag, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mem, off, err := DirectIOAlignment(f)
	if err != nil {
		t.Fatal(err)
	}
	if mem == 0 && off == 0 {
		t.Skip("this kernel or file system does not report direct-I/O alignment")
	}
	for _, n := range []int{mem, off} {
		if n <= 0 || n&(n-1) != 0 || n > 4096 {
			t.Errorf("alignment %d is not a power of two up to 4096", n)
		}
	}
	// A write aligned as reported must succeed.
	if err := f.Pwrite(AlignedBuffer(max(mem, off), max(mem, off)), 0); err != nil {
		t.Errorf("write aligned to the reported %d/%d: %v", mem, off, err)
	}
}
