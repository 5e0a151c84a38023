package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/results"
)

const crashRunSynopsis = `crash run --dir DIR --check CHECKCMD [flags] -- CMD [ARGS...]

Records CMD (ptrace, Linux) while it works in a new directory, the root,
and then judges every state a power cut could leave there with CHECKCMD.

CMD runs with the root as its working directory; "{root}" in its arguments
is replaced by the root's path, which is also in DURABENCH_CRASH_ROOT. Only
files under the root are recorded. CMD marks each commit it acknowledges by
writing the text "durabench-trace: ack N\n" (N = 1, 2, ...) to file
descriptor -1 right after the commit returns; the write fails with EBADF,
so an untraced run pays one cheap call. In Go: trace.MarkAck(n); in C:
write(-1, text, strlen(text)); in Python: os.write(-1, text) inside a
try block that ignores the OSError.

CHECKCMD (split on spaces, no shell) runs once per state, in the state's
directory, with "{dir}" and "{acked}" in its arguments replaced by the
state's directory and the number of the last commit acknowledged before
the cut (or both appended as its last two arguments), and in
DURABENCH_CRASH_DIR and DURABENCH_CRASH_ACKED. It answers by exit status:
0 the state is good; 1 it is bad, with a line "lost N" (N acknowledged
commits missing) and/or "corrupt WHY" on standard output (neither: corrupt,
for the first line of its output or the last of its errors); any other
status stops the run (the check itself failed).

Under macos, each recorded fsync and fdatasync stands for a darwin call:
--macos-map fsync=full says the program would call F_FULLFSYNC where Linux
saw fsync (the default maps nothing: plain fsync, which persists nothing).`

const crashRunExamples = `  # The classic bug: write a temporary file, rename it over the real one,
  # without fsync; the check reads the file and says what is missing
  durabench crash run --dir /tmp --check './check {dir} {acked}' -- ./save-settings

  # Judge only under linux-ext4, 5000 states, a fixed seed
  durabench crash run --dir /tmp --models linux-ext4 --states 5000 --seed 3 \
      --check 'python3 /path/check.py' -- python3 /path/app.py

  # As if the program used F_FULLFSYNC on macOS where it fsyncs on Linux
  durabench crash run --dir /tmp --models macos --macos-map fsync=full --check ./check -- ./app

  # Rebuild one reported state to look at it
  durabench crash run --dir /tmp --state 'linux-ext4:1:17:5:3fa2b1c0' --into /tmp/s1 -- ./app`

func runCrashRun(args []string) error {
	fs := newFlags("crash run", crashRunSynopsis, crashRunExamples)
	var o outputFlags
	var x exploreFlags
	addOutputFlags(fs, &o)
	addExploreFlags(fs, &x)
	check := fs.String("check", "", "the check command, run once per state (see above)")
	macosMap := fs.String("macos-map", "", "darwin call each recorded sync stands for under macos: fsync=KIND,fdatasync=KIND (KIND: fsync, fdatasync, barrier, full)")
	state := fs.String("state", "", "instead of exploring, rebuild this state (an identifier the results printed) into --into")
	into := fs.String("into", "", "with --state: new directory to build the state in")
	fs.SetInterspersed(false) // flags after CMD are CMD's
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	argv := fs.Args()
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		return usageErrorf("give the command to record after --, e.g. durabench crash run --dir /tmp --check ./check -- ./app")
	}
	models, torn, err := x.parse()
	if err != nil {
		return err
	}
	if *macosMap != "" {
		if models, err = mapMacOS(models, *macosMap); err != nil {
			return err
		}
	}
	if argv[0], err = absCommand(argv[0]); err != nil {
		return usageErrorf("the command to record: %v", err)
	}
	if *state != "" {
		return rebuildRunState(*state, *into, o.dir, argv)
	}
	if *into != "" {
		return usageErrorf("--into goes with --state")
	}
	checkArgv := strings.Fields(*check)
	if len(checkArgv) == 0 {
		return usageErrorf("--check: give the command that judges each state (see --help for its protocol)")
	}
	if checkArgv[0], err = absCommand(checkArgv[0]); err != nil {
		return usageErrorf("--check: %v", err)
	}
	if err := checkRecording(); err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	config := filepath.Base(argv[0])
	return measure(&o, "crash-run", func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
		log, err := recordProgram(run.Dir, argv)
		if err != nil {
			return nil, nil, err
		}
		res, err := crash.ExploreModels(log, models, crash.Explorer{Seed: x.seed, States: x.states, Config: config, Torn: torn,
			Scratch: run.Dir, Checker: crash.CommandChecker{Argv: checkArgv}}, progress)
		return crashOutput(res, err, env)
	})
}

// absCommand finds a command as the shell would and makes its path
// absolute: both commands run in other directories (the root, each state).
func absCommand(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

// mapMacOS replaces the macos model in models by one with the mapping
// spec gives ("fsync=full,fdatasync=full").
func mapMacOS(models []crash.Model, spec string) ([]crash.Model, error) {
	m, err := crash.ParseModel("macos[" + spec + "]")
	if err != nil {
		return nil, usageErrorf("--macos-map: %v", err)
	}
	found := false
	for i := range models {
		if models[i].Epochs {
			models[i], found = m, true
		}
	}
	if !found {
		return nil, usageErrorf("--macos-map applies to the macos model: add macos to --models")
	}
	return models, nil
}

// recordProgram records argv working in a new root under dir.
func recordProgram(dir string, argv []string) (*crash.Log, error) {
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		return nil, err
	}
	args := make([]string, len(argv))
	for i, a := range argv {
		args[i] = strings.ReplaceAll(a, "{root}", root)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "DURABENCH_CRASH_ROOT="+root)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	log, err := recordLog(cmd, root)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", argv[0], err)
	}
	for _, e := range log.Events {
		if e.Op == crash.OpAck {
			return log, nil
		}
	}
	return nil, fmt.Errorf("record %s: %w", argv[0], errNoAcks)
}

// rebuildRunState records argv again and builds the state id names into
// into.
func rebuildRunState(state, into, dir string, argv []string) error {
	id, err := crash.ParseStateID(state)
	if err != nil {
		return asUsage(err)
	}
	if err := checkInto(into); err != nil {
		return err
	}
	if err := checkDir(dir); err != nil {
		return err
	}
	if err := checkRecording(); err != nil {
		return err
	}
	run, err := fixtures.NewRun(dir, "crash-run-state", false)
	if err != nil {
		return err
	}
	defer run.Close()
	log, err := recordProgram(run.Dir, argv)
	if err != nil {
		return err
	}
	st, err := crash.Rebuild(log, id)
	if err != nil {
		return err
	}
	if err := st.Write(into); err != nil {
		return err
	}
	printState(os.Stdout, st, into)
	return nil
}
