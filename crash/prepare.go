package crash

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Resolving a log. The recorder names files by path and by its own inode
// numbers; the explorer needs every operation tied to the inodes it touches
// and every name operation to the directory entries it changes, so that any
// subset of the operations can be applied on top of the initial state. One
// pass over the log, applying every event to a live namespace, does that.
//
// What the pass needs of a log (beyond event.go's invariants):
//   - Log.Inodes ties the recorder's numbers to what existed at the start.
//     Without it (a hand-written log), an event on a file the log did not
//     create carries its Path as it was then, and the pass ties the inode
//     to whatever that path names; a sync of a directory likewise ("." or
//     "" is the root).
//   - A directory the log did not create but uses (the parent of a created
//     file) existed before recording began and is part of the initial
//     state.

// sectorSize is the unit of tearing: a write reaches the disk, or not, in
// 512-byte sectors of the file's offsets.
const sectorSize = 512

// rootIno is the internal inode of the recorded root directory.
const rootIno = 0

// step is one event resolved: the internal inodes and directory entries it
// touches.
type step struct {
	ev      *Event
	ino     int    // data ops and syncs: the inode; name ops: the inode named
	parent  int    // name ops: the directory of Path
	name    string // name ops: Path's last element
	parent2 int    // rename: the directory of NewPath
	name2   string // rename: NewPath's last element
	// sizeChange: a data op that changed the file's size or allocation, or
	// a create: what makes ext4's fdatasync commit the journal.
	sizeChange bool
	pieces     []piece // a write's sector pieces, in order
}

// piece is part of a write that lies within one sector: Data[lo:hi] at
// file offset off.
type piece struct {
	off    int64
	lo, hi int
}

// inodeInit is one inode of the initial state.
type inodeInit struct {
	dir  bool
	data []byte
}

// link is a directory entry: name in directory parent names inode ino.
type link struct {
	parent int
	name   string
	ino    int
}

// resolved is a log tied to its inodes, ready to build states from.
type resolved struct {
	log     *Log
	steps   []step
	initial []inodeInit // index = internal inode; those the log creates start empty
	links   []link      // the initial directory entries: what existed before recording
	names   []string    // a path for each internal inode, for printing
	hash    string      // 8 hex digits of the log's SHA-256, part of state identifiers
}

// resolve ties every event of log to internal inodes. An event the pass
// cannot place (a write to an inode nothing names, a rename of a name that
// does not exist) is an error naming it.
func resolve(log *Log) (*resolved, error) {
	r := &resolved{log: log, hash: logHash(log)}
	live := []map[string]int{{}} // directory entries by inode; nil for files
	r.initial = []inodeInit{{dir: true}}
	r.names = []string{"."}
	newInode := func(dir bool, data []byte, name string) int {
		r.initial = append(r.initial, inodeInit{dir: dir, data: data})
		r.names = append(r.names, name)
		var entries map[string]int
		if dir {
			entries = map[string]int{}
		}
		live = append(live, entries)
		return len(r.initial) - 1
	}
	// dirOf returns the directory inode of p's parent, creating the initial
	// directories on the way that the log never made.
	dirOf := func(p string) (int, string, error) {
		dir, base := path.Split(p)
		d := rootIno
		for _, el := range strings.Split(strings.Trim(dir, "/"), "/") {
			if el == "" {
				continue
			}
			next, ok := live[d][el]
			if !ok {
				// A parent the log never made existed before recording.
				next = newInode(true, nil, path.Join(r.names[d], el))
				live[d][el] = next
				r.links = append(r.links, link{d, el, next})
			}
			if live[next] == nil {
				return 0, "", fmt.Errorf("%s is not a directory", path.Join(r.names[d], el))
			}
			d = next
		}
		return d, base, nil
	}
	// lookup returns the inode p names now, changing nothing.
	lookup := func(p string) (int, bool) {
		ino := rootIno
		for _, el := range strings.Split(path.Clean(p), "/") {
			if el == "." || el == "" {
				continue
			}
			next, ok := live[ino][el]
			if !ok {
				return 0, false
			}
			ino = next
		}
		return ino, true
	}

	byRec := map[uint64]int{} // recorder inode → internal inode
	paths := make([]string, 0, len(log.Initial))
	for p := range log.Initial {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		d, base, err := dirOf(path.Clean(p))
		if err != nil {
			return nil, fmt.Errorf("crash: initial file %s: %w", p, err)
		}
		ino := newInode(false, log.Initial[p], path.Clean(p))
		live[d][base] = ino
		r.links = append(r.links, link{d, base, ino})
	}
	// The recorder's numbers for the root and everything present at the
	// start; a path not in Initial is a directory.
	paths = paths[:0]
	for p := range log.Inodes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		ino, ok := lookup(p)
		if !ok {
			d, _, err := dirOf(path.Join(path.Clean(p), "x"))
			if err != nil {
				return nil, fmt.Errorf("crash: initial directory %s: %w", p, err)
			}
			ino = d
		}
		byRec[log.Inodes[p]] = ino
	}

	bind := func(e *Event) (int, error) {
		if e.Inode != 0 {
			if ino, ok := byRec[e.Inode]; ok {
				return ino, nil
			}
		}
		if e.Path == "" && e.Inode != 0 && !e.Dir {
			return 0, fmt.Errorf("inode %d was never created and the event has no path", e.Inode)
		}
		ino, ok := lookup(e.Path)
		if !ok && e.Dir {
			// A directory present before recording that nothing else
			// named.
			d, _, err := dirOf(path.Join(path.Clean(e.Path), "x"))
			if err != nil {
				return 0, err
			}
			ino, ok = d, true
		}
		if !ok {
			// A file that existed before recording but was not captured
			// in Log.Initial: it starts empty.
			d, base, err := dirOf(path.Clean(e.Path))
			if err != nil {
				return 0, err
			}
			ino = newInode(false, nil, path.Clean(e.Path))
			live[d][base] = ino
			r.links = append(r.links, link{d, base, ino})
		}
		if e.Inode != 0 {
			byRec[e.Inode] = ino
		}
		return ino, nil
	}

	r.steps = make([]step, len(log.Events))
	size := map[int]int64{}
	for ino, in := range r.initial {
		size[ino] = int64(len(in.data))
	}
	for i := range log.Events {
		e := &log.Events[i]
		s := step{ev: e}
		var err error
		switch e.Op {
		case OpCreate, OpMkdir:
			var base string
			if s.parent, base, err = dirOf(path.Clean(e.Path)); err != nil {
				break
			}
			s.name = base
			s.ino = newInode(e.Op == OpMkdir, nil, path.Clean(e.Path))
			live[s.parent][base] = s.ino
			if e.Inode != 0 {
				byRec[e.Inode] = s.ino
			}
			s.sizeChange = true
		case OpRename:
			if s.ino, err = bind(e); err != nil {
				break
			}
			if s.parent, s.name, err = dirOf(path.Clean(e.Path)); err != nil {
				break
			}
			if s.parent2, s.name2, err = dirOf(path.Clean(e.NewPath)); err != nil {
				break
			}
			if live[s.parent][s.name] == s.ino {
				delete(live[s.parent], s.name)
			}
			live[s.parent2][s.name2] = s.ino
		case OpUnlink:
			if s.ino, err = bind(e); err != nil {
				break
			}
			if s.parent, s.name, err = dirOf(path.Clean(e.Path)); err != nil {
				break
			}
			delete(live[s.parent], s.name)
		case OpWrite:
			if s.ino, err = bind(e); err != nil {
				break
			}
			end := e.Off + int64(len(e.Data))
			s.sizeChange = end > size[s.ino]
			size[s.ino] = max(size[s.ino], end)
			s.pieces = sectorPieces(e.Off, len(e.Data))
		case OpTruncate:
			if s.ino, err = bind(e); err != nil {
				break
			}
			s.sizeChange = e.Size != size[s.ino]
			size[s.ino] = e.Size
		case OpFallocate:
			if s.ino, err = bind(e); err != nil {
				break
			}
			s.sizeChange = true // allocation changes even with KeepSize
			if !e.KeepSize {
				size[s.ino] = max(size[s.ino], e.Off+e.Size)
			}
		case OpSync:
			s.ino, err = bind(e)
		case OpAck:
		default:
			err = fmt.Errorf("unknown operation %d", e.Op)
		}
		if err != nil {
			return nil, fmt.Errorf("crash: log event %d (%s %s): %w", i, e.Op, e.Path, err)
		}
		r.steps[i] = s
	}
	return r, nil
}

// sectorPieces splits n bytes written at off into the parts that fall in
// each 512-byte sector.
func sectorPieces(off int64, n int) []piece {
	var ps []piece
	for lo := 0; lo < n; {
		at := off + int64(lo)
		hi := min(n, lo+int(sectorSize-at%sectorSize))
		ps = append(ps, piece{off: at, lo: lo, hi: hi})
		lo = hi
	}
	return ps
}

// logHash returns the first 8 hex digits of a SHA-256 over the log's
// events and initial files, in a fixed order: a state identifier carries
// it, so that rebuilding a state from a different recording is refused.
func logHash(log *Log) string {
	h := sha256.New()
	var b [8]byte
	num := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	str := func(s string) { num(uint64(len(s))); h.Write([]byte(s)) }
	for _, e := range log.Events {
		num(uint64(e.Op))
		str(e.Path)
		str(e.NewPath)
		num(e.Inode)
		num(uint64(e.Off))
		num(uint64(e.Size))
		str(string(e.Data))
		flags := uint64(e.Sync)
		for i, f := range []bool{e.Dir, e.Durable, e.KeepSize} {
			if f {
				flags |= 1 << (8 + i)
			}
		}
		num(flags)
		num(e.Ack)
	}
	keys := make([]string, 0, len(log.Initial))
	for k := range log.Initial {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	for _, k := range keys {
		str(k)
		str(string(log.Initial[k]))
	}
	return hex.EncodeToString(h.Sum(nil)[:4])
}
