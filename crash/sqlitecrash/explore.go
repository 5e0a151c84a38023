package sqlitecrash

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/durabench/durabench/crash"
)

// Case is one configuration to record and the models to judge it under.
type Case struct {
	Config Config
	Models []crash.Model
}

// Plan returns a case for every engine, journal mode, synchronous level and
// fullfsync value. Non-macos models judge each case as recorded; the macos
// model judges it once per build in builds when fullfsync is on (public:
// F_FULLFSYNC, apple: F_BARRIERFSYNC), and once (fsync) when it is off.
func Plan(engines, journals, syncs, fulls []string, models []crash.Model, builds []string, commits int, systemLib string) ([]Case, error) {
	var cases []Case
	for _, e := range engines {
		for _, j := range journals {
			for _, s := range syncs {
				for _, f := range fulls {
					c := Case{Config: Config{Engine: e, JournalMode: j, Synchronous: s, Fullfsync: f, Commits: commits, SystemLib: systemLib}}
					if err := c.Config.Check(); err != nil {
						return nil, err
					}
					for _, m := range models {
						if !m.Epochs {
							c.Models = append(c.Models, m)
							continue
						}
						bs := builds
						if f == "0" {
							bs = bs[:min(len(bs), 1)]
						}
						for _, b := range bs {
							mp, err := Mapping(f, b)
							if err != nil {
								return nil, err
							}
							c.Models = append(c.Models, crash.MacOS(mp))
						}
					}
					cases = append(cases, c)
				}
			}
		}
	}
	return cases, nil
}

// Options say where and how to record and explore.
type Options struct {
	Dir    string // an existing directory: recordings and states go in new children of it
	Seed   uint64
	States int
	Torn   crash.TornMode
	// Command returns the command that runs Run in root with cfg and marks
	// each acknowledgement for the recorder (a child process).
	Command func(root string, cfg Config) *exec.Cmd
	// Record runs cmd under the recorder and returns its log.
	Record   func(cmd *exec.Cmd, root string) (*crash.Log, error)
	Progress func(line string)
}

// Record runs the workload of cfg under the recorder, in a new child of
// o.Dir named after n, and returns its log.
func Record(cfg Config, n int, o Options) (*crash.Log, error) {
	root := filepath.Join(o.Dir, fmt.Sprintf("record-%d", n))
	if err := os.Mkdir(root, 0o755); err != nil {
		return nil, fmt.Errorf("sqlitecrash: %w", err)
	}
	log, err := o.Record(o.Command(root, cfg), root)
	if err != nil {
		return nil, fmt.Errorf("sqlitecrash: record %s: %w", cfg.Name(), err)
	}
	acks := 0
	for _, e := range log.Events {
		if e.Op == crash.OpAck {
			acks++
		}
	}
	if acks != cfg.commits() {
		return nil, fmt.Errorf("sqlitecrash: record %s: the workload acknowledged %d commits, want %d: it failed (see its output above)", cfg.Name(), acks, cfg.commits())
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
				return out, fmt.Errorf("sqlitecrash: %w", err)
			}
			res, err := crash.Explore(log, crash.Explorer{Model: m, Seed: o.Seed, States: o.States, Config: c.Config.Name(), Torn: o.Torn,
				Scratch: scratch, Checker: Checker{Engine: c.Config.Engine, SystemLib: c.Config.SystemLib}})
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
