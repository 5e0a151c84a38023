package crash

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Building one state. A state is named by its cut (events[:cut] happened
// before the power failed) and its variant, which chooses what of the
// not-yet-durable changes reached the disk:
//
//	variant 0  keep every change (the page cache was written back just in time)
//	variant 1  lose every change that was not durable
//	variant 2+ a random choice, drawn from a generator seeded with (seed, cut,
//	           variant): per 512-byte sector piece of each write keep, drop or
//	           tear it (TornMode); keep or drop each truncate and fallocate;
//	           keep a prefix of the pending name operations; under macos,
//	           first choose the epoch k in which the drive stopped: the epochs
//	           before it whole, a random subset of it, nothing after. A change
//	           not yet handed over by a sync may have been written back by
//	           the page cache in any epoch from the one it was made in, so it
//	           is a random choice if that epoch is k or earlier and dropped if
//	           later.
//
// The chosen changes are applied in log order on top of the initial state.
// Applying a subset in order covers every order in which the cache could
// have written them back: a sector holds whichever of its writes reached the
// disk last, and the page cache only ever holds a sector's latest bytes.

// TornMode is what a torn sector piece holds: an assumption about the
// device, the same for every persistence model.
type TornMode uint8

// The torn modes.
const (
	// TornGarbage: a torn piece holds random bytes, as a sector whose write
	// was cut off may read back (or fail its checksum) on a disk that does
	// not write sectors atomically.
	TornGarbage TornMode = iota
	// TornMix: each byte of a torn piece is its old or its new value. This
	// is the weaker assumption many formats state (package wal does): a
	// rewrite of bytes with their own value cannot damage them.
	TornMix
)

var tornNames = []string{TornGarbage: "garbage", TornMix: "mix"}

// String returns the mode's name.
func (m TornMode) String() string {
	if int(m) < len(tornNames) {
		return tornNames[m]
	}
	return fmt.Sprintf("torn(%d)", uint8(m))
}

// ParseTornMode returns the mode named s: garbage or mix.
func ParseTornMode(s string) (TornMode, error) {
	for i, n := range tornNames {
		if n == strings.ToLower(strings.TrimSpace(s)) {
			return TornMode(i), nil
		}
	}
	return 0, fmt.Errorf("crash: torn mode %q: use garbage or mix", s)
}

// Choice is what reached the disk of one change, or one sector piece of a
// write.
type Choice uint8

// The choices.
const (
	Keep Choice = iota // reached the disk
	Drop               // did not
	Tear               // a sector piece that reached the disk as garbage
)

// Deviation is a change a state did not keep whole: which event, which
// bytes of a write (Lo, Hi are offsets in the file; both 0 for a change
// that is not a write), and whether it was dropped or torn.
type Deviation struct {
	Event  int
	Op     Op
	Path   string
	Lo, Hi int64
	Choice Choice
}

// String prints the deviation, e.g. "dropped #12 write log/1.wal [512,1024)".
func (d Deviation) String() string {
	verb := "dropped"
	if d.Choice == Tear {
		verb = "tore"
	}
	s := fmt.Sprintf("%s #%d %s %s", verb, d.Event, d.Op, d.Path)
	if d.Op == OpWrite {
		s += fmt.Sprintf(" [%d,%d)", d.Lo, d.Hi)
	}
	return s
}

// State is one built disk state: where it was cut, which variant, what it
// did not keep, and the files it holds.
type State struct {
	ID         StateID
	Acked      uint64      // the highest commit acknowledged before the cut; 0 if none
	Deviations []Deviation // changes not kept whole, sector pieces of one write merged when alike and adjacent
	Files      []File      // the state's tree, parents before children
}

// File is one entry of a built state: a directory, or a regular file and
// its contents.
type File struct {
	Path string
	Dir  bool
	Data []byte
}

// mnode is an inode while a state is built.
type mnode struct {
	dir     bool
	data    []byte
	owned   bool // data is this state's own copy, safe to change
	entries map[string]int
}

// build makes the state cut at cut with variant, under the fates f of m.
func build(r *resolved, m Model, f *fates, id StateID) (*State, error) {
	if id.Cut < 0 || id.Cut > len(r.steps) {
		return nil, fmt.Errorf("crash: cut %d is outside the log's %d events", id.Cut, len(r.steps))
	}
	st := &State{ID: id}
	nodes := make([]mnode, len(r.initial))
	for i, in := range r.initial {
		nodes[i] = mnode{dir: in.dir, data: in.data}
		if in.dir {
			nodes[i].entries = map[string]int{}
		}
	}
	for _, l := range r.links {
		nodes[l.parent].entries[l.name] = l.ino
	}
	ch := newChooser(r, m, f, id)
	for i, s := range r.steps[:id.Cut] {
		e := s.ev
		if e.Op == OpAck {
			st.Acked = max(st.Acked, e.Ack)
			continue
		}
		if !isChange(e.Op) {
			continue
		}
		if e.Op == OpWrite {
			applyWrite(st, &nodes[s.ino], &s, i, ch, r.label(i))
			continue
		}
		if ch.choose(i, false) == Drop {
			st.Deviations = append(st.Deviations, Deviation{Event: i, Op: e.Op, Path: r.label(i), Choice: Drop})
			continue
		}
		n := &nodes[s.ino]
		switch e.Op {
		case OpCreate, OpMkdir:
			nodes[s.parent].entries[s.name] = s.ino
		case OpRename:
			if nodes[s.parent].entries[s.name] == s.ino {
				delete(nodes[s.parent].entries, s.name)
			}
			nodes[s.parent2].entries[s.name2] = s.ino
		case OpUnlink:
			if got, ok := nodes[s.parent].entries[s.name]; ok && got == s.ino {
				delete(nodes[s.parent].entries, s.name)
			}
		case OpTruncate:
			n.resize(e.Size)
		case OpFallocate:
			if !e.KeepSize && e.Off+e.Size > int64(len(n.data)) {
				n.resize(e.Off + e.Size)
			}
		}
	}
	files, err := walk(nodes)
	if err != nil {
		return nil, err
	}
	st.Files = files
	return st, nil
}

// applyWrite applies the pieces of the write at event i that the chooser
// keeps or tears, and notes the others.
func applyWrite(st *State, n *mnode, s *step, i int, ch *chooser, label string) {
	e := s.ev
	for _, p := range s.pieces {
		c := ch.choose(i, true)
		if c != Keep {
			dev := Deviation{Event: i, Op: OpWrite, Path: label, Lo: p.off, Hi: p.off + int64(p.hi-p.lo), Choice: c}
			if k := len(st.Deviations) - 1; k >= 0 && st.Deviations[k].Event == i && st.Deviations[k].Choice == c && st.Deviations[k].Hi == dev.Lo {
				st.Deviations[k].Hi = dev.Hi
			} else {
				st.Deviations = append(st.Deviations, dev)
			}
		}
		if c == Drop {
			continue
		}
		end := p.off + int64(p.hi-p.lo)
		if end > int64(len(n.data)) {
			n.resize(end)
		}
		n.own()
		dst := n.data[p.off:end]
		switch {
		case c == Keep:
			copy(dst, e.Data[p.lo:p.hi])
		case ch.torn == TornMix:
			ch.mix(dst, e.Data[p.lo:p.hi])
		default:
			ch.garbage(dst)
		}
	}
}

// own makes n's data its own copy before it is changed.
func (n *mnode) own() {
	if !n.owned {
		n.data = slices.Clone(n.data)
		n.owned = true
	}
}

// resize sets n's size, adding zeros when it grows.
func (n *mnode) resize(size int64) {
	switch {
	case size < int64(len(n.data)):
		n.own()
		n.data = n.data[:size]
	case size > int64(len(n.data)):
		grown := make([]byte, size, max(size, int64(cap(n.data))))
		copy(grown, n.data)
		n.data, n.owned = grown, true
	}
}

// walk lists the tree reachable from the root, parents first, names sorted.
func walk(nodes []mnode) ([]File, error) {
	var files []File
	seen := map[int]bool{rootIno: true}
	var visit func(ino int, dir string) error
	visit = func(ino int, dir string) error {
		names := make([]string, 0, len(nodes[ino].entries))
		for name := range nodes[ino].entries {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			child := nodes[ino].entries[name]
			p := path.Join(dir, name)
			if nodes[child].dir {
				if seen[child] {
					return fmt.Errorf("crash: state has directory %s twice (a rename cycle)", p)
				}
				seen[child] = true
				files = append(files, File{Path: p, Dir: true})
				if err := visit(child, p); err != nil {
					return err
				}
				continue
			}
			files = append(files, File{Path: p, Data: nodes[child].data})
		}
		return nil
	}
	return files, visit(rootIno, "")
}

// label names the file event i touches, for printing.
func (r *resolved) label(i int) string {
	s := r.steps[i]
	if s.ev.Path != "" {
		return s.ev.Path
	}
	return r.names[s.ino]
}

// chooser decides, change by change, what one state keeps.
type chooser struct {
	r       *resolved
	f       *fates
	torn    TornMode
	cut     int
	variant int
	rng     *rand.Rand
	pKeep   float64 // random variants: chance a pending piece is kept
	pTear   float64 // random variants: chance a piece not kept is torn
	// names: how many more pending name operations are kept (the prefix),
	// per key (see nameKey).
	names map[int]int
	k     int // macos: the epoch in which the drive stopped
}

func newChooser(r *resolved, m Model, f *fates, id StateID) *chooser {
	c := &chooser{r: r, f: f, torn: id.Torn, cut: id.Cut, variant: id.Variant}
	if id.Variant < 2 {
		return c
	}
	c.rng = rand.New(rand.NewPCG(id.Seed, uint64(id.Cut)<<32|uint64(id.Variant)))
	c.pKeep = c.rng.Float64()
	c.pTear = c.rng.Float64() / 2
	// Draw k among the epochs pending changes can be in, then count the
	// pending name operations that may reach the disk, to draw the prefixes.
	lo, hi := never, -1
	for i, s := range r.steps[:id.Cut] {
		if isChange(s.ev.Op) && f.durableAt[i] >= id.Cut {
			e, _ := c.epochOf(i)
			lo, hi = min(lo, e), max(hi, e)
		}
	}
	if hi >= 0 {
		c.k = lo + c.rng.IntN(hi-lo+1)
	}
	counts := map[int]int{}
	for i, s := range r.steps[:id.Cut] {
		if !isName(s.ev.Op) || f.durableAt[i] < id.Cut {
			continue
		}
		if key, ok := c.nameKey(i); ok {
			counts[key]++
		}
	}
	c.names = map[int]int{}
	for _, key := range slices.Sorted(maps.Keys(counts)) {
		c.names[key] = c.rng.IntN(counts[key] + 1)
	}
	return c
}

// epochOf returns the epoch of event i in this state: the one it was
// handed over in (handed true), or, if it was not handed over, the
// earliest epoch it can reach the drive in, the one it was made in (it
// cannot persist ahead of a barrier issued before it). Outside macos every
// change is in epoch 0 and none is handed over.
func (c *chooser) epochOf(i int) (e int, handed bool) {
	if c.f.handoffAt[i] < c.cut {
		return c.f.epoch[i], true
	}
	return c.f.boundaries[i], false
}

// nameKey says which prefix a pending name operation belongs to: those
// handed over in epoch k share one (key k), those not handed over that may
// still reach the drive by epoch k another (key -1). ok is false for a
// name operation that cannot be part of a prefix in this state.
func (c *chooser) nameKey(i int) (key int, ok bool) {
	e, handed := c.epochOf(i)
	switch {
	case handed && e == c.k:
		return e, true
	case !handed && e <= c.k:
		return -1, true
	}
	return 0, false
}

// choose decides event i (a sector piece of it, for a write).
func (c *chooser) choose(i int, piece bool) Choice {
	if c.f.durableAt[i] < c.cut || c.variant == 0 {
		return Keep
	}
	if c.variant == 1 {
		return Drop
	}
	e, handed := c.epochOf(i)
	switch {
	case handed && e < c.k:
		return Keep // an earlier epoch: whole
	case e > c.k:
		return Drop // after the epoch the drive stopped in
	}
	if !piece && isName(c.opOf(i)) {
		key, _ := c.nameKey(i)
		if c.names[key] > 0 {
			c.names[key]--
			return Keep
		}
		c.names[key] = -1 // the prefix has ended: later ones are dropped too
		return Drop
	}
	if c.rng.Float64() < c.pKeep {
		return Keep
	}
	if piece && c.rng.Float64() < c.pTear {
		return Tear
	}
	return Drop
}

// opOf returns the operation of event i.
func (c *chooser) opOf(i int) Op { return c.r.steps[i].ev.Op }

// mix leaves each byte of dst at its old value or sets it to b's, at random.
func (c *chooser) mix(dst, b []byte) {
	for i := range dst {
		if c.rng.Uint32()&1 == 0 {
			dst[i] = b[i]
		}
	}
}

// garbage fills b with bytes from the variant's generator.
func (c *chooser) garbage(b []byte) {
	for i := range b {
		b[i] = byte(c.rng.Uint32())
	}
}

// Write creates the state's tree in dir, which must not exist (its parent
// must).
func (st *State) Write(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("crash: state directory: %w", err)
	}
	for _, f := range st.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		var err error
		if f.Dir {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, f.Data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("crash: write state %s: %w", st.ID, err)
		}
	}
	return nil
}

// fingerprint returns a hash of the state's tree and acknowledged count:
// two states with the same fingerprint hold the same files and get the
// same verdict.
func (st *State) fingerprint() [32]byte {
	h := sha256.New()
	h.Write([]byte(strconv.FormatUint(st.Acked, 10) + "\x00"))
	for _, f := range st.Files {
		h.Write([]byte(f.Path))
		if f.Dir {
			h.Write([]byte{0, 'd'})
			continue
		}
		h.Write([]byte{0, 'f'})
		h.Write([]byte(strconv.Itoa(len(f.Data))))
		h.Write([]byte{0})
		h.Write(f.Data)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// StateID names one state of one recorded log under one model, so that it
// can be rebuilt exactly: the model, the explorer's seed, the cut, the
// variant, and a hash of the log (a different recording is refused).
// Config is the command's own description of what was recorded ("" for
// none); it is printed before the rest and not interpreted here.
type StateID struct {
	Config  string
	Model   string
	Seed    uint64
	Cut     int
	Variant int
	Log     string
	Torn    TornMode
}

// String prints the identifier as CONFIG@MODEL:SEED:CUT:VARIANT:LOG[:mix],
// the "CONFIG@" part only when Config is set and ":mix" only for TornMix,
// e.g. "wal/append/buffered/fdatasync@linux-ext4:1:17:5:3fa2b1c0".
func (id StateID) String() string {
	s := fmt.Sprintf("%s:%d:%d:%d:%s", id.Model, id.Seed, id.Cut, id.Variant, id.Log)
	if id.Torn != TornGarbage {
		s += ":" + id.Torn.String()
	}
	if id.Config != "" {
		s = id.Config + "@" + s
	}
	return s
}

// ErrStateID is wrapped by ParseStateID for an identifier it cannot read.
var ErrStateID = errors.New("crash: bad state identifier")

// ParseStateID reads an identifier that StateID.String printed.
func ParseStateID(s string) (StateID, error) {
	var id StateID
	rest := strings.TrimSpace(s)
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		id.Config, rest = rest[:at], rest[at+1:]
	}
	parts := strings.Split(rest, ":")
	if len(parts) == 6 && parts[5] == TornMix.String() {
		id.Torn, parts = TornMix, parts[:5]
	}
	if len(parts) != 5 {
		return id, fmt.Errorf("%w %q: want [CONFIG@]MODEL:SEED:CUT:VARIANT:LOG[:mix], as the results print it", ErrStateID, s)
	}
	id.Model, id.Log = parts[0], parts[4]
	var err1, err2, err3 error
	id.Seed, err1 = strconv.ParseUint(parts[1], 10, 64)
	id.Cut, err2 = strconv.Atoi(parts[2])
	id.Variant, err3 = strconv.Atoi(parts[3])
	if err := errors.Join(err1, err2, err3); err != nil || id.Cut < 0 || id.Variant < 0 {
		return id, fmt.Errorf("%w %q: seed, cut and variant must be whole numbers", ErrStateID, s)
	}
	if _, err := ParseModel(id.Model); err != nil {
		return id, fmt.Errorf("%w %q: %w", ErrStateID, s, err)
	}
	return id, nil
}
