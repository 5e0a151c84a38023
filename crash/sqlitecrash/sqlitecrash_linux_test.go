//go:build linux && (amd64 || arm64)

package sqlitecrash

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/crash/record"
	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/syscalls/trace"
)

// childEnv switches the test binary into the workload (TestMain): its
// value is the configuration as JSON, the first argument the root.
const childEnv = "DURABENCH_SQLITECRASH_TEST_CHILD"

func TestMain(m *testing.M) {
	if js := os.Getenv(childEnv); js != "" {
		var cfg Config
		err := json.Unmarshal([]byte(js), &cfg)
		if err == nil {
			err = Run(os.Args[1], cfg, trace.MarkAck)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// recordCase runs cfg in a traced child of the test binary and returns its
// log.
func recordCase(t *testing.T, cfg Config) *crash.Log {
	t.Helper()
	if _, err := drivers.Lookup(cfg.Engine, drivers.Options{}); err != nil {
		t.Skipf("engine %s: %v", cfg.Engine, err)
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	cmd := exec.Command(exe, root)
	cmd.Env = append(os.Environ(), childEnv+"="+string(js))
	cmd.Stderr = os.Stderr
	log, counts, err := record.Record(cmd, root)
	if err != nil {
		t.Fatal(err)
	}
	if counts.Exit != (trace.ExitStatus{}) {
		t.Fatalf("%s: workload %v", cfg.Name(), counts.Exit)
	}
	if counts.Acks != uint64(cfg.commits()) {
		t.Fatalf("%s: %d acks, want %d", cfg.Name(), counts.Acks, cfg.commits())
	}
	return log
}

// explore explores log under model with states states.
func explore(t *testing.T, log *crash.Log, cfg Config, model crash.Model, states int) crash.Result {
	t.Helper()
	res, err := crash.Explore(log, crash.Explorer{
		Model: model, Seed: 1, States: states, Config: cfg.Name(),
		Scratch: t.TempDir(), Checker: Checker{Engine: cfg.Engine},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s under %s: %d states, %d lost (max %d), %d corrupt: %s", cfg.Name(), res.Model, res.States, res.Lost, res.MaxLost, res.Corrupt, res.Verdict())
	for _, f := range []*crash.Failure{res.SmallestLost, res.SmallestCorrupt} {
		if f != nil {
			t.Logf("  smallest %s at %s: %s (%v)", f.ID, f.Cut, f.Verdict.Detail, f.Deviations)
		}
	}
	return res
}
