// Package walcrash is the log writer's crash test: a small workload that
// appends records with package wal and acknowledges each one, and the
// Checker that judges a crash state of its log: Replay must return every
// acknowledged record with the bytes that were written, never a record
// with other bytes, and refuse the log (wal.ErrCorrupt) only when the
// format says it must.
package walcrash

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
)

// LogDir is the log's directory inside the recorded root.
const LogDir = "log"

// Defaults for the zero values of Config.
const (
	DefaultRecords     = 24
	DefaultSegmentSize = 4096 // small, so that the workload rotates segments
)

// Config is one case of the workload. It marshals to JSON for the child
// that runs it under the recorder.
type Config struct {
	Layout      fixtures.State  `json:"layout"`
	IOMode      wal.IOMode      `json:"io_mode"`
	Method      syscalls.Method `json:"method"` // the method the writer is given: fsync or fdatasync on Linux
	Records     int             `json:"records"`
	SegmentSize int64           `json:"segment_size"`
	// SkipSync makes a broken writer for tests: each record is handed to
	// the OS with Writer.Write and acknowledged without any sync.
	SkipSync bool `json:"skip_sync,omitempty"`
}

func (c Config) withDefaults() Config {
	if c.Records == 0 {
		c.Records = DefaultRecords
	}
	if c.SegmentSize == 0 {
		c.SegmentSize = DefaultSegmentSize
	}
	return c
}

// Name is the configuration as results show it and state identifiers
// carry it: "wal/LAYOUT/IOMODE/METHOD", then "/records=N" for a record
// count other than the default, and "/skip-sync" for the broken writer.
func (c Config) Name() string {
	s := fmt.Sprintf("wal/%s/%s/%s", c.Layout, c.IOMode, c.Method)
	if c.Records != 0 && c.Records != DefaultRecords {
		s += fmt.Sprintf("/records=%d", c.Records)
	}
	if c.SkipSync {
		s += "/skip-sync"
	}
	return s
}

// ParseName reads a configuration that Name printed (with the default
// segment size).
func ParseName(s string) (Config, error) {
	bad := fmt.Errorf("walcrash: %q is not a log writer configuration (wal/LAYOUT/IOMODE/METHOD[/records=N][/skip-sync])", s)
	parts := strings.Split(s, "/")
	if len(parts) < 4 || parts[0] != "wal" {
		return Config{}, bad
	}
	var c Config
	for _, opt := range parts[4:] {
		n, isRecords := strings.CutPrefix(opt, "records=")
		switch {
		case opt == "skip-sync" && !c.SkipSync:
			c.SkipSync = true
		case isRecords && c.Records == 0:
			if _, err := fmt.Sscan(n, &c.Records); err != nil || c.Records < 1 {
				return Config{}, bad
			}
		default:
			return Config{}, bad
		}
	}
	var err error
	if c.Layout, err = fixtures.ParseState(parts[1]); err != nil {
		return c, fmt.Errorf("walcrash: %w", err)
	}
	if c.IOMode, err = wal.ParseIOMode(parts[2]); err != nil {
		return c, fmt.Errorf("walcrash: %w", err)
	}
	if c.Method, err = syscalls.ParseMethod(parts[3]); err != nil {
		return c, fmt.Errorf("walcrash: %w", err)
	}
	return c, nil
}

// Payload returns record seq's payload: 64 to 383 bytes, every byte a
// function of seq and its position, so that a record holding other bytes
// is recognised.
func Payload(seq uint64) []byte {
	p := make([]byte, 64+int(seq*37%320))
	for i := range p {
		p[i] = byte(seq*131 + uint64(i)*7 + 1)
	}
	return p
}

// Workload is the workload: it makes root/log (and syncs root, so the
// directory's name is durable before any record), opens a wal.Writer
// there, and appends cfg.Records records, calling ack with each sequence
// number once Append returned it.
func Workload(root string, cfg Config, ack func(seq uint64)) error {
	cfg = cfg.withDefaults()
	dir := filepath.Join(root, LogDir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("walcrash: %w", err)
	}
	if err := fixtures.SyncDir(root); err != nil {
		return fmt.Errorf("walcrash: %w", err)
	}
	w, err := wal.Open(wal.Options{Dir: dir, SegmentSize: cfg.SegmentSize, Layout: cfg.Layout, Method: cfg.Method, IOMode: cfg.IOMode})
	if err != nil {
		return fmt.Errorf("walcrash: %w", err)
	}
	for i := 1; i <= cfg.Records; i++ {
		var seq uint64
		if cfg.SkipSync {
			seq, err = w.Write(Payload(uint64(i)))
		} else {
			seq, err = w.Append(Payload(uint64(i)))
		}
		if err != nil {
			w.Close()
			return fmt.Errorf("walcrash: record %d: %w", i, err)
		}
		ack(seq)
	}
	if cfg.SkipSync {
		return nil // the broken writer never syncs, not even at the end
	}
	return w.Close()
}

// Checker judges a crash state of the workload's log.
type Checker struct{}

var _ crash.Checker = Checker{}

// errWrongBytes marks a record Replay returned with bytes that were never
// written as it.
var errWrongBytes = errors.New("record holds bytes that were never written as it")

// Check replays dir/log. Lost: acknowledged records (1..acked) that Replay
// does not return. Corrupt: Replay returned a record with the wrong bytes,
// or refused the log with wal.ErrCorrupt (a log the writer cannot reopen).
func (Checker) Check(dir string, acked uint64) crash.Verdict {
	sum, err := wal.Replay(filepath.Join(dir, LogDir), func(seq uint64, p []byte) error {
		if !bytes.Equal(p, Payload(seq)) {
			return fmt.Errorf("%w: seq %d, %d bytes", errWrongBytes, seq, len(p))
		}
		return nil
	})
	lost := lostOf(sum, acked)
	switch {
	case errors.Is(err, errWrongBytes):
		return crash.Verdict{LostAcked: lost, Corrupt: true, Detail: "Replay returned a corrupt record: " + err.Error()}
	case errors.Is(err, wal.ErrCorrupt):
		detail := "Replay refused the log: " + err.Error()
		if lost == 0 && sum.LastSeq >= acked {
			detail = "Replay refused the log though every acknowledged record before the damage is intact: " + err.Error()
		}
		return crash.Verdict{LostAcked: lost, Corrupt: true, Detail: detail}
	case errors.Is(err, fs.ErrNotExist):
		return crash.Verdict{LostAcked: acked, Detail: "no log: the state holds no segment file in " + LogDir + "/"}
	case err != nil:
		return crash.Verdict{Err: err}
	}
	if lost > 0 {
		return crash.Verdict{LostAcked: lost, Detail: fmt.Sprintf("acknowledged %d, Replay returned %s", acked, sum)}
	}
	return crash.Verdict{Detail: fmt.Sprintf("acknowledged %d, Replay returned %s", acked, sum)}
}

// lostOf counts the acknowledged records 1..acked outside what Replay
// returned (FirstSeq..LastSeq, contiguous by Replay's rule).
func lostOf(sum wal.Summary, acked uint64) uint64 {
	if sum.Records == 0 {
		return acked
	}
	kept := uint64(0)
	if sum.FirstSeq <= acked {
		kept = min(acked, sum.LastSeq) - sum.FirstSeq + 1
	}
	return acked - kept
}

// Mapping is what the macos model assumes the writer calls on darwin for
// method: its fsync and fdatasync are the plain calls there too (package
// syscalls), which only hand data to the drive; full and barrier are
// recorded on Linux as fdatasync (RecordedMethod) and mapped to
// F_FULLFSYNC and F_BARRIERFSYNC. The segment set-up's fsyncs (fixtures)
// stay plain fsyncs, as on darwin.
func Mapping(method string) crash.Mapping {
	switch method {
	case "full":
		return crash.Mapping{Fdatasync: crash.SyncFull, Why: "the writer's method full: F_FULLFSYNC per commit; recorded as fdatasync"}
	case "barrier":
		return crash.Mapping{Fdatasync: crash.SyncBarrier, Why: "the writer's method barrier: F_BARRIERFSYNC per commit; recorded as fdatasync"}
	}
	return crash.Mapping{Why: "the writer's fsync and fdatasync are the plain calls on darwin too"}
}

// RecordedMethod is the Linux method a recording uses for a darwin-only
// method: fdatasync for full and barrier, the method itself otherwise.
func RecordedMethod(method string) string {
	if method == "full" || method == "barrier" {
		return "fdatasync"
	}
	return method
}
