package walcrash

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
)

// fakeRecord runs the workload in-process and makes a crash.Log from what
// its files look like at each acknowledgement: new files and directories
// become creates, changed sectors become writes, and, unless the writer
// skips its syncs, each changed file and each directory that gained an
// entry is synced before the acknowledgement. It is a stand-in for the
// ptrace recorder that judges the checker and the explorer, not the
// writer: it assumes what the writer's documentation says it does.
func fakeRecord(t *testing.T, cfg Config) *crash.Log {
	t.Helper()
	root := t.TempDir()
	log := &crash.Log{}
	seen := map[string][]byte{}
	dirs := map[string]bool{}
	var ino uint64
	inodes := map[string]uint64{}
	snapshot := func() {
		var changedDirs []string
		var changed []string
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == root {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if d.IsDir() {
				if !dirs[rel] {
					dirs[rel] = true
					ino++
					log.Events = append(log.Events, crash.Event{Op: crash.OpMkdir, Path: rel, Inode: ino})
					changedDirs = append(changedDirs, ".")
				}
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			old, ok := seen[rel]
			if !ok {
				ino++
				inodes[rel] = ino
				log.Events = append(log.Events, crash.Event{Op: crash.OpCreate, Path: rel, Inode: ino})
				changedDirs = append(changedDirs, filepath.Dir(rel))
			}
			// One write from the first changed byte to the last, as a
			// buffered pwrite of the new records would be.
			lo, hi := 0, len(data)
			for lo < min(len(old), len(data)) && old[lo] == data[lo] {
				lo++
			}
			for hi > lo && hi <= len(old) && old[hi-1] == data[hi-1] {
				hi--
			}
			if lo < hi {
				log.Events = append(log.Events, crash.Event{Op: crash.OpWrite, Path: rel, Inode: inodes[rel], Off: int64(lo), Data: slices.Clone(data[lo:hi])})
				changed = append(changed, rel)
			}
			seen[rel] = data
			return nil
		})
		if cfg.SkipSync {
			return
		}
		for _, p := range slices.Compact(changed) {
			log.Events = append(log.Events, crash.Event{Op: crash.OpSync, Path: p, Inode: inodes[p], Sync: crash.SyncFdatasync})
		}
		for _, d := range slices.Compact(changedDirs) {
			log.Events = append(log.Events, crash.Event{Op: crash.OpSync, Path: d, Dir: true, Sync: crash.SyncFsync})
		}
	}
	err := Workload(root, cfg, func(seq uint64) {
		snapshot()
		log.Events = append(log.Events, crash.Event{Op: crash.OpAck, Ack: seq})
	})
	if err != nil {
		t.Fatal(err)
	}
	return log
}

func explore(t *testing.T, log *crash.Log, m crash.Model, seed uint64, states int) crash.Result {
	t.Helper()
	res, err := crash.Explore(log, crash.Explorer{Model: m, Seed: seed, States: states, Scratch: t.TempDir(), Checker: Checker{}, Config: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A writer that syncs before it acknowledges loses nothing in the Linux
// models; one that skips its sync loses records, and the explorer finds a
// state showing it.
func TestExplorerJudgesTheWriter(t *testing.T) {
	good := fakeRecord(t, Config{Layout: fixtures.Append, Method: syscalls.Fdatasync, Records: 12})
	for _, m := range []crash.Model{crash.LinuxExt4(), crash.PosixStrict()} {
		res := explore(t, good, m, 1, 300)
		if !res.Safe() || res.States < 300 {
			t.Errorf("%s: syncing writer: %d states, %d lost, %d corrupt (%v); want 300+ states, all safe", m.Name, res.States, res.Lost, res.Corrupt, res.SmallestLost)
		}
	}
	bad := fakeRecord(t, Config{Layout: fixtures.Append, Method: syscalls.Fdatasync, Records: 12, SkipSync: true})
	res := explore(t, bad, crash.LinuxExt4(), 1, 300)
	if res.Lost == 0 || res.SmallestLost == nil {
		t.Fatalf("writer without syncs: no state lost an acknowledged record (%d states)", res.States)
	}
	if res.MaxLost != 12 {
		t.Errorf("writer without syncs: the most lost is %d, want all 12 (lose-all at the end)", res.MaxLost)
	}
	if res.Corrupt != 0 {
		t.Errorf("writer without syncs: %d corrupt states: Replay refused a log whose lost records were never synced (%s)", res.Corrupt, res.SmallestCorrupt.Verdict.Detail)
	}
	// The smallest failing state rebuilds from its identifier, and the
	// checker gives it the same verdict.
	f := res.SmallestLost
	st, err := crash.Rebuild(bad, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "s")
	if err := st.Write(dir); err != nil {
		t.Fatal(err)
	}
	if v := (Checker{}).Check(dir, st.Acked); v.LostAcked != f.Verdict.LostAcked || st.Acked != f.Acked {
		t.Errorf("rebuilt %s: acked %d lost %d; the explorer saw acked %d lost %d", f.ID, st.Acked, v.LostAcked, f.Acked, f.Verdict.LostAcked)
	}
	if _, err := crash.Rebuild(good, f.ID); err == nil || !strings.Contains(err.Error(), "hash") {
		t.Errorf("rebuilding from another recording: %v; want a refusal naming the hash", err)
	}
}

// The same seed gives the same results, state for state.
func TestExplorerReproducible(t *testing.T) {
	log := fakeRecord(t, Config{Layout: fixtures.Append, Method: syscalls.Fdatasync, Records: 8, SkipSync: true})
	a := explore(t, log, crash.PosixStrict(), 5, 200)
	b := explore(t, log, crash.PosixStrict(), 5, 200)
	a.Seconds, b.Seconds = 0, 0
	if a.States != b.States || a.Lost != b.Lost || a.Distinct != b.Distinct || a.MaxLost != b.MaxLost ||
		a.SmallestLost.ID != b.SmallestLost.ID {
		t.Errorf("same seed, different results:\n%+v\n%+v", a, b)
	}
	c := explore(t, log, crash.PosixStrict(), 6, 200)
	if c.Distinct == a.Distinct && c.Lost == a.Lost {
		t.Logf("seeds 5 and 6 found the same counts (possible, but rare)")
	}
}

// The checker's verdicts on logs written directly.
func TestChecker(t *testing.T) {
	dir := t.TempDir()
	if err := Workload(dir, Config{Layout: fixtures.Append, Method: syscalls.Fdatasync, Records: 5}, func(uint64) {}); err != nil {
		t.Fatal(err)
	}
	if v := (Checker{}).Check(dir, 5); v.LostAcked != 0 || v.Corrupt {
		t.Errorf("whole log: %+v", v)
	}
	if v := (Checker{}).Check(dir, 7); v.LostAcked != 2 {
		t.Errorf("acked 7 of a 5-record log: lost %d, want 2", v.LostAcked)
	}
	// Damage record 2's payload: Replay stops there, and the later records
	// (framed after 2 was durable) prove it was synced: corrupt.
	segs, err := wal.Segments(filepath.Join(dir, LogDir))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(segs[0])
	off := (wal.HeaderSize + len(Payload(1)) + 7) &^ 7
	data[off+wal.HeaderSize+3] ^= 0xff
	os.WriteFile(segs[0], data, 0o644)
	if v := (Checker{}).Check(dir, 5); !v.Corrupt || v.LostAcked != 4 {
		t.Errorf("damaged durable record: %+v; want corrupt with 4 acknowledged records unreadable", v)
	}
	if v := (Checker{}).Check(t.TempDir(), 0); v.LostAcked != 0 || v.Corrupt || v.Err != nil {
		t.Errorf("no log, nothing acknowledged: %+v", v)
	}
	if v := (Checker{}).Check(t.TempDir(), 3); v.LostAcked != 3 {
		t.Errorf("no log, 3 acknowledged: %+v", v)
	}
}

func TestConfigName(t *testing.T) {
	for _, c := range []Config{
		{Layout: fixtures.Initialized, IOMode: wal.Direct, Method: syscalls.Fsync, SkipSync: true},
		{Layout: fixtures.Append, IOMode: wal.Buffered, Method: syscalls.Fdatasync, Records: 7},
		{Layout: fixtures.Fallocate, IOMode: wal.Buffered, Method: syscalls.Fdatasync},
	} {
		got, err := ParseName(c.Name())
		if err != nil || got != c {
			t.Errorf("ParseName(%q) = %+v, %v", c.Name(), got, err)
		}
	}
	for _, bad := range []string{"wal/append/buffered", "wal/append/buffered/fsync/records=0", "wal/append/buffered/fsync/x", "sqlite/a/b/c"} {
		if _, err := ParseName(bad); err == nil {
			t.Errorf("ParseName(%q) accepted it", bad)
		}
	}
}
