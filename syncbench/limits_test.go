package syncbench

import (
	"errors"
	"testing"

	"github.com/durabench/durabench/internal/units"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/syscalls"
)

// (warmup + iterations) × 1 MiB = 2^63 wrapped to a negative number that
// passed "a fallocated file must hold all writes" (issue 10); it must be
// refused as an overflow, with the true figure.
func TestValidateRefusesWrappedCapacity(t *testing.T) {
	cfg := Config{Workloads: []Workload{Fallocate}, BlockSizes: []int64{1 << 20}, Methods: []syscalls.Method{syscalls.Fsync},
		Iterations: 256, Warmup: 1<<43 - 256, Rounds: 1, FileSize: 64 << 20, SyncEvery: 1, Threads: []int{1}}
	err := cfg.Validate()
	if !errors.Is(err, units.ErrOverflow) || !errors.Is(err, ErrConfig) {
		t.Fatalf("Validate = %v, want ErrConfig wrapping units.ErrOverflow", err)
	}
	if cfg.DiskNeeded(false) <= 0 {
		t.Errorf("DiskNeeded of an overflowing run = %d: it must saturate, never wrap", cfg.DiskNeeded(false))
	}
}

// Sample buffers past measure.MaxBufferBytes are refused before anything
// is allocated (issue 10: "out of memory" and makeslice panics).
func TestValidateRefusesHugeSampleBuffers(t *testing.T) {
	cfg := Config{Workloads: []Workload{Overwrite}, BlockSizes: []int64{4 << 10}, Methods: []syscalls.Method{syscalls.Fsync},
		Iterations: 2_000_000_000, Rounds: 1000, FileSize: 64 << 20, SyncEvery: 1, Threads: []int{1}}
	if err := cfg.Validate(); !errors.Is(err, measure.ErrTooManySamples) {
		t.Fatalf("Validate = %v, want measure.ErrTooManySamples", err)
	}
}
