package neighbor

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/durabench/durabench/internal/dirtest"
	"github.com/durabench/durabench/syscalls"
)

// servedChild is a neighbor running in this process, talked to through
// pipes.
type servedChild struct {
	cmds    *io.PipeWriter
	replies *bufio.Reader
	done    chan error
}

func serveInProcess(t *testing.T, c childConfig) *servedChild {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &servedChild{cmds: inW, replies: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := serveChild(c, inR, outW, syscalls.FreeSpace)
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return s
}

func (s *servedChild) send(t *testing.T, cmd string) {
	t.Helper()
	if _, err := io.WriteString(s.cmds, cmd+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (s *servedChild) expect(t *testing.T, kind string) []int64 {
	t.Helper()
	vals, err := parseReply(readLine(t, s.replies), kind)
	if err != nil {
		t.Fatal(err)
	}
	return vals
}

func (s *servedChild) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s.done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the neighbor did not end within 30 s")
		return nil
	}
}

// gone fails unless dir no longer exists.
func gone(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s survived the neighbor: %v", dir, err)
	}
}

func TestBacklogNeighborWritesExactlyTheBacklog(t *testing.T) {
	for _, size := range []int64{0, 1, 8<<20 + 12345} {
		t.Run(strconv.FormatInt(size, 10), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "n")
			s := serveInProcess(t, childConfig{Mode: modeBacklog, Dir: dir, Bytes: size, Timeout: time.Minute})
			if got := s.expect(t, msgReady)[0]; got != size {
				t.Errorf("neighbor says it wrote %d bytes, want %d", got, size)
			}
			data, err := os.ReadFile(filepath.Join(dir, dataFile))
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(data)) != size {
				t.Errorf("its file holds %d bytes, want %d", len(data), size)
			}
			block := neighborBlock()
			for off := 0; off < len(data); off += chunk {
				end := min(off+chunk, len(data))
				if !bytes.Equal(data[off:end], block[:end-off]) {
					t.Fatalf("its file's bytes %d..%d are not the neighbor's data", off, end)
				}
			}
			s.send(t, cmdSync)
			if ns := s.expect(t, msgSynced)[0]; ns <= 0 {
				t.Errorf("own sync took %d ns", ns)
			}
			if err := s.wait(t); err != nil {
				t.Errorf("neighbor ended with %v", err)
			}
			gone(t, dir)
		})
	}
}

func TestStreamNeighborStaysWithinItsFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "n")
	const size = 3 << 20
	s := serveInProcess(t, childConfig{Mode: modeStream, Dir: dir, Rate: RateMax, FileSize: size, Timeout: time.Minute})
	s.expect(t, msgReady)
	// Wait until the stream has wrapped at least once: its file is full.
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := os.Stat(filepath.Join(dir, dataFile))
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > size {
			t.Fatalf("stream file grew to %d bytes, past its bound %d", st.Size(), size)
		}
		if st.Size() == size {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stream file reached only %d bytes", st.Size())
		}
		time.Sleep(time.Millisecond)
	}
	s.send(t, cmdStop)
	stopped := s.expect(t, msgStopped)
	if stopped[0] < size || stopped[0]%chunk != 0 {
		t.Errorf("stream reports %d bytes: want whole chunks, at least the %d its file holds", stopped[0], size)
	}
	if stopped[1] <= 0 {
		t.Errorf("stream reports %d ns", stopped[1])
	}
	if err := s.wait(t); err != nil {
		t.Errorf("neighbor ended with %v", err)
	}
	gone(t, dir)
}

func TestIdleStreamWritesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "n")
	s := serveInProcess(t, childConfig{Mode: modeStream, Dir: dir, Rate: RateIdle, FileSize: chunk, Timeout: time.Minute})
	s.expect(t, msgReady)
	s.send(t, cmdStop)
	if got := s.expect(t, msgStopped)[0]; got != 0 {
		t.Errorf("idle neighbor wrote %d bytes", got)
	}
	if err := s.wait(t); err != nil {
		t.Errorf("neighbor ended with %v", err)
	}
	gone(t, dir)
}

func TestNeighborEndsEarlyAndRemovesItsFiles(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "n")
		s := serveInProcess(t, childConfig{Mode: modeBacklog, Dir: dir, Bytes: 1 << 20, Timeout: 50 * time.Millisecond})
		s.expect(t, msgReady)
		// No command comes: the timeout ends it.
		if err := s.wait(t); !errors.Is(err, ErrTimeout) {
			t.Errorf("neighbor ended with %v, want ErrTimeout", err)
		}
		gone(t, dir)
	})
	t.Run("pipe closed", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "n")
		s := serveInProcess(t, childConfig{Mode: modeStream, Dir: dir, Rate: 10 << 20, FileSize: 4 << 20, Timeout: time.Minute})
		s.expect(t, msgReady)
		s.cmds.Close()
		if err := s.wait(t); !errors.Is(err, ErrParentGone) {
			t.Errorf("neighbor ended with %v, want ErrParentGone", err)
		}
		gone(t, dir)
	})
	t.Run("wrong command", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "n")
		s := serveInProcess(t, childConfig{Mode: modeBacklog, Dir: dir, Bytes: 0, Timeout: time.Minute})
		s.expect(t, msgReady)
		s.send(t, cmdStop)
		if err := s.wait(t); !errors.Is(err, errProtocol) || !strings.Contains(err.Error(), `want "sync"`) {
			t.Errorf("neighbor ended with %v, want a protocol error", err)
		}
		gone(t, dir)
	})
	t.Run("directory exists", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "mine"), []byte("x"), 0o644)
		s := serveInProcess(t, childConfig{Mode: modeBacklog, Dir: dir, Bytes: 0, Timeout: time.Minute})
		if err := s.wait(t); !errors.Is(err, os.ErrExist) {
			t.Errorf("neighbor given an existing directory: %v, want ErrExist", err)
		}
		if names := dirtest.Names(t, dir); len(names) != 1 {
			t.Errorf("the existing directory now holds %v", names)
		}
	})
}
