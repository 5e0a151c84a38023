package sqlitecrash

import (
	"os/exec"

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

// Workloads turns cases into the crash package's workloads: command
// returns the program that runs Run in root with a case's configuration and
// marks each acknowledgement (a child process).
func Workloads(cases []Case, command func(root string, cfg Config) *exec.Cmd) []crash.Workload {
	ws := make([]crash.Workload, len(cases))
	for i, c := range cases {
		cfg := c.Config
		ws[i] = crash.Workload{
			Name: cfg.Name(), Acks: cfg.commits(), Models: c.Models,
			Command: func(root string) *exec.Cmd { return command(root, cfg) },
			Checker: Checker{Engine: cfg.Engine, SystemLib: cfg.SystemLib},
		}
	}
	return ws
}
