package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/crash/walcrash"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
	"github.com/durabench/durabench/wal"
	"github.com/durabench/durabench/walbench"
	"github.com/spf13/pflag"
)

// durabench crash: simulated power cuts. Each subcommand records a
// workload (crash/record), builds the disk states a cut could leave under
// each persistence model, and checks them (package crash).

// crashCommands are the subcommands of durabench crash.
var crashCommands = []command{
	{"wal", "the log writer: does Replay return every acknowledged record after any cut?", runCrashWAL},
	{"sqlite", "SQLite per engine and pragmas: are acknowledged commits kept, is the database readable?", runCrashSQLite},
	{"run", "any program: record it, cut it, and judge each state with your own check command", runCrashRun},
	{"show", "rebuild one state of durabench crash wal from its identifier, into a directory", runCrashShow},
	{"models", "print the persistence models and what each sync call makes durable under them", runCrashModels},
}

func runCrash(args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printCrashOverview(os.Stdout)
		if len(args) == 0 {
			return usageErrorf("name a crash subcommand: %s", strings.Join(crashNames(), ", "))
		}
		return pflag.ErrHelp
	}
	for _, c := range crashCommands {
		if c.name == args[0] {
			err := c.run(args[1:])
			if isUsageError(err) {
				return usageErrorf("%s: %v (see 'durabench crash %s --help')", c.name, err, c.name)
			}
			return err
		}
	}
	return usageErrorf("unknown crash subcommand %q: use one of %s", args[0], strings.Join(crashNames(), ", "))
}

func crashNames() []string {
	var names []string
	for _, c := range crashCommands {
		names = append(names, c.name)
	}
	return names
}

func printCrashOverview(w io.Writer) {
	fmt.Fprintln(w, `Usage: durabench crash SUBCOMMAND [flags]

Simulated power cuts: what does a sync really buy? durabench records what a
workload does to its files (writes with their bytes, syncs, creates, renames,
unlinks, truncations, and the moments it acknowledges a commit), builds the
disk states a power cut could leave under a persistence model (linux-ext4,
posix-strict, macos), and checks every state: are all acknowledged commits
there, and is the data readable?

Subcommands:`)
	for _, c := range crashCommands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, `
Examples:
  durabench crash wal --dir /tmp --layouts append --methods fdatasync --states 1000
  durabench crash run --dir /tmp --check ./check.sh -- ./myapp --data {root}
  durabench crash models

Run 'durabench crash SUBCOMMAND --help' for its flags and examples; docs/commands/crash.md explains the models and the verdicts.`)
}

// exploreFlags are the flags every exploring subcommand shares.
type exploreFlags struct {
	models []crash.Model
	states int
	seed   uint64
	torn   string
}

func addExploreFlags(fs *pflag.FlagSet, f *exploreFlags) {
	listVar(fs, &f.models, "models", strings.Join(crash.ModelNames(), ","), "persistence models: "+strings.Join(crash.ModelNames(), ", "), crash.ParseModels)
	fs.IntVar(&f.states, "states", 1000, "states to check per configuration and model (at least; every cut gets keep-all and lose-all)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the random cuts and variants: the same seed gives the same table")
	fs.StringVar(&f.torn, "torn", "garbage", "what a torn sector holds: garbage (random bytes) or mix (each byte old or new)")
}

// parse validates the shared flags.
func (f exploreFlags) parse() ([]crash.Model, crash.TornMode, error) {
	models := slices.Clone(f.models)
	torn, err := crash.ParseTornMode(f.torn)
	if err != nil {
		return nil, 0, usageErrorf("--torn: %v", err)
	}
	if f.states < 1 || f.states > 10_000_000 {
		return nil, 0, usageErrorf("--states %d: use a number from 1 to 10000000", f.states)
	}
	return models, torn, nil
}

// explore is the end of every subcommand that explores workloads (crash
// wal, crash sqlite): once recording and the outputs are known to work, it
// records and checks ws in a new run under the shared flags and writes the
// table.
func (f exploreFlags) explore(o *outputFlags, experiment string, torn crash.TornMode, ws []crash.Workload) error {
	if err := checkRecording(); err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	return measure(o, experiment, func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		b := crash.Batch{Dir: run.Dir, Seed: f.seed, States: f.states, Torn: torn, Record: recordLog, Progress: progress}
		res, err := b.Explore(ws)
		return crashOutput(res, err, env)
	})
}

// crashOutput is what a crash measurement returns from an exploration's
// results: their records and their table, or the exploration's error.
func crashOutput(res []crash.Result, err error, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	if err != nil {
		return nil, nil, err
	}
	return crash.Records(res, env.ID), func(w io.Writer) error { return crash.Report(w, res) }, nil
}

const crashWALSynopsis = `crash wal --dir DIR [flags]

Records the log writer (package wal) appending --records records, each
acknowledged once Append returns, for every layout, I/O mode and sync
method; then builds the states a power cut could leave under each model and
replays each: every acknowledged record must come back with its bytes, no
record may come back with other bytes, and Replay may refuse the log
(ErrCorrupt) only where its format says it must.

Methods: fsync and fdatasync are judged under every model; under macos they
are the plain darwin calls, which only hand data to the drive (the writer's
fsync is fsync(2) on darwin, not F_FULLFSYNC). full and barrier are darwin's
F_FULLFSYNC and F_BARRIERFSYNC, judged under macos only: the Linux
recording makes an fdatasync where the writer would make them, and the
mapping is printed with the table.

The recording uses ptrace (Linux). Each state's identifier rebuilds it:
durabench crash show --into DIR ID.`

const crashWALExamples = `  # Every layout, buffered and direct, fsync and fdatasync, three models
  durabench crash wal --dir /tmp

  # Darwin's methods too, judged under the macos model
  durabench crash wal --dir /tmp --methods fdatasync,full,barrier --models linux-ext4,macos

  # Torn sectors as a mix of old and new bytes (the writer's stated assumption)
  durabench crash wal --dir /tmp --torn mix --io-modes direct

  # Keep the table as JSON Lines and CSV
  durabench crash wal --dir /tmp --states 2000 --seed 7 --out results/crash-wal`

func runCrashWAL(args []string) error {
	fs := newFlags("crash wal", crashWALSynopsis, crashWALExamples)
	var o outputFlags
	var x exploreFlags
	addOutputFlags(fs, &o)
	addExploreFlags(fs, &x)
	var layouts []fixtures.State
	var ioModes []wal.IOMode
	var methods []string
	listVar(fs, &layouts, "layouts", "append,fallocate,initialized", "segment layouts: append, fallocate, initialized", walbench.ParseLayouts)
	listVar(fs, &ioModes, "io-modes", "buffered,direct", "buffered, direct", walbench.ParseIOModes)
	listVar(fs, &methods, "methods", "fsync,fdatasync", "the writer's sync methods: fsync, fdatasync, full, barrier (full and barrier: macos only)", walcrash.ParseMethods)
	records := fs.Int("records", walcrash.DefaultRecords, "records the workload appends and acknowledges")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	models, torn, err := x.parse()
	if err != nil {
		return err
	}
	if *records < 1 || *records > 10_000 {
		return usageErrorf("--records %d: use 1 to 10000", *records)
	}
	cases, err := walcrash.Plan(layouts, ioModes, methods, models, *records)
	if err != nil {
		return usageErrorf("--methods: %v", err)
	}
	return x.explore(&o, "crash-wal", torn, walcrash.Workloads(cases, walCrashCommand))
}

// quickCrash is the suite's crash section: the log writer, buffered, in
// append segments, with fdatasync (and full, under macos), 300 states per
// model. Where nothing can record (not Linux), it says so and adds nothing.
func quickCrash(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	if err := checkRecording(); err != nil {
		return nil, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "skipped: %v\n", err)
			return err
		}, nil
	}
	models := []crash.Model{crash.LinuxExt4(), crash.PosixStrict(), crash.MacOS(crash.Mapping{})}
	cases, err := walcrash.Plan([]fixtures.State{fixtures.Append}, []wal.IOMode{wal.Buffered}, []string{"fdatasync", "full"}, models, walcrash.DefaultRecords)
	if err != nil {
		return nil, nil, err
	}
	b := crash.Batch{Dir: run.Dir, Seed: 1, States: 300, Record: recordLog}
	res, err := b.Explore(walcrash.Workloads(cases, walCrashCommand))
	return crashOutput(res, err, env)
}

// walCrashCommand is the child durabench that runs the log writer's crash
// workload in root (the hidden __crash-wal role).
func walCrashCommand(root string, cfg walcrash.Config) *exec.Cmd {
	return crashChild("__crash-wal", root, cfg)
}

// selfPath is this executable, to run as a child.
func selfPath() string {
	if p, err := os.Executable(); err == nil {
		return p
	}
	return os.Args[0]
}

func init() { registerRole("__crash-wal", roleRun("__crash-wal", runCrashWALChild)) }

// runCrashWALChild is the hidden role that runs the log writer's crash
// workload under the recorder, marking each acknowledged record.
func runCrashWALChild(args []string) error {
	var cfg walcrash.Config
	root, err := parseCrashChild("__crash-wal", "durabench crash wal", args, &cfg)
	if err != nil {
		return err
	}
	return walcrash.Workload(root, cfg, markAck)
}

const crashShowSynopsis = `crash show --into DIR ID

Rebuilds one state that durabench crash wal or crash sqlite reported, from
its identifier (CONFIG@MODEL:SEED:CUT:VARIANT:LOG[:mix]): records the same
workload again,
checks that the recording is the one the identifier was found in (LOG is its
hash), builds the state into DIR (which must not exist), and prints what
the state kept, dropped and tore, and the checker's verdict on it. States of
durabench crash run are rebuilt with crash run --state ID --into DIR.`

const crashShowExamples = `  durabench crash show --into /tmp/state1 'wal/append/buffered/fdatasync/skip-sync@linux-ext4:1:17:5:3fa2b1c0'
  ls -l /tmp/state1/log`

func runCrashShow(args []string) error {
	fs := newFlags("crash show", crashShowSynopsis, crashShowExamples)
	into := fs.String("into", "", "new directory to build the state in (required; its parent must exist)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErrorf("give one state identifier, as the results print it")
	}
	id, err := crash.ParseStateID(fs.Arg(0))
	if err != nil {
		return asUsage(err)
	}
	w, err := showWorkload(id.Config)
	if err != nil {
		return usageErrorf("%v (durabench crash show rebuilds crash wal and crash sqlite states; for crash run use --state)", err)
	}
	if err := checkInto(*into); err != nil {
		return err
	}
	if err := checkRecording(); err != nil {
		return err
	}
	run, err := fixtures.NewRun(filepath.Dir(*into), "crash-show", false)
	if err != nil {
		return err
	}
	defer run.Close()
	b := crash.Batch{Dir: run.Dir, Record: recordLog}
	log, err := b.RecordOne(w, 0)
	if err != nil {
		return err
	}
	st, err := crash.Rebuild(log, id)
	if err != nil {
		return err
	}
	if err := st.Write(*into); err != nil {
		return err
	}
	printState(os.Stdout, st, *into)
	v := w.Checker.Check(*into, st.Acked)
	fmt.Printf("verdict: lost %d acknowledged, corrupt %v: %s\n", v.LostAcked, v.Corrupt, v.Detail)
	return v.Err
}

// checkInto refuses an --into that is missing, exists, or has no parent.
func checkInto(into string) error {
	if into == "" {
		return usageErrorf("--into: name a new directory to build the state in")
	}
	if _, err := os.Lstat(into); err == nil {
		return usageErrorf("--into %s exists already: name a new directory", into)
	}
	if err := fixtures.CheckParent(filepath.Dir(into)); err != nil {
		return usageErrorf("--into %s: %v", into, err)
	}
	return nil
}

// printState says what a rebuilt state holds.
func printState(w io.Writer, st *crash.State, dir string) {
	fmt.Fprintf(w, "state %s built in %s\n", st.ID, dir)
	fmt.Fprintf(w, "acknowledged before the cut: %d\n", st.Acked)
	if len(st.Deviations) == 0 {
		fmt.Fprintln(w, "kept every change before the cut that this variant could keep")
	}
	for _, d := range st.Deviations {
		fmt.Fprintf(w, "  %s\n", d)
	}
	for _, f := range st.Files {
		if f.Dir {
			fmt.Fprintf(w, "  %s/\n", f.Path)
		} else {
			fmt.Fprintf(w, "  %s (%d bytes)\n", f.Path, len(f.Data))
		}
	}
}

func runCrashModels(args []string) error {
	fs := newFlags("crash models", "crash models\n\nPrints each persistence model: what it assumes, and what each sync call makes durable under it.", "  durabench crash models")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, name := range crash.ModelNames() {
		m, _ := crash.ParseModel(name) // the names come from the package
		fmt.Printf("%s: %s\n", m.Name, m.About)
		for _, line := range m.Describe() {
			fmt.Printf("  %s\n", line)
		}
		fmt.Println()
	}
	fmt.Println("A Linux recording is judged under macos by mapping each recorded sync to a darwin call, e.g.")
	fmt.Printf("  %s\n  %s\n", walcrash.Mapping("full"), crash.Mapping{Fsync: crash.SyncBarrier, Fdatasync: crash.SyncBarrier, Why: "SQLite fullfsync=1, Apple's system build"})
	return nil
}

// errNoAcks is returned when a recorded program marked no acknowledgement.
var errNoAcks = errors.New("the program marked no acknowledgement, so no state can lose one: mark each commit by writing \"durabench-trace: ack N\\n\" to file descriptor -1 after it returns (trace.MarkAck in Go)")
