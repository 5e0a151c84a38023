package crash

import "math"

// never is the durableAt or handoffAt of an event that never becomes
// durable or handed over within the log.
const never = math.MaxInt

// fates is what a model makes of each event of a resolved log.
//
// Invariants:
//   - An event i is durable in the state cut at c (events[:c] happened) iff
//     durableAt[i] < c: durableAt is the index of the call whose return made
//     it durable (its own index for a write through O_DSYNC/O_SYNC).
//   - macos: handoffAt[i] is the index of the sync that handed event i to
//     the drive (handed over in the state cut at c iff handoffAt[i] < c),
//     and epoch[i] the number of barriers and flushes before that sync.
//     boundaries[c] is the number of barriers and flushes among events[:c].
//   - Only changes (name and data operations) have fates; syncs and acks
//     keep never.
type fates struct {
	durableAt  []int
	handoffAt  []int
	epoch      []int
	boundaries []int
}

// isChange reports whether an operation changes the files (name or data),
// as opposed to a sync or an acknowledgement.
func isChange(op Op) bool { return op != OpSync && op != OpAck }

// isName reports whether an operation is a name operation.
func isName(op Op) bool {
	return op == OpCreate || op == OpMkdir || op == OpRename || op == OpUnlink
}

// analyse computes the fates of r's events under m in one pass.
func analyse(r *resolved, m Model) *fates {
	n := len(r.steps)
	f := &fates{durableAt: make([]int, n), handoffAt: make([]int, n), epoch: make([]int, n), boundaries: make([]int, n+1)}
	for i := range n {
		f.durableAt[i], f.handoffAt[i] = never, never
	}
	var (
		pendingData  = map[int][]int{} // inode → its changes not yet durable (handed over, for macos)
		pendingNames []int             // name operations not yet committed (handed over)
		byDir        = map[int][]int{} // posix-strict: directory → its pending name operations
		need         = map[int]int{}   // posix-strict: directories a pending name operation still waits for
		metaDirty    = map[int]bool{}  // inode whose size or allocation changed since its last sync
		handed       []int             // macos: handed over, not yet flushed
		epochs       int
	)
	// settle marks event k as made durable (or handed over) by the call at j.
	settle := func(k, j int) {
		if m.Epochs {
			if f.handoffAt[k] == never {
				f.handoffAt[k], f.epoch[k] = j, epochs
				handed = append(handed, k)
			}
			return
		}
		f.durableAt[k] = min(f.durableAt[k], j)
	}
	commitNames := func(j int) {
		for _, k := range pendingNames {
			settle(k, j)
		}
		pendingNames = pendingNames[:0]
		clear(metaDirty)
	}
	apply := func(rule Rule, ino, j int) {
		if rule.All {
			for in, ks := range pendingData {
				for _, k := range ks {
					settle(k, j)
				}
				delete(pendingData, in)
			}
		}
		if rule.File {
			for _, k := range pendingData[ino] {
				settle(k, j)
			}
			delete(pendingData, ino)
		}
		switch rule.Names {
		case NamesAll, NamesHandOff:
			commitNames(j)
		case NamesIfMeta:
			if metaDirty[ino] {
				commitNames(j)
			}
		case NamesOfDir:
			for _, k := range byDir[ino] {
				if need[k]--; need[k] == 0 {
					settle(k, j)
				}
			}
			delete(byDir, ino)
		}
		if rule.File {
			delete(metaDirty, ino)
		}
		if rule.Flush {
			for _, k := range handed {
				f.durableAt[k] = min(f.durableAt[k], j)
			}
			handed = handed[:0]
		}
		if rule.Barrier || rule.Flush {
			epochs++
		}
	}
	for i := range r.steps {
		f.boundaries[i] = epochs
		s := &r.steps[i]
		e := s.ev
		switch {
		case isName(e.Op):
			pendingNames = append(pendingNames, i)
			byDir[s.parent] = append(byDir[s.parent], i)
			need[i] = 1
			if e.Op == OpRename && s.parent2 != s.parent {
				byDir[s.parent2] = append(byDir[s.parent2], i)
				need[i] = 2
			}
			if e.Op == OpCreate || e.Op == OpMkdir {
				metaDirty[s.ino] = true
			}
		case isChange(e.Op):
			pendingData[s.ino] = append(pendingData[s.ino], i)
			if s.sizeChange {
				metaDirty[s.ino] = true
			}
			if e.Op == OpWrite && e.Durable {
				apply(m.DsyncWrite, s.ino, i)
			}
		case e.Op == OpSync:
			apply(m.rule(e.Sync, e.Dir), s.ino, i)
		}
	}
	f.boundaries[n] = epochs
	return f
}
