package crash

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// Hand-written logs with known answers, one rule of each model at a time.
// stateOf builds the state of log cut at cut with variant v under m and
// returns its files as path → contents ("/" suffix for directories).

func stateOf(t *testing.T, log *Log, m Model, cut, v int) map[string]string {
	t.Helper()
	r, err := resolve(log)
	if err != nil {
		t.Fatal(err)
	}
	st, err := build(r, m, analyse(r, m), StateID{Model: m.Name, Seed: 7, Cut: cut, Variant: v, Log: r.hash})
	if err != nil {
		t.Fatal(err)
	}
	return filesOf(st)
}

func filesOf(st *State) map[string]string {
	out := map[string]string{}
	for _, f := range st.Files {
		if f.Dir {
			out[f.Path+"/"] = ""
		} else {
			out[f.Path] = string(f.Data)
		}
	}
	return out
}

func fullMap() Mapping { return Mapping{Fsync: SyncFull, Fdatasync: SyncFull} }

func sync(ino uint64, path string, k SyncKind) Event {
	return Event{Op: OpSync, Inode: ino, Path: path, Sync: k}
}

func dirSync(path string) Event { return Event{Op: OpSync, Path: path, Dir: true, Sync: SyncFsync} }

func write(ino uint64, path string, off int64, data string) Event {
	return Event{Op: OpWrite, Inode: ino, Path: path, Off: off, Data: []byte(data)}
}

// A write followed by its file's fsync is kept by every model whose fsync
// persists: both Linux models, and macos where fsync stands for
// F_FULLFSYNC. Under macos with a plain fsync, nothing persists.
func TestWriteThenFsync(t *testing.T) {
	log := &Log{
		Initial: map[string][]byte{"f": []byte("old!")},
		Events:  []Event{write(1, "f", 0, "new!"), sync(1, "f", SyncFsync)},
	}
	for _, c := range []struct {
		m    Model
		want string
	}{
		{LinuxExt4(), "new!"}, {PosixStrict(), "new!"}, {MacOS(fullMap()), "new!"}, {MacOS(Mapping{}), "old!"},
	} {
		if got := stateOf(t, log, c.m, 2, 1)["f"]; got != c.want {
			t.Errorf("%s, lose all unsynced after write+fsync: f = %q, want %q", c.m.Name, got, c.want)
		}
		// Cut before the sync: the write is pending in every model.
		if got := stateOf(t, log, c.m, 1, 1)["f"]; got != "old!" {
			t.Errorf("%s, cut before the fsync, lose all: f = %q, want the old contents", c.m.Name, got)
		}
		if got := stateOf(t, log, c.m, 1, 0)["f"]; got != "new!" {
			t.Errorf("%s, cut before the fsync, keep all: f = %q, want the new contents", c.m.Name, got)
		}
	}
}

// A write nobody syncs is lost in the lose-all variant of every model,
// even after another file's fsync.
func TestUnsyncedWriteLost(t *testing.T) {
	log := &Log{
		Initial: map[string][]byte{"a": []byte("aaaa"), "b": []byte("bbbb")},
		Events:  []Event{write(1, "a", 0, "AAAA"), write(2, "b", 0, "BBBB"), sync(2, "b", SyncFdatasync)},
	}
	for _, m := range []Model{LinuxExt4(), PosixStrict(), MacOS(fullMap())} {
		s := stateOf(t, log, m, 3, 1)
		if s["a"] != "aaaa" || s["b"] != "BBBB" {
			t.Errorf("%s: after b's fdatasync, lose all: a=%q b=%q, want a old, b new", m.Name, s["a"], s["b"])
		}
	}
}

// The classic rename: create tmp, write it, rename it over the target, and
// fsync some other file afterwards. linux-ext4 commits the rename with that
// fsync (its journal) but not tmp's data, so the target is empty; in
// posix-strict the rename is not durable without the directory's fsync, so
// the old target survives. With the directory synced, posix-strict keeps
// the rename too.
func TestRenameDurability(t *testing.T) {
	events := []Event{
		{Op: OpCreate, Path: "d/tmp", Inode: 2},
		write(2, "d/tmp", 0, "new"),
		{Op: OpRename, Path: "d/tmp", NewPath: "d/target", Inode: 2},
		write(3, "other", 0, "x"),
		sync(3, "other", SyncFsync),
	}
	log := &Log{Initial: map[string][]byte{"d/target": []byte("old"), "other": nil}, Events: events}
	ext4 := stateOf(t, log, LinuxExt4(), len(events), 1)
	if got, ok := ext4["d/target"]; !ok || got != "" {
		t.Errorf("linux-ext4: target = %q (present %v), want the renamed, empty file: the rename is journaled, tmp's data is not synced", got, ok)
	}
	if _, ok := ext4["d/tmp"]; ok {
		t.Errorf("linux-ext4: d/tmp still present after a durable rename")
	}
	posix := stateOf(t, log, PosixStrict(), len(events), 1)
	if posix["d/target"] != "old" {
		t.Errorf("posix-strict: target = %q, want the old contents: the directory was never synced", posix["d/target"])
	}
	if _, ok := posix["d/tmp"]; ok {
		t.Errorf("posix-strict: d/tmp present, but its create was never made durable")
	}
	// The fixed program: fsync tmp before the rename, fsync d after.
	fixed := []Event{events[0], events[1], sync(2, "d/tmp", SyncFsync), events[2], dirSync("d")}
	log.Events = fixed
	for _, m := range []Model{LinuxExt4(), PosixStrict()} {
		if got := stateOf(t, log, m, len(fixed), 1)["d/target"]; got != "new" {
			t.Errorf("%s, fixed program, lose all: target = %q, want new", m.Name, got)
		}
		// Cut before the directory sync: the old or the new file, whole.
		for v := range 40 {
			got, ok := stateOf(t, log, m, len(fixed)-1, v)["d/target"]
			if !ok || (got != "new" && got != "old") {
				t.Fatalf("%s, fixed program, cut before the dir fsync, variant %d: target = %q (present %v), want old or new whole", m.Name, v, got, ok)
			}
		}
	}
}

// ext4's fdatasync commits the journal only when the file's size or
// allocation changed: an overwrite's fdatasync leaves another file's
// create pending; an append's commits it.
func TestFdatasyncCommitsNamesOnlyWithMetadata(t *testing.T) {
	base := []Event{{Op: OpCreate, Path: "new", Inode: 2}}
	overwrite := &Log{Initial: map[string][]byte{"f": []byte("1234")},
		Events: append(append([]Event{}, base...), write(1, "f", 0, "abcd"), sync(1, "f", SyncFdatasync))}
	if _, ok := stateOf(t, overwrite, LinuxExt4(), 3, 1)["new"]; ok {
		t.Errorf("linux-ext4: an overwrite's fdatasync committed another file's create")
	}
	appendLog := &Log{Initial: map[string][]byte{"f": []byte("1234")},
		Events: append(append([]Event{}, base...), write(1, "f", 4, "abcd"), sync(1, "f", SyncFdatasync))}
	if _, ok := stateOf(t, appendLog, LinuxExt4(), 3, 1)["new"]; !ok {
		t.Errorf("linux-ext4: an append's fdatasync did not commit the journal with the create in it")
	}
}

// Under macos a plain fsync and fdatasync persist nothing, whatever
// follows, unless a flush comes after them; F_FULLFSYNC on one file
// persists what other files' fsyncs handed over before it.
func TestMacOSFsyncPersistsNothing(t *testing.T) {
	log := &Log{
		Initial: map[string][]byte{"a": []byte("a0"), "b": []byte("b0"), "c": []byte("c0")},
		Events: []Event{
			write(1, "a", 0, "a1"), sync(1, "a", SyncFsync),
			write(2, "b", 0, "b1"), sync(2, "b", SyncFdatasync),
			write(3, "c", 0, "c1"),
		},
	}
	s := stateOf(t, log, MacOS(Mapping{}), 5, 1)
	if s["a"] != "a0" || s["b"] != "b0" {
		t.Errorf("macos: fsync and fdatasync persisted data: a=%q b=%q", s["a"], s["b"])
	}
	log.Events = append(log.Events, sync(3, "c", SyncFull))
	s = stateOf(t, log, MacOS(Mapping{}), 6, 1)
	if s["a"] != "a1" || s["b"] != "b1" || s["c"] != "c1" {
		t.Errorf("macos: after F_FULLFSYNC of c, lose all: a=%q b=%q c=%q, want every handed-over write", s["a"], s["b"], s["c"])
	}
	// A write never synced is not handed over, so the flush does not
	// persist it.
	log.Events = append(log.Events[:6:6], write(1, "a", 0, "a2"), sync(3, "c", SyncFull))
	if got := stateOf(t, log, MacOS(Mapping{}), 8, 1)["a"]; got != "a1" {
		t.Errorf("macos: a write never synced survived another file's F_FULLFSYNC: a=%q", got)
	}
}

// Barrier epochs: writes A | barrier | B | barrier | C, cut at the end. In
// every variant, a state that holds any byte of a later epoch holds the
// earlier epochs whole; and some variants hold part of an epoch.
func TestMacOSBarrierEpochs(t *testing.T) {
	a, b, c := strings.Repeat("A", 1536), strings.Repeat("B", 1536), strings.Repeat("C", 1536)
	log := &Log{
		Initial: map[string][]byte{"f": make([]byte, 3*1536)},
		Events: []Event{
			write(1, "f", 0, a), sync(1, "f", SyncBarrier),
			write(1, "f", 1536, b), sync(1, "f", SyncBarrier),
			write(1, "f", 3072, c), sync(1, "f", SyncFsync),
		},
	}
	partial := 0
	// The same with C never synced: the page cache may write it back, but
	// not ahead of the barriers issued before it was written.
	unsynced := &Log{Initial: log.Initial, Events: log.Events[:5]}
	for v := 2; v < 400; v++ {
		l := log
		if v%2 == 1 {
			l = unsynced
		}
		f := []byte(stateOf(t, l, MacOS(Mapping{}), len(l.Events), v)["f"])
		whole := func(i int, ch byte) bool { return bytes.Equal(f[i*1536:(i+1)*1536], bytes.Repeat([]byte{ch}, 1536)) }
		touched := func(i int) bool { return !bytes.Equal(f[i*1536:(i+1)*1536], make([]byte, 1536)) }
		if touched(1) && !whole(0, 'A') {
			t.Fatalf("variant %d: epoch 1 reached the disk but epoch 0 is not whole", v)
		}
		if touched(2) && (!whole(0, 'A') || !whole(1, 'B')) {
			t.Fatalf("variant %d: epoch 2 reached the disk but an earlier epoch is not whole", v)
		}
		for i, ch := range []byte("ABC") {
			if touched(i) && !whole(i, ch) {
				partial++
			}
		}
	}
	if partial == 0 {
		t.Errorf("no variant kept part of an epoch: the explorer never tries subsets")
	}
}

// The pending name operations of linux-ext4 reach the disk as a prefix:
// a later create is never kept without an earlier one.
func TestNamesPrefix(t *testing.T) {
	var events []Event
	for i := range 6 {
		events = append(events, Event{Op: OpCreate, Path: fmt.Sprintf("n%d", i), Inode: uint64(10 + i)})
	}
	log := &Log{Events: events}
	lengths := map[int]bool{}
	for v := 2; v < 60; v++ {
		s := stateOf(t, log, LinuxExt4(), len(events), v)
		n := 0
		for n < 6 {
			if _, ok := s[fmt.Sprintf("n%d", n)]; !ok {
				break
			}
			n++
		}
		if len(s) != n {
			t.Fatalf("variant %d kept %v: not a prefix of the creates", v, s)
		}
		lengths[n] = true
	}
	if len(lengths) < 3 {
		t.Errorf("prefix lengths tried: %v; want a spread", lengths)
	}
}

// O_DSYNC writes are durable when they return in the Linux models, and
// only handed over under macos.
func TestDsyncWrite(t *testing.T) {
	w := write(1, "f", 0, "new")
	w.Durable = true
	log := &Log{Initial: map[string][]byte{"f": []byte("old")}, Events: []Event{w}}
	for _, c := range []struct {
		m    Model
		want string
	}{{LinuxExt4(), "new"}, {PosixStrict(), "new"}, {MacOS(Mapping{}), "old"}} {
		if got := stateOf(t, log, c.m, 1, 1)["f"]; got != c.want {
			t.Errorf("%s: O_DSYNC write, lose all: f = %q, want %q", c.m.Name, got, c.want)
		}
	}
}

// Random variants tear sectors, and the same identifier builds the same
// bytes every time.
func TestTearAndReproduce(t *testing.T) {
	data := strings.Repeat("x", 4096)
	log := &Log{Events: []Event{{Op: OpCreate, Path: "f", Inode: 1}, write(1, "f", 0, data)}}
	r, err := resolve(log)
	if err != nil {
		t.Fatal(err)
	}
	m := LinuxExt4()
	f := analyse(r, m)
	torn := false
	for v := 2; v < 40 && !torn; v++ {
		id := StateID{Model: m.Name, Seed: 99, Cut: 2, Variant: v, Log: r.hash}
		s1, _ := build(r, m, f, id)
		s2, _ := build(r, m, f, id)
		if s1.fingerprint() != s2.fingerprint() {
			t.Fatalf("state %s built twice differs", id)
		}
		for _, d := range s1.Deviations {
			if d.Choice == Tear {
				torn = true
				if d.Lo%sectorSize != 0 || d.Hi%sectorSize != 0 {
					t.Errorf("torn range [%d,%d) is not whole sectors", d.Lo, d.Hi)
				}
			}
		}
	}
	if !torn {
		t.Errorf("no variant among 38 tore a sector")
	}
}

func TestStateIDRoundTrip(t *testing.T) {
	for _, id := range []StateID{
		{Model: "linux-ext4", Seed: 1, Cut: 17, Variant: 5, Log: "3fa2b1c0"},
		{Config: "wal/append/buffered/fdatasync", Model: MacOS(Mapping{Fsync: SyncBarrier}).Name, Seed: 42, Cut: 0, Variant: 0, Log: "00000000"},
	} {
		got, err := ParseStateID(id.String())
		if err != nil || got != id {
			t.Errorf("ParseStateID(%q) = %+v, %v; want %+v", id.String(), got, err, id)
		}
	}
	for _, bad := range []string{"", "linux-ext4:1:2:3", "nosuch:1:2:3:abcd", "linux-ext4:x:2:3:abcd", "linux-ext4:1:-2:3:abcd"} {
		if _, err := ParseStateID(bad); err == nil {
			t.Errorf("ParseStateID(%q) accepted it", bad)
		}
	}
}

func TestParseModel(t *testing.T) {
	m, err := ParseModel("macos[fsync=barrier,fdatasync=full]")
	if err != nil || m.Map.Fsync != SyncBarrier || m.Map.Fdatasync != SyncFull || m.Name != "macos[fsync=barrier,fdatasync=full]" {
		t.Fatalf("ParseModel: %+v, %v", m, err)
	}
	if got := (Mapping{Fsync: SyncBarrier, Why: "fullfsync=1, Apple's system build"}).String(); got != "fsync→F_BARRIERFSYNC, fdatasync→fdatasync (fullfsync=1, Apple's system build)" {
		t.Errorf("Mapping.String() = %q", got)
	}
	if _, err := ParseModels("linux-ext4,linux-ext4"); err == nil {
		t.Errorf("a model listed twice was accepted")
	}
	if _, err := ParseModel("ext3"); err == nil || !strings.Contains(err.Error(), "linux-ext4, posix-strict, macos") {
		t.Errorf("unknown model error = %v; want the list of models", err)
	}
}

// Log.Inodes ties the recorder's numbers to the files present at the
// start, so a write names its file by inode even after a rename, and a
// directory present at the start can be synced.
func TestInodesBindInitialFiles(t *testing.T) {
	log := &Log{
		Initial: map[string][]byte{"d/a": []byte("old")},
		Inodes:  map[string]uint64{".": 1, "d": 2, "d/a": 3, "e": 4},
		Events: []Event{
			{Op: OpRename, Path: "d/a", NewPath: "d/b", Inode: 3},
			{Op: OpWrite, Inode: 3, Path: "d/b", Data: []byte("new")},
			{Op: OpSync, Inode: 3, Path: "d/b", Sync: SyncFsync},
			{Op: OpSync, Inode: 4, Path: "e", Dir: true, Sync: SyncFsync},
		},
	}
	s := stateOf(t, log, PosixStrict(), 4, 1)
	if s["d/a"] != "new" || s["e/"] != "" {
		t.Errorf("posix-strict, lose all: %v; want d/a holding the synced write (the rename not durable) and e/", s)
	}
	if _, ok := s["e/"]; !ok {
		t.Errorf("the empty directory e, present at the start, is missing: %v", s)
	}
	if s := stateOf(t, log, LinuxExt4(), 4, 1); s["d/b"] != "new" {
		t.Errorf("linux-ext4, lose all: %v; want d/b holding the write (the rename committed by the fsync)", s)
	}
}
