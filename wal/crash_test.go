package wal

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
)

// The crash test's child: TestMain runs it instead of the tests when
// crashChildEnv is set. It appends from crashWriters goroutines forever and
// prints each acknowledged sequence number on its own line, after Append
// returned it, until the parent kills it.
const (
	crashChildEnv = "WAL_TEST_CRASH_CHILD" // "dir,layout,iomode"
	crashWriters  = 64
	crashSegment  = 256 << 10 // small, so that crashes land near rotations too
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(crashChildEnv); spec != "" {
		os.Exit(crashChild(spec))
	}
	os.Exit(m.Run())
}

func crashChild(spec string) int {
	parts := strings.Split(spec, ",")
	layout, err1 := fixtures.ParseState(parts[1])
	mode, err2 := ParseIOMode(parts[2])
	if len(parts) != 3 || err1 != nil || err2 != nil {
		fmt.Fprintf(os.Stderr, "bad %s=%q\n", crashChildEnv, spec)
		return 3
	}
	w, err := Open(Options{Dir: parts[0], SegmentSize: crashSegment, Layout: layout, Method: syscalls.Fdatasync, IOMode: mode})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	var out sync.Mutex
	for id := range crashWriters {
		go func() {
			buf := make([]byte, 4096)
			for i := 0; ; i++ {
				p := buf[:16+(id*131+i*17)%4000]
				fillTestPayload(p, id, i)
				seq, err := w.Append(p)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(4)
				}
				out.Lock()
				os.Stdout.WriteString(strconv.FormatUint(seq, 10) + "\n")
				out.Unlock()
			}
		}()
	}
	select {}
}

// Crash at a random moment: every record a child acknowledged before
// SIGKILL is in the log Replay reads, in every layout and I/O mode, and the
// log ends cleanly.
func TestCrashKeepsAcknowledgedRecords(t *testing.T) {
	const runs = 24
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for run := range runs {
		layout := layouts[run%len(layouts)]
		mode := []IOMode{Buffered, Direct}[run/len(layouts)%2]
		killAfter := 1 + rng.IntN(3000) // acknowledgements before the kill
		t.Run(fmt.Sprintf("%d-%s-%s-after-%d", run, layout, mode, killAfter), func(t *testing.T) {
			dir := t.TempDir()
			acked := crashOnce(t, dir, layout, mode, killAfter)
			sum, err := Replay(dir, func(seq uint64, p []byte) error {
				id, i := stampOf(p)
				want := make([]byte, len(p))
				fillTestPayload(want, id, i)
				if id >= crashWriters || !bytes.Equal(p, want) {
					return fmt.Errorf("record %d does not hold what writer %d wrote as its record %d", seq, id, i)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("Replay after SIGKILL: %v", err)
			}
			if len(acked) < killAfter {
				t.Fatalf("child acknowledged %d records, fewer than the %d awaited", len(acked), killAfter)
			}
			highest := acked[len(acked)-1]
			for _, s := range acked {
				highest = max(highest, s)
			}
			if sum.LastSeq < highest {
				t.Errorf("acknowledged seq %d is lost: the log ends at %d (%v)", highest, sum.LastSeq, sum)
			}
		})
	}
}

// crashOnce starts a child writing a log in dir, kills it with SIGKILL once
// it has acknowledged killAfter records, and returns every sequence number
// it acknowledged, read to the end of its output.
func crashOnce(t *testing.T, dir string, layout fixtures.State, mode IOMode, killAfter int) []uint64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s,%s,%s", crashChildEnv, dir, layout, mode))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []uint64
	r := bufio.NewReader(stdout)
	killed := false
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			break // a last line without its newline was cut by the kill: not acknowledged as far as we know
		}
		if err != nil {
			t.Fatal(err)
		}
		seq, perr := strconv.ParseUint(strings.TrimSpace(line), 10, 64)
		if perr != nil {
			t.Fatalf("child printed %q", line)
		}
		acked = append(acked, seq)
		if !killed && len(acked) == killAfter {
			cmd.Process.Kill() // SIGKILL: no deferred code, no flush in the child
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("child ended before %d acknowledgements: %v\n%s", killAfter, err, stderr.String())
	}
	return acked
}
