package syscount

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// childDirEnv tells the test binary, run as a counting child, where to work.
const childDirEnv = "SYSCOUNT_TEST_CHILD_DIR"

// TestMain plays the counting child when Count starts the test binary:
// a set-up fsync outside the window, then ten write + fdatasync inside it.
func TestMain(m *testing.M) {
	dir := os.Getenv(childDirEnv)
	if dir == "" {
		os.Exit(m.Run())
	}
	f, err := os.Create(filepath.Join(dir, "data"))
	if err != nil {
		os.Exit(3)
	}
	fd := int(f.Fd())
	unix.Fsync(fd) // set-up: outside the window, must not be counted
	if os.Getenv("SYSCOUNT_TEST_NO_WINDOW") == "" {
		w := ChildWindow(dir)
		w.Start()
		for range 10 {
			unix.Pwrite(fd, make([]byte, 4096), 0)
			unix.Fdatasync(fd)
		}
		w.Stop(10)
		if err := w.Close(); err != nil {
			os.Exit(4)
		}
	}
	unix.Fsync(fd) // read-back side: outside the window too
	os.Exit(0)
}

func TestCountSeesOnlyTheWindow(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(childDirEnv, dir)
	r, err := Count([]string{"-test.run=^$"}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 10 {
		t.Errorf("Ops = %d, want 10", r.Ops)
	}
	for name, want := range map[string]uint64{"fdatasync": 10, "pwrite64": 10, "fsync": 0} {
		if got := r.Counts.Total(name); got != want {
			t.Errorf("%s counted %d times, want %d", name, got, want)
		}
	}
	if r.PerOp("fdatasync") != 1 {
		t.Errorf("fdatasync per op = %v, want 1", r.PerOp("fdatasync"))
	}
	// Every fdatasync on a disk with a write-back cache reaches it as a
	// flush; other processes can only add to the counter.
	if r.DeviceFlushes >= 0 && r.DeviceFlushes < 10 {
		t.Errorf("device flushes = %d for 10 fdatasyncs", r.DeviceFlushes)
	}
	if r.DeviceFlushes < 0 {
		t.Logf("device flushes not counted here: %s", r.FlushNote)
	}
}

func TestCountWithoutWindowIsAnError(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(childDirEnv, dir)
	t.Setenv("SYSCOUNT_TEST_NO_WINDOW", "1")
	if _, err := Count([]string{"-test.run=^$"}, dir, nil); !errors.Is(err, ErrNoWindow) {
		t.Errorf("Count of a run without a window = %v, want ErrNoWindow", err)
	}
}

func TestNilWindowDoesNothing(t *testing.T) {
	t.Setenv(windowEnv, "")
	w := ChildWindow(t.TempDir())
	if w != nil {
		t.Fatal("ChildWindow outside a counting child is not nil")
	}
	w.Start()
	w.Stop(5)
	if err := w.Close(); err != nil {
		t.Errorf("Close of a nil Window: %v", err)
	}
}
