package neighbor

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
)

func TestProbeAllocatesNothing(t *testing.T) {
	p, err := openProbe(filepath.Join(t.TempDir(), "probe"), syscalls.Fdatasync, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if allocs := testing.AllocsPerRun(50, func() {
		if _, _, _, _, err := p.once(); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("one timed write + sync allocates %.1f times", allocs)
	}
	s := measure.NewSamples(20)
	if allocs := testing.AllocsPerRun(5, func() {
		s.Reset()
		if _, err := p.loop(1e12, s); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("the timed loop allocates %.1f times", allocs)
	}
	if s.Len() != 20 {
		t.Errorf("loop stopped at %d samples, want the buffer's 20", s.Len())
	}
}

// TestProbeWritesWhereItSays: the probe's writes wrap through its file and
// verify reads every stamp back; a block that does not hold its write is
// caught.
func TestProbeWritesWhereItSays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "probe")
	p, err := openProbe(path, syscalls.None, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if st, err := os.Stat(path); err != nil || st.Size() != ProbeFileSize {
		t.Fatalf("probe file: %v, %v; want %d bytes", st, err, ProbeFileSize)
	}
	n := int(p.blocks) + 3 // wraps: blocks 0..2 hold the second round's writes
	for range n {
		if _, _, _, _, err := p.once(); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.verify(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]uint64{0: uint64(p.blocks) + 1, 2: uint64(p.blocks) + 3, 3: 4} {
		if got := binary.LittleEndian.Uint64(data[k*ProbeWrite:]); got != want {
			t.Errorf("block %d holds write %d, want %d", k, got, want)
		}
	}
	// Undo write 4 (block 3): verify must notice.
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt(make([]byte, 8), 3*ProbeWrite)
	f.Close()
	if err := p.verify(); err == nil || !strings.Contains(err.Error(), "block 3 holds write 0, want write 4") {
		t.Errorf("verify after losing a write: %v", err)
	}
}
