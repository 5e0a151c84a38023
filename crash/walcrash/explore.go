package walcrash

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
)

// MethodNames are the writer's sync methods a crash test can judge:
// fsync and fdatasync everywhere, and darwin's full and barrier, which a
// Linux recording stands in for with fdatasync (see Mapping).
var MethodNames = []string{"fsync", "fdatasync", "full", "barrier"}

// ParseMethods parses a comma-separated list of MethodNames, each once.
func ParseMethods(csv string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(csv, ",") {
		m := strings.ToLower(strings.TrimSpace(part))
		switch {
		case m == "":
			continue
		case !slices.Contains(MethodNames, m):
			return nil, fmt.Errorf("walcrash: sync method %q: use fsync, fdatasync, full or barrier (the writer's methods that sync)", part)
		case slices.Contains(out, m):
			return nil, fmt.Errorf("walcrash: sync method %q is listed twice", m)
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("walcrash: no sync method given: use one or more of %s", strings.Join(MethodNames, ", "))
	}
	return out, nil
}

// Case is one configuration to record and the models to judge it under.
type Case struct {
	Config Config
	Models []crash.Model
}

// Plan returns the cases for every layout, I/O mode and method, judged
// under models. fsync and fdatasync are judged under every model (macos
// takes them as the plain darwin calls); full and barrier only under
// macos, mapped from an fdatasync recording, which they share with the
// fdatasync case.
func Plan(layouts []fixtures.State, modes []wal.IOMode, methods []string, models []crash.Model, records int) ([]Case, error) {
	hasMacOS := slices.ContainsFunc(models, func(m crash.Model) bool { return m.Epochs })
	var cases []Case
	for _, l := range layouts {
		for _, io := range modes {
			for _, name := range methods {
				darwinOnly := name == "full" || name == "barrier"
				if darwinOnly && !hasMacOS {
					return nil, fmt.Errorf("walcrash: method %s is darwin's: judge it under the macos model", name)
				}
				method, err := syscalls.ParseMethod(RecordedMethod(name))
				if err != nil {
					return nil, fmt.Errorf("walcrash: %w", err)
				}
				cfg := Config{Layout: l, IOMode: io, Method: method, Records: records}
				i := slices.IndexFunc(cases, func(c Case) bool { return c.Config == cfg })
				if i < 0 {
					cases = append(cases, Case{Config: cfg})
					i = len(cases) - 1
				}
				for _, m := range models {
					switch {
					case m.Epochs:
						cases[i].Models = append(cases[i].Models, crash.MacOS(Mapping(name)))
					case !darwinOnly:
						cases[i].Models = append(cases[i].Models, m)
					}
				}
			}
		}
	}
	return cases, nil
}

// Recorder runs cmd and returns the log of what it did under root.
type Recorder func(cmd *exec.Cmd, root string) (*crash.Log, error)

// Options say where and how to record and explore.
type Options struct {
	Dir    string // an existing directory: recordings and states go in new children of it
	Seed   uint64
	States int
	Torn   crash.TornMode
	// Command returns the command that runs Workload in root with cfg
	// and marks each acknowledgement for the recorder (a child process).
	Command  func(root string, cfg Config) *exec.Cmd
	Record   Recorder
	Progress func(line string)
}

// Record runs the workload of cfg under the recorder, in a new child of
// o.Dir named after n, and returns its log.
func Record(cfg Config, n int, o Options) (*crash.Log, error) {
	root := filepath.Join(o.Dir, fmt.Sprintf("record-%d", n))
	if err := os.Mkdir(root, 0o755); err != nil {
		return nil, fmt.Errorf("walcrash: %w", err)
	}
	log, err := o.Record(o.Command(root, cfg), root)
	if err != nil {
		return nil, fmt.Errorf("walcrash: record %s: %w", cfg.Name(), err)
	}
	acks := 0
	for _, e := range log.Events {
		if e.Op == crash.OpAck {
			acks++
		}
	}
	if want := cfg.withDefaults().Records; acks != want {
		return nil, fmt.Errorf("walcrash: record %s: the workload acknowledged %d records, want %d: it failed (see its output above)", cfg.Name(), acks, want)
	}
	return log, nil
}

// Explore records each case and explores it under each of its models.
func Explore(cases []Case, o Options) ([]crash.Result, error) {
	var out []crash.Result
	for n, c := range cases {
		log, err := Record(c.Config, n, o)
		if err != nil {
			return out, err
		}
		for k, m := range c.Models {
			scratch := filepath.Join(o.Dir, fmt.Sprintf("states-%d-%d", n, k))
			if err := os.Mkdir(scratch, 0o755); err != nil {
				return out, fmt.Errorf("walcrash: %w", err)
			}
			res, err := crash.Explore(log, crash.Explorer{Model: m, Seed: o.Seed, States: o.States, Config: c.Config.Name(), Torn: o.Torn, Scratch: scratch, Checker: Checker{}})
			if err != nil {
				return out, err
			}
			if o.Progress != nil {
				o.Progress(fmt.Sprintf("%s under %s: %d states, %s", c.Config.Name(), m.Name, res.States, res.Verdict()))
			}
			out = append(out, res)
		}
	}
	return out, nil
}
