package crash

import (
	"fmt"
	"strings"

	"github.com/durabench/durabench/runner"
)

// Persistence models: what each sync call makes durable, as data. Every
// rule the explorer applies is in the tables below; docs/design/crash.md
// explains them and the assumptions behind them.
//
// Two families:
//
//   - Linux (linux-ext4, posix-strict): an operation is either durable (a
//     covering sync returned after it) or pending (it may reach the disk or
//     not, sector by sector, in any combination). A file's sync makes its
//     data and size durable. The models differ only in name operations
//     (create, mkdir, rename, unlink): linux-ext4 commits them with any
//     later journal commit, in order; posix-strict only with an fsync of the
//     directory they changed.
//   - macOS (macos): a sync only hands data to the drive, whose cache may
//     lose it and write it in any order; F_BARRIERFSYNC orders what was
//     handed over before it ahead of what comes after (an epoch), and
//     F_FULLFSYNC flushes the drive's cache, making everything handed over
//     before it durable. A cut keeps the epochs before some epoch k whole,
//     any subset of epoch k, and nothing handed over later.

// NameRule says which name operations a sync makes durable.
type NameRule uint8

// The name rules.
const (
	NamesNone    NameRule = iota // none
	NamesAll                     // every earlier name operation: a journal commit
	NamesIfMeta                  // every earlier one if the synced file's size or allocation changed since its last sync (ext4 fdatasync)
	NamesOfDir                   // the earlier name operations in the synced directory (only meaningful for a directory's sync)
	NamesHandOff                 // macos: every earlier name operation is handed to the drive with the sync
)

// Rule is what one sync call does under a model.
type Rule struct {
	File    bool     // the synced file's data and size become durable (Linux) or are handed to the drive (macos)
	All     bool     // every file's data, not just the synced one's (syncfs)
	Names   NameRule // which name operations it commits
	Barrier bool     // macos: ends an epoch
	Flush   bool     // macos: everything handed to the drive so far becomes durable
}

// Mapping says which darwin call each recorded Linux sync call stands for,
// when a Linux recording is judged under the macos model: the recorder sees
// Linux calls, and the program would make other calls on macOS (SQLite's
// fullfsync pragma, the log writer's sync method). A zero field means the
// call stands for itself (fsync for fsync, fdatasync for fdatasync: on
// macOS both only hand data to the drive).
type Mapping struct {
	Fsync     SyncKind // what a recorded fsync(2) stands for on darwin
	Fdatasync SyncKind // what a recorded fdatasync(2) stands for on darwin
	Why       string   // why, printed with the results: "fullfsync=1, Apple's system build → F_BARRIERFSYNC"
}

// Apply returns the darwin call a recorded sync of kind k stands for.
func (m Mapping) Apply(k SyncKind) SyncKind {
	switch {
	case k == SyncFsync && m.Fsync != 0:
		return m.Fsync
	case k == SyncFdatasync && m.Fdatasync != 0:
		return m.Fdatasync
	}
	return k
}

// String prints the mapping as the results show it, e.g.
// "fsync→F_FULLFSYNC, fdatasync→F_FULLFSYNC (the log writer's method full)".
func (m Mapping) String() string {
	s := fmt.Sprintf("fsync→%s, fdatasync→%s", darwinCall(m.Apply(SyncFsync)), darwinCall(m.Apply(SyncFdatasync)))
	if m.Why != "" {
		s += " (" + m.Why + ")"
	}
	return s
}

// token is the mapping's part of a model name: "" for the identity, else
// e.g. "fsync=full,fdatasync=full".
func (m Mapping) token() string {
	var parts []string
	if m.Fsync != 0 && m.Fsync != SyncFsync {
		parts = append(parts, "fsync="+m.Fsync.String())
	}
	if m.Fdatasync != 0 && m.Fdatasync != SyncFdatasync {
		parts = append(parts, "fdatasync="+m.Fdatasync.String())
	}
	return strings.Join(parts, ",")
}

// darwinCall names the darwin call behind a sync kind.
func darwinCall(k SyncKind) string {
	switch k {
	case SyncBarrier:
		return "F_BARRIERFSYNC"
	case SyncFull:
		return "F_FULLFSYNC"
	case SyncFS:
		return "sync(2)"
	}
	return k.String()
}

// Model is a persistence model: for each recorded sync kind, the Rule it
// follows. Models are values; build them with LinuxExt4, PosixStrict and
// MacOS, or look one up by name with ParseModel.
type Model struct {
	// Name identifies the model in tables and state identifiers.
	Name string
	// About is one line on what the model assumes.
	About string
	// Epochs is true for the macos family: syncs hand data to the drive,
	// barriers order it, flushes make it durable.
	Epochs bool
	// NamesInOrder: name operations reach the disk in the order they were
	// made, so a cut keeps a prefix of the pending ones (a journal). Without
	// it, too, the explorer keeps prefixes (see explore.go), so this is
	// documentation of why that is the whole story for linux-ext4.
	NamesInOrder bool
	// Rules gives each sync kind's rule, after Map for macos.
	Rules map[SyncKind]Rule
	// DirSync is the rule for a sync of a directory (any kind that syncs).
	DirSync Rule
	// DsyncWrite is the rule for a write through O_DSYNC or O_SYNC, applied
	// to the written file as the write returns.
	DsyncWrite Rule
	// Map says which darwin call each recorded sync stands for (macos).
	Map Mapping
}

// rule returns the rule for a sync of kind k on a file (dir false) or a
// directory.
func (m Model) rule(k SyncKind, dir bool) Rule {
	k = m.Map.Apply(k)
	r := m.Rules[k]
	if dir && (r.File || r.Barrier || r.Flush) {
		d := m.DirSync
		d.Barrier, d.Flush = d.Barrier || r.Barrier, d.Flush || r.Flush
		return d
	}
	return r
}

// LinuxExt4 is ext4 with its journal (data=ordered, the default), as the
// model sees it: a file's data and size are durable once its fsync or
// fdatasync returns (or its O_DSYNC/O_SYNC write does); name operations
// become durable, in order, with the next journal commit, which every
// fsync, a directory's fsync, syncfs, and an fdatasync of a file whose size
// or allocation changed all force. ext4's auto_da_alloc (which flushes a
// file's data when it is renamed over another) is not modelled: programs
// must not rely on it.
func LinuxExt4() Model {
	return Model{
		Name:         "linux-ext4",
		About:        "data and size durable after the file's fsync/fdatasync; name operations durable, in order, with any later journal commit (any fsync)",
		NamesInOrder: true,
		Rules: map[SyncKind]Rule{
			SyncFsync:     {File: true, Names: NamesAll},
			SyncFdatasync: {File: true, Names: NamesIfMeta},
			SyncFileRange: {},
			SyncFS:        {All: true, Names: NamesAll},
			SyncBarrier:   {File: true, Names: NamesAll}, // a darwin recording judged as Linux: the calls are fsyncs there
			SyncFull:      {File: true, Names: NamesAll},
		},
		DirSync:    Rule{File: true, Names: NamesAll},
		DsyncWrite: Rule{File: true, Names: NamesIfMeta},
	}
}

// PosixStrict is what POSIX promises and no more: a file's data and size
// are durable once its fsync or fdatasync returns (or its O_DSYNC/O_SYNC
// write does), and a name operation only once the directory it changed is
// synced (both directories, for a rename between two).
func PosixStrict() Model {
	return Model{
		Name:  "posix-strict",
		About: "data and size durable after the file's fsync/fdatasync; a name operation durable only after an fsync of its directory",
		Rules: map[SyncKind]Rule{
			SyncFsync:     {File: true},
			SyncFdatasync: {File: true},
			SyncFileRange: {},
			SyncFS:        {All: true, Names: NamesAll},
			SyncBarrier:   {File: true},
			SyncFull:      {File: true},
		},
		DirSync:    Rule{File: true, Names: NamesOfDir},
		DsyncWrite: Rule{File: true},
	}
}

// MacOS is APFS on a drive with a volatile write cache, as macOS's own
// documentation describes it: fsync and fdatasync (and O_DSYNC writes) hand
// the file's data to the drive and persist nothing; F_BARRIERFSYNC hands it
// over and orders it before everything handed over later; F_FULLFSYNC hands
// it over and flushes the drive, making everything handed over before it
// durable. Name operations are handed over with the next sync of any file.
// m says which darwin call each recorded Linux sync stands for; the zero
// Mapping keeps fsync as fsync.
func MacOS(m Mapping) Model {
	name := "macos"
	if t := m.token(); t != "" {
		name += "[" + t + "]"
	}
	return Model{
		Name:   name,
		About:  "fsync/fdatasync hand data to the drive and persist nothing; F_BARRIERFSYNC orders (epochs); F_FULLFSYNC persists everything handed over before it",
		Epochs: true,
		Rules: map[SyncKind]Rule{
			SyncFsync:     {File: true, Names: NamesHandOff},
			SyncFdatasync: {File: true, Names: NamesHandOff},
			SyncFileRange: {},
			SyncFS:        {All: true, Names: NamesHandOff},
			SyncBarrier:   {File: true, Names: NamesHandOff, Barrier: true},
			SyncFull:      {File: true, Names: NamesHandOff, Flush: true},
		},
		DirSync:    Rule{File: true, Names: NamesHandOff},
		DsyncWrite: Rule{File: true, Names: NamesHandOff},
		Map:        m,
	}
}

// ModelNames lists the model names ParseModel accepts, in the order tables
// print them.
func ModelNames() []string { return []string{"linux-ext4", "posix-strict", "macos"} }

// ParseModel returns the model named s: linux-ext4, posix-strict, macos, or
// macos[fsync=KIND,fdatasync=KIND] with KIND one of fsync, fdatasync,
// barrier, full (the form Model.Name prints for a mapped macos model).
func ParseModel(s string) (Model, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	switch name {
	case "linux-ext4":
		return LinuxExt4(), nil
	case "posix-strict":
		return PosixStrict(), nil
	case "macos":
		return MacOS(Mapping{}), nil
	}
	if inner, ok := strings.CutPrefix(name, "macos["); ok && strings.HasSuffix(inner, "]") {
		var m Mapping
		for _, part := range strings.Split(strings.TrimSuffix(inner, "]"), ",") {
			from, to, _ := strings.Cut(part, "=")
			k, err := parseSyncKind(to)
			if err != nil {
				return Model{}, fmt.Errorf("crash: model %q: %w", s, err)
			}
			switch from {
			case "fsync":
				m.Fsync = k
			case "fdatasync":
				m.Fdatasync = k
			default:
				return Model{}, fmt.Errorf("crash: model %q: %q is not a recorded sync that can be mapped: use fsync=KIND or fdatasync=KIND", s, from)
			}
		}
		return MacOS(m), nil
	}
	return Model{}, fmt.Errorf("crash: unknown persistence model %q: use one of %s", s, strings.Join(ModelNames(), ", "))
}

// parseSyncKind returns the sync kind named s.
func parseSyncKind(s string) (SyncKind, error) {
	for k := SyncFsync; k <= SyncFS; k++ {
		if k.String() == s {
			return k, nil
		}
	}
	var names []string
	for k := SyncFsync; k <= SyncFS; k++ {
		names = append(names, k.String())
	}
	return 0, fmt.Errorf("unknown sync kind %q: use one of %s", s, strings.Join(names, ", "))
}

// ParseModels parses a comma-separated list of model names, each once.
// A mapped macos model cannot be listed this way (its brackets hold
// commas): commands choose the mapping per configuration.
func ParseModels(csv string) ([]Model, error) {
	names, err := runner.ParseList(csv, "persistence model", "use one or more of "+strings.Join(ModelNames(), ", "), func(s string) (string, error) {
		m, err := ParseModel(s)
		return m.Name, err
	})
	if err != nil {
		return nil, err
	}
	ms := make([]Model, len(names))
	for i, n := range names {
		ms[i], _ = ParseModel(n) // n is a name ParseModel returned
	}
	return ms, nil
}

// Describe lists the model's rules in words, one line per sync call, for
// durabench crash models.
func (m Model) Describe() []string {
	var lines []string
	for k := SyncFsync; k <= SyncFS; k++ {
		lines = append(lines, fmt.Sprintf("%-16s %s", darwinCall(k)+":", m.Rules[k].words(m.Epochs)))
	}
	lines = append(lines, fmt.Sprintf("%-16s %s", "directory sync:", m.DirSync.words(m.Epochs)))
	lines = append(lines, fmt.Sprintf("%-16s %s", "O_DSYNC write:", m.DsyncWrite.words(m.Epochs)))
	return lines
}

// words says what a rule does.
func (r Rule) words(epochs bool) string {
	var parts []string
	verb := "durable"
	if epochs {
		verb = "handed to the drive"
	}
	switch {
	case r.All:
		parts = append(parts, "every file's data "+verb)
	case r.File:
		parts = append(parts, "the file's data and size "+verb)
	}
	switch r.Names {
	case NamesAll:
		parts = append(parts, "every earlier name operation durable (journal commit)")
	case NamesIfMeta:
		parts = append(parts, "every earlier name operation durable if the file's size or allocation changed since its last sync")
	case NamesOfDir:
		parts = append(parts, "the directory's earlier name operations durable")
	case NamesHandOff:
		parts = append(parts, "earlier name operations handed to the drive")
	}
	if r.Barrier {
		parts = append(parts, "then a barrier: nothing handed over later persists before it")
	}
	if r.Flush {
		parts = append(parts, "then a drive flush: everything handed over so far durable")
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}
