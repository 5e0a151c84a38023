package walcrash

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/wal"
)

// MethodNames are the writer's sync methods a crash test can judge:
// fsync and fdatasync everywhere, and darwin's full and barrier, which a
// Linux recording stands in for with fdatasync (see Mapping).
var MethodNames = []string{"fsync", "fdatasync", "full", "barrier"}

// ParseMethods parses a comma-separated list of MethodNames, each once.
func ParseMethods(csv string) ([]string, error) {
	return runner.ParseList(csv, "sync method", "use one or more of "+strings.Join(MethodNames, ", "), func(s string) (string, error) {
		m := strings.ToLower(s)
		if !slices.Contains(MethodNames, m) {
			return "", fmt.Errorf("sync method %q: use fsync, fdatasync, full or barrier (the writer's methods that sync)", s)
		}
		return m, nil
	})
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

// Workloads turns cases into the crash package's workloads: command
// returns the program that runs Workload in root with a case's
// configuration and marks each acknowledgement (a child process).
func Workloads(cases []Case, command func(root string, cfg Config) *exec.Cmd) []crash.Workload {
	ws := make([]crash.Workload, len(cases))
	for i, c := range cases {
		ws[i] = AsWorkload(c.Config, c.Models, command)
	}
	return ws
}

// AsWorkload is one configuration as a crash.Workload judged under models.
func AsWorkload(cfg Config, models []crash.Model, command func(root string, cfg Config) *exec.Cmd) crash.Workload {
	cfg = cfg.withDefaults()
	return crash.Workload{
		Name: cfg.Name(), Acks: cfg.Records, Models: models, Checker: Checker{},
		Command: func(root string) *exec.Cmd { return command(root, cfg) },
	}
}
