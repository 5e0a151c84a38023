package neighbor

import (
	"encoding/binary"
	"fmt"
	"os"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
)

// The probe: this process's own small file. Invariants:
//   - Its file is created initialized (written, synced, dropped from the
//     cache) by openProbe, which the runners call before the neighbor
//     starts; after that the probe syncs only inside the timed interval, or
//     in presync, the flawed variant's one untimed sync.
//   - One sample is the whole write + sync, timed with the monotonic clock;
//     the write and sync parts only explain it. once and loop do not
//     allocate (TestProbeAllocatesNothing).
//   - Write k (1-based) stamps k into its block's first 8 bytes and lands at
//     block (k-1) mod blocks; verify reads every stamp back.

// syncFunc is the probe's sync call, replaceable by tests.
type syncFunc func(f *syscalls.File, m syscalls.Method) error

// probe is the file the probe process syncs and how it syncs it.
type probe struct {
	f      *syscalls.File
	path   string
	method syscalls.Method
	sync   syncFunc
	buf    []byte
	blocks int64
	writes uint64
}

// openProbe creates path as a new initialized file of ProbeFileSize bytes
// (synced, with its directory) and opens it for method m.
func openProbe(path string, m syscalls.Method, sync syncFunc) (*probe, error) {
	if sync == nil {
		sync = (*syscalls.File).Sync
	}
	if err := fixtures.Create(path, fixtures.Initialized, ProbeFileSize); err != nil {
		return nil, err
	}
	f, err := syscalls.OpenFile(path, os.O_WRONLY|m.OpenFlag(), 0)
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("open probe file for %s: %w", m, err)
	}
	buf := syscalls.AlignedBuffer(ProbeWrite, 4096)
	runner.Fill(buf)
	return &probe{f: f, path: path, method: m, sync: sync, buf: buf, blocks: ProbeFileSize / ProbeWrite}, nil
}

// once times one write + sync of the next block and returns the interval,
// its write and sync parts, and the clock at its end, in ns.
func (p *probe) once() (total, write, sync, end int64, err error) {
	off := int64(p.writes%uint64(p.blocks)) * ProbeWrite
	p.writes++
	t0 := measure.Now()
	binary.LittleEndian.PutUint64(p.buf, p.writes)
	if err = p.f.Pwrite(p.buf, off); err != nil {
		return 0, 0, 0, 0, err
	}
	t1 := measure.Now()
	if err = p.sync(p.f, p.method); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("probe %w", err)
	}
	t2 := measure.Now()
	return t2 - t0, t1 - t0, t2 - t1, t2, nil
}

// loop times write + sync into s until d ns have passed since it started or
// s is full, and returns the span of the loop in ns.
func (p *probe) loop(d int64, s *measure.Samples) (int64, error) {
	start := measure.Now()
	end := start
	for s.Len() < cap(s.Total) && end-start < d {
		total, write, sync, e, err := p.once()
		if err != nil {
			return 0, err
		}
		s.Add(total, write, sync)
		end = e
	}
	return end - start, nil
}

// presync is the flawed variant's untimed sync: the probe's own method, or
// fsync(2) for methods that sync inside the write. It returns how long it
// took, which is reported but never counted as a sample.
func (p *probe) presync() (int64, error) {
	m := p.method
	if !m.SyncsExplicitly() {
		m = syscalls.Fsync
	}
	t0 := measure.Now()
	if err := p.sync(p.f, m); err != nil {
		return 0, fmt.Errorf("probe pre-sync %w", err)
	}
	return measure.Now() - t0, nil
}

// verify reads back every block's stamp and checks it names the last write
// that landed there.
func (p *probe) verify() error {
	f, err := os.Open(p.path)
	if err != nil {
		return fmt.Errorf("verify probe: %w", err)
	}
	defer f.Close()
	n := int64(p.writes)
	var word [8]byte
	for k := range min(n, p.blocks) {
		if _, err := f.ReadAt(word[:], k*ProbeWrite); err != nil {
			return fmt.Errorf("verify probe %s block %d: %w", p.path, k, err)
		}
		want := uint64(k + (n-1-k)/p.blocks*p.blocks + 1)
		if got := binary.LittleEndian.Uint64(word[:]); got != want {
			return fmt.Errorf("verify probe %s: block %d holds write %d, want write %d", p.path, k, got, want)
		}
	}
	return nil
}

// close closes and removes the probe's file.
func (p *probe) close() error {
	err := p.f.Close()
	if rerr := os.Remove(p.path); err == nil {
		err = rerr
	}
	return err
}
