package walbench

import (
	"errors"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
)

// (warmup + iterations) × 1 MiB wrapped and passed both the segment
// capacity check and the free-space guard (issue 10); it must be refused
// as an overflow, and DiskNeeded must saturate rather than wrap.
func TestValidateRefusesWrappedLog(t *testing.T) {
	cfg := Config{Layouts: []fixtures.State{fixtures.Fallocate}, BlockSizes: []int64{1 << 20}, IOModes: []wal.IOMode{wal.Buffered},
		Methods: []syscalls.Method{syscalls.Fsync}, Writers: []int{1}, Iterations: 2000, Warmup: 1<<43 - 2000, Rounds: 1,
		FileSize: 64 << 20, SyncEvery: 1}
	if err := cfg.Validate(); !errors.Is(err, units.ErrOverflow) {
		t.Fatalf("Validate = %v, want units.ErrOverflow", err)
	}
	if cfg.DiskNeeded(false) <= 0 || cfg.DiskNeeded(true) <= 0 {
		t.Errorf("DiskNeeded of an overflowing run = %d, %d: it must saturate, never wrap", cfg.DiskNeeded(false), cfg.DiskNeeded(true))
	}
}
