package crash

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Workload is one configuration a Batch records and judges: a program that
// marks Acks acknowledgements when it runs to the end, the checker that
// judges its states, and the models to judge them under.
type Workload struct {
	// Name is the configuration as results show it and state identifiers
	// carry it.
	Name string
	// Acks is the number of acknowledgements a successful run marks: a
	// recording with fewer means the program failed.
	Acks int
	// Command returns the program, set to work in root.
	Command func(root string) *exec.Cmd
	Checker Checker
	Models  []Model
}

// Batch records workloads and explores each under its models.
type Batch struct {
	Dir    string // an existing directory: recordings and states go in new children of it
	Seed   uint64
	States int
	Torn   TornMode
	// Record runs cmd under the recorder and returns what it did under
	// root.
	Record func(cmd *exec.Cmd, root string) (*Log, error)
	// Progress, if set, gets a line per model explored.
	Progress func(line string)
}

// RecordOne runs w's program under the recorder in a new child of b.Dir
// named after n, and returns its log; a program that marked fewer than
// w.Acks acknowledgements failed, and that is an error.
func (b Batch) RecordOne(w Workload, n int) (*Log, error) {
	root := filepath.Join(b.Dir, fmt.Sprintf("record-%d", n))
	if err := os.Mkdir(root, 0o755); err != nil {
		return nil, fmt.Errorf("crash: %w", err)
	}
	log, err := b.Record(w.Command(root), root)
	if err != nil {
		return nil, fmt.Errorf("crash: record %s: %w", w.Name, err)
	}
	acks := 0
	for _, e := range log.Events {
		if e.Op == OpAck {
			acks++
		}
	}
	if acks != w.Acks {
		return nil, fmt.Errorf("crash: record %s: the workload acknowledged %d commits, want %d: it failed (see its output above)", w.Name, acks, w.Acks)
	}
	return log, nil
}

// Explore records each workload and explores it under each of its models,
// each in a scratch directory of its own under b.Dir.
func (b Batch) Explore(ws []Workload) ([]Result, error) {
	var out []Result
	for n, w := range ws {
		log, err := b.RecordOne(w, n)
		if err != nil {
			return out, err
		}
		res, err := ExploreModels(log, w.Models, Explorer{Seed: b.Seed, States: b.States, Config: w.Name, Torn: b.Torn, Scratch: b.Dir, Checker: w.Checker}, b.Progress)
		out = append(out, res...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
