package verify

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscount"
)

// writeCall is the tracer's name for the write each workload makes.
var writeCall = map[bool]string{true: "pwrite", false: "pwrite64"}[runtime.GOOS == "darwin"]

// SyncWorkload is what a traced child runs for the tracer checks: Writes
// pwrites of BlockSize bytes to a new file, each followed by Method's sync,
// all inside the counting window.
type SyncWorkload struct {
	Method    string `json:"method"`
	Writes    int    `json:"writes"`
	BlockSize int    `json:"block_size"`
	// SkipSyncAt, if positive, leaves out the sync after that write
	// (1-based): a fault that verify's own tests inject to show that the
	// tracer check catches a missing sync.
	SkipSyncAt int `json:"skip_sync_at,omitempty"`
}

// RunSyncWorkload runs w in run's directory, marking its writes and syncs
// as one counting window (window may be nil outside a traced child), and
// checks that the file holds every write.
func RunSyncWorkload(run *fixtures.Run, w SyncWorkload, window *syscount.Window) error {
	m, err := syscalls.ParseMethod(w.Method)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if w.Writes <= 0 || w.BlockSize < 8 {
		return fmt.Errorf("verify: a sync workload needs writes > 0 and blocks of 8 bytes or more, got %d × %d", w.Writes, w.BlockSize)
	}
	path := run.Path("sync-" + m.String())
	f, err := syscalls.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|m.OpenFlag(), 0o644)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer f.Close()
	buf := make([]byte, w.BlockSize)
	window.Start()
	for i := range w.Writes {
		binary.LittleEndian.PutUint64(buf, uint64(i+1))
		if err := f.Pwrite(buf, int64(i)*int64(w.BlockSize)); err != nil {
			return fmt.Errorf("verify: %w", err)
		}
		if i+1 == w.SkipSyncAt {
			continue
		}
		if err := f.Sync(m); err != nil {
			return fmt.Errorf("verify: %s: %w", m, err)
		}
	}
	window.Stop(w.Writes)
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if len(b) != w.Writes*w.BlockSize {
		return fmt.Errorf("verify: %s holds %d bytes after %d writes of %d", path, len(b), w.Writes, w.BlockSize)
	}
	for i := range w.Writes {
		if got := binary.LittleEndian.Uint64(b[i*w.BlockSize:]); got != uint64(i+1) {
			return fmt.Errorf("verify: block %d of %s holds write %d", i, path, got)
		}
	}
	return nil
}
