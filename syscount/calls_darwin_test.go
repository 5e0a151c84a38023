package syscount

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestDarwinCommandNumbers checks the numbers calls.go repeats against
// x/sys's darwin constants.
func TestDarwinCommandNumbers(t *testing.T) {
	if darwinFullFsync != unix.F_FULLFSYNC || darwinBarrierFsync != unix.F_BARRIERFSYNC {
		t.Errorf("F_FULLFSYNC %d, F_BARRIERFSYNC %d; x/sys has %d and %d", darwinFullFsync, darwinBarrierFsync, unix.F_FULLFSYNC, unix.F_BARRIERFSYNC)
	}
}
