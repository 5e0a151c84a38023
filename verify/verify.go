package verify

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/syncbench"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscount"
	"github.com/durabench/durabench/wal"
)

// Status is the outcome of one check.
type Status uint8

// The outcomes. Only Fail makes a verification fail.
const (
	Pass Status = iota
	Fail
	NotApplicable // the check cannot run here; Detail says why
)

// String is the word a report line starts with.
func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "FAIL"
	}
	return "n/a"
}

// Check is one checked property and what was found.
type Check struct {
	Name   string // what was checked, e.g. "sync fdatasync: tracer counts"
	Status Status
	Detail string // the figures found, or why not applicable
}

// String formats the check as its report line.
func (c Check) String() string { return fmt.Sprintf("%-4s  %s: %s", c.Status, c.Name, c.Detail) }

// Counter runs a sync workload in a traced child process (one that calls
// RunSyncWorkload inside a syscount window), working inside dir, and
// returns what the tracer saw.
type Counter func(dir string, w SyncWorkload) (syscount.Result, error)

// Options configure a verification.
type Options struct {
	// Dir is the existing directory to check, on the disk to check; the
	// run directory is made inside it.
	Dir string
	// Count traces sync workloads. Nil skips the tracer checks, with
	// NoCountReason as the reason.
	Count         Counter
	NoCountReason string
	// Report, if set, is given each check as soon as it is made.
	Report func(Check)

	// Fault injection, set only by this package's tests to prove that the
	// checks fail when the tool misbehaves: the sync workload leaves out
	// the sync of this write (1-based), and the log workload leaves out
	// this record but counts it as acknowledged.
	skipSyncAt, dropRecordAt int
}

// Sizes of the small runs.
const (
	syncWrites   = 24
	syncBlock    = 4096
	walWriters   = 4
	walPerWriter = 150
	walPayload   = 200
	walSegment   = 16 << 10
	extentFile   = 1 << 20
)

// Failed reports whether any check failed.
func Failed(checks []Check) bool {
	return slices.ContainsFunc(checks, func(c Check) bool { return c.Status == Fail })
}

// Run makes every check in a new run directory inside o.Dir and removes it.
// It returns the checks in order; an error means verification could not be
// carried out at all (o.Dir unusable), not that a check failed.
func Run(o Options) ([]Check, error) {
	if err := fixtures.CheckParent(o.Dir); err != nil {
		return nil, err
	}
	before, err := listing(o.Dir)
	if err != nil {
		return nil, err
	}
	run, err := fixtures.NewRun(o.Dir, "verify", false)
	if err != nil {
		return nil, err
	}
	v := &verifier{o: o, run: run}
	v.syncCases()
	v.syncCounts()
	v.extents()
	v.logRecords()
	v.outputs()
	runDir := run.Dir
	cerr := run.Close()
	after, err := listing(o.Dir)
	switch {
	case cerr != nil:
		v.fail("run directory removed", "removing %s: %v", runDir, cerr)
	case err != nil:
		v.fail("run directory removed", "listing %s: %v", o.Dir, err)
	case exists(runDir):
		v.fail("run directory removed", "%s still exists", runDir)
	default:
		// What was there before must still be there. Entries that appeared
		// meanwhile are another program's (durabench writes only inside its
		// run directory, which is gone): they are named, not failed.
		gone, appeared := difference(before, after), difference(after, before)
		switch {
		case len(gone) > 0:
			v.fail("run directory removed", "%s no longer holds %q, which it held before the run", o.Dir, gone)
		case len(appeared) > 0:
			v.pass("run directory removed", "%s is gone and all %d entries of %s are still there; %q appeared meanwhile, made by another program", filepath.Base(runDir), len(before), o.Dir, appeared)
		default:
			v.pass("run directory removed", "%s is gone and %s lists the same %d entries as before", filepath.Base(runDir), o.Dir, len(after))
		}
	}
	return v.checks, nil
}

type verifier struct {
	o      Options
	run    *fixtures.Run
	checks []Check
}

func (v *verifier) add(c Check) {
	v.checks = append(v.checks, c)
	if v.o.Report != nil {
		v.o.Report(c)
	}
}

func (v *verifier) pass(name, format string, args ...any) {
	v.add(Check{name, Pass, fmt.Sprintf(format, args...)})
}

func (v *verifier) fail(name, format string, args ...any) {
	v.add(Check{name, Fail, fmt.Sprintf(format, args...)})
}

func (v *verifier) na(name, format string, args ...any) {
	v.add(Check{name, NotApplicable, fmt.Sprintf(format, args...)})
}

// syncCases runs the sync benchmark, small, and checks each case's writes
// and file size against what its configuration implies.
func (v *verifier) syncCases() {
	cfg := syncbench.Config{
		Workloads:  []syncbench.Workload{syncbench.Append, syncbench.Overwrite, syncbench.Fallocate},
		BlockSizes: []int64{syncBlock},
		Methods:    []syscalls.Method{syscalls.None, syscalls.Fdatasync},
		Iterations: syncWrites, Warmup: 2, Rounds: 1, FileSize: 128 << 10,
		SyncEvery: 1, Order: syncbench.Sequential, Threads: []int{1},
	}
	res, err := syncbench.Run(v.run, cfg, nil)
	if err != nil {
		v.fail("sync cases", "the run failed: %v", err)
		return
	}
	if len(res) != len(cfg.Workloads)*len(cfg.Methods) {
		v.fail("sync cases", "%d results for %d cases", len(res), len(cfg.Workloads)*len(cfg.Methods))
	}
	for _, r := range res {
		name := "sync case " + r.Name()
		writes := int64(cfg.Warmup + cfg.Iterations)
		wantSize := writes * r.BlockSize
		if r.Workload.State().FixedSize() {
			wantSize = cfg.FileSize
		}
		switch {
		case r.Total.N != cfg.Iterations:
			v.fail(name, "%d timed writes, want %d", r.Total.N, cfg.Iterations)
		case int64(r.Verified) != writes:
			v.fail(name, "%d writes read back, want all %d (warm-up and measured)", r.Verified, writes)
		case r.FileSize != wantSize:
			v.fail(name, "file is %d bytes, want %d", r.FileSize, wantSize)
		default:
			v.pass(name, "%d writes of %d bytes, all read back; file %d bytes", writes, r.BlockSize, r.FileSize)
		}
	}
}

// expectedCall is the system call the tracer must see once per write for
// each method, written from the OS's manuals rather than taken from the
// syscalls package's tables; "" means none besides the write.
func expectedCall(m syscalls.Method) (string, bool) {
	linux := map[string]string{"none": "", "fsync": "fsync", "fdatasync": "fdatasync", "dsync": "", "osync": "",
		"sync_file_range": "sync_file_range", "gostd": "fsync"}
	darwin := map[string]string{"none": "", "fsync": "fsync", "dsync": "", "osync": "",
		"fullfsync": syscount.FullFsyncCall, "barrierfsync": syscount.BarrierFsyncCall, "gostd": syscount.FullFsyncCall}
	table := linux
	if runtime.GOOS == "darwin" {
		table = darwin
	}
	c, ok := table[m.String()]
	return c, ok
}

// syncCounts runs each sync method's workload under the tracer and checks
// one write and one sync call per write, and, for methods that promise
// stable storage, a device flush per sync where the device counts them.
func (v *verifier) syncCounts() {
	if v.o.Count == nil {
		v.na("sync calls counted by the tracer", "%s", v.o.NoCountReason)
		v.na("device flushes", "no traced runs: %s", v.o.NoCountReason)
		return
	}
	env, _ := envinfo.Collect(v.run.Dir)
	for _, m := range syscalls.Methods() {
		call, known := expectedCall(m)
		name := "sync " + m.String() + ": calls counted by the tracer"
		if !known {
			v.na(name, "no independent expectation for %s on this OS", m)
			continue
		}
		w := SyncWorkload{Method: m.String(), Writes: syncWrites, BlockSize: syncBlock, SkipSyncAt: v.o.skipSyncAt}
		r, err := v.o.Count(v.run.Dir, w)
		if err != nil {
			v.fail(name, "the traced run failed: %v", err)
			continue
		}
		got := map[string]int{}
		for _, c := range append([]string{writeCall}, syscount.SyncCalls...) {
			got[c] = int(r.Counts.Total(c))
		}
		want := map[string]int{writeCall: syncWrites}
		if call != "" {
			want[call] = syncWrites
		}
		bad := ""
		for c, n := range got {
			if n != want[c] {
				bad += fmt.Sprintf("; %s %d, want %d", c, n, want[c])
			}
		}
		if r.Ops != syncWrites {
			bad += fmt.Sprintf("; %d operations in the window, want %d", r.Ops, syncWrites)
		}
		if bad != "" {
			v.fail(name, "%s", strings.TrimPrefix(bad, "; "))
		} else if call == "" {
			v.pass(name, "%d %s and no sync call for %d writes", syncWrites, writeCall, syncWrites)
		} else {
			v.pass(name, "%d %s and %d %s for %d writes", syncWrites, writeCall, syncWrites, call, syncWrites)
		}

		if m.Promise() != syscalls.PromiseStable {
			continue
		}
		fname := "sync " + m.String() + ": device flushes"
		switch {
		case r.DeviceFlushes < 0:
			v.na(fname, "no counter: %s", r.FlushNote)
		case env.WriteCache != "" && env.WriteCache != "write back":
			v.na(fname, "the device's cache is %q: a durable write needs no flush", env.WriteCache)
		case r.DeviceFlushes < int64(syncWrites):
			v.fail(fname, "%d flushes reached the device for %d durable syncs, want at least one each", r.DeviceFlushes, syncWrites)
		default:
			v.pass(fname, "%d flushes reached the device for %d durable syncs (other processes can only add)", r.DeviceFlushes, syncWrites)
		}
	}
}

// extents checks what FIEMAP says of a fallocated file: all its extents
// unwritten before the writes, none after they are synced.
func (v *verifier) extents() {
	const name = "fallocated extents"
	path := v.run.Path("extents")
	if err := fixtures.Create(path, fixtures.Fallocate, extentFile); err != nil {
		v.fail(name, "creating the fallocated file: %v", err)
		return
	}
	f, err := syscalls.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		v.fail(name, "%v", err)
		return
	}
	defer f.Close()
	before, err := syscalls.Extents(f)
	if errors.Is(err, syscalls.ErrNotSupported) || errors.Is(err, errors.ErrUnsupported) {
		v.na(name, "this file system cannot map a file's extents: %v", err)
		return
	}
	if err != nil {
		v.fail(name, "FIEMAP before the writes: %v", err)
		return
	}
	if len(before) == 0 {
		v.na(name, "the file system allocated no extents for a fallocated file (it may not support unwritten extents)")
		return
	}
	if cov, unwritten := coverage(before); cov < extentFile || unwritten < extentFile {
		v.fail(name, "before the writes: %d bytes mapped, %d unwritten, want all %d unwritten", cov, unwritten, extentFile)
		return
	}
	block := bytes.Repeat([]byte{0xa5}, 64<<10)
	for off := int64(0); off < extentFile; off += int64(len(block)) {
		if err := f.Pwrite(block, off); err != nil {
			v.fail(name, "%v", err)
			return
		}
	}
	if err := f.Sync(syscalls.Fdatasync); err != nil {
		v.fail(name, "%v", err)
		return
	}
	after, err := syscalls.Extents(f)
	if err != nil {
		v.fail(name, "FIEMAP after the writes: %v", err)
		return
	}
	if cov, unwritten := coverage(after); cov < extentFile || unwritten != 0 {
		v.fail(name, "after writing and syncing: %d bytes mapped, %d still unwritten, want all %d written", cov, unwritten, extentFile)
		return
	}
	v.pass(name, "%d extent(s) all unwritten before, %d extent(s) all written after %d bytes were written and synced", len(before), len(after), extentFile)
}

// coverage sums the bytes the extents map and those marked unwritten.
func coverage(es []syscalls.Extent) (mapped, unwritten int64) {
	for _, e := range es {
		mapped += int64(e.Length)
		if e.Unwritten() {
			unwritten += int64(e.Length)
		}
	}
	return mapped, unwritten
}

// logRecords appends from several goroutines to a log with small segments,
// replays it, and checks every acknowledged record came back once, intact,
// in segments rotated where the segment size says.
func (v *verifier) logRecords() {
	const name = "log records read back"
	dir, err := v.run.Mkdir("log")
	if err != nil {
		v.fail(name, "%v", err)
		return
	}
	w, err := wal.Open(wal.Options{Dir: dir, SegmentSize: walSegment, Layout: fixtures.Append, Method: syscalls.Fdatasync, IOMode: wal.Buffered})
	if err != nil {
		v.fail(name, "%v", err)
		return
	}
	var wg sync.WaitGroup
	errs := make([]error, walWriters)
	for id := range walWriters {
		wg.Go(func() {
			p := make([]byte, walPayload)
			for i := range walPerWriter {
				stampPayload(p, id, i)
				if id*walPerWriter+i+1 == v.o.dropRecordAt {
					continue // fault injection: acknowledged without an Append
				}
				if _, err := w.Append(p); err != nil {
					errs[id] = err
					return
				}
			}
		})
	}
	wg.Wait()
	cerr := w.Close()
	if err := errors.Join(append(errs, cerr)...); err != nil {
		v.fail(name, "writing the log: %v", err)
		return
	}

	seen := make([][]bool, walWriters)
	for i := range seen {
		seen[i] = make([]bool, walPerWriter)
	}
	want := make([]byte, walPayload)
	sum, err := wal.Replay(dir, func(seq uint64, p []byte) error {
		if len(p) < 16 {
			return fmt.Errorf("record %d has %d bytes, want %d", seq, len(p), walPayload)
		}
		id, i := int(binary.LittleEndian.Uint64(p)), int(binary.LittleEndian.Uint64(p[8:]))
		if id < 0 || id >= walWriters || i < 0 || i >= walPerWriter {
			return fmt.Errorf("record %d is stamped writer %d record %d, which nobody wrote", seq, id, i)
		}
		stampPayload(want, id, i)
		if !bytes.Equal(p, want) {
			return fmt.Errorf("record %d (writer %d record %d) does not hold what was written", seq, id, i)
		}
		if seen[id][i] {
			return fmt.Errorf("record %d repeats writer %d record %d", seq, id, i)
		}
		seen[id][i] = true
		return nil
	})
	total := walWriters * walPerWriter
	switch {
	case err != nil:
		v.fail(name, "replay: %v", err)
	case sum.Records != uint64(total):
		v.fail(name, "%d records replayed, %d acknowledged%s", sum.Records, total, firstMissing(seen))
	default:
		v.pass(name, "%d records from %d writers replayed, each once and intact (%s)", total, walWriters, sum.Tail.Reason)
	}
	v.segments(dir, total)
}

// firstMissing names the first acknowledged record not seen.
func firstMissing(seen [][]bool) string {
	for id, s := range seen {
		for i, ok := range s {
			if !ok {
				return fmt.Sprintf("; writer %d record %d is missing", id, i)
			}
		}
	}
	return ""
}

// segments checks the log's segments against the segment size: each holds
// as many whole frames as fit, is named after its first record, and is no
// larger than the segment size.
func (v *verifier) segments(dir string, records int) {
	const name = "log segments rotated as configured"
	frame := (wal.HeaderSize + walPayload + wal.FrameAlign - 1) / wal.FrameAlign * wal.FrameAlign
	perSegment := walSegment / frame
	segs, err := wal.Segments(dir)
	if err != nil {
		v.fail(name, "%v", err)
		return
	}
	want := (records + perSegment - 1) / perSegment
	if len(segs) != want {
		v.fail(name, "%d segments for %d records of %d bytes, want %d (%d frames of %d bytes fit in %d)",
			len(segs), records, walPayload, want, perSegment, frame, walSegment)
		return
	}
	for k, s := range segs {
		if base, name2 := filepath.Base(s), wal.SegmentName(uint64(1+k*perSegment)); base != name2 {
			v.fail(name, "segment %d is %s, want %s", k+1, base, name2)
			return
		}
		st, err := os.Stat(s)
		if err != nil {
			v.fail(name, "%v", err)
			return
		}
		wantSize := int64(min(perSegment, records-k*perSegment) * frame)
		if st.Size() != wantSize {
			v.fail(name, "segment %s is %d bytes, want %d", filepath.Base(s), st.Size(), wantSize)
			return
		}
	}
	v.pass(name, "%d segments of at most %d bytes, %d records each, named after their first record", len(segs), walSegment, perSegment)
}

// outputs writes a results directory, then tries to write it again: the
// second attempt must be refused and the first results left as they were.
func (v *verifier) outputs() {
	const name = "outputs never overwritten"
	dir := v.run.Path("out")
	rec := results.Record{Experiment: "verify", Params: results.Params{{Key: "check", Value: "outputs"}}, Round: 1, N: 1}
	write := func() error {
		o, err := results.CreateOut(dir)
		if err != nil {
			return err
		}
		if err := o.Write([]results.Record{rec}); err != nil {
			o.Close()
			return err
		}
		return o.Close()
	}
	if err := write(); err != nil {
		v.fail(name, "first write: %v", err)
		return
	}
	first, err := snapshot(dir)
	if err != nil {
		v.fail(name, "%v", err)
		return
	}
	rec.N = 2
	err = write()
	if !errors.Is(err, results.ErrOutExists) {
		v.fail(name, "writing to the same output again returned %v, want a refusal", err)
		return
	}
	second, serr := snapshot(dir)
	if serr != nil || !maps.Equal(first, second) {
		v.fail(name, "the refused second write changed the first results (%v)", serr)
		return
	}
	v.pass(name, "a second run to the same output was refused and its %d files left unchanged", len(first))
}

// snapshot reads every file in dir.
func snapshot(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = string(b)
	}
	return out, nil
}

// difference returns the names in a that are not in b.
func difference(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

// listing returns the names in dir, sorted.
func listing(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// stampPayload fills p with writer id's record i: the two numbers, then a
// pattern that depends on both.
func stampPayload(p []byte, id, i int) {
	binary.LittleEndian.PutUint64(p, uint64(id))
	binary.LittleEndian.PutUint64(p[8:], uint64(i))
	for j := 16; j < len(p); j++ {
		p[j] = byte(j*31 + id*7 + i)
	}
}
