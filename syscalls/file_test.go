package syscalls

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestEveryMethodWritesAndSyncs(t *testing.T) {
	dir := t.TempDir()
	block := bytes.Repeat([]byte("durabench"), 456)[:4096]
	for _, m := range Methods() {
		t.Run(m.String(), func(t *testing.T) {
			path := filepath.Join(dir, m.String())
			f, err := OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|m.OpenFlag(), 0o600)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for i := range 3 {
				if err := f.Pwrite(block, int64(i*len(block))); err != nil {
					t.Fatal(err)
				}
				if err := f.Sync(m); err != nil {
					t.Fatalf("sync %s: %v", m, err)
				}
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := bytes.Repeat(block, 3); !bytes.Equal(got, want) {
				t.Errorf("read back %d bytes, not the 3 blocks written", len(got))
			}
		})
	}
}

func TestWriteAndSyncAllocateNothing(t *testing.T) {
	f, err := OpenFile(filepath.Join(t.TempDir(), "f"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := AlignedBuffer(4096, 4096)
	for _, m := range []Method{None, Fdatasync, Fsync, GoStd} {
		allocs := testing.AllocsPerRun(20, func() {
			if err := f.Pwrite(buf, 0); err != nil {
				t.Fatal(err)
			}
			if err := f.Sync(m); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("write+sync with %s allocates %.1f times per call", m, allocs)
		}
	}
}

func TestAlignedBuffer(t *testing.T) {
	for _, align := range []int{512, 4096, 65536} {
		for _, size := range []int{align, 3 * align, 1 << 20} {
			b := AlignedBuffer(size, align)
			if len(b) != size || cap(b) != size {
				t.Errorf("AlignedBuffer(%d, %d): len %d cap %d", size, align, len(b), cap(b))
			}
			if !IsAligned(b, align) {
				t.Errorf("AlignedBuffer(%d, %d) is not aligned", size, align)
			}
		}
	}
	if IsAligned(AlignedBuffer(8192, 4096)[1:4097], 4096) {
		t.Error("IsAligned accepted a buffer that starts one byte past a boundary")
	}
	if IsAligned(AlignedBuffer(8192, 4096)[:4000], 4096) {
		t.Error("IsAligned accepted a length that is not a multiple of the alignment")
	}
}
