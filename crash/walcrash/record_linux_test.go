//go:build linux && (amd64 || arm64)

package walcrash

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/crash/record"
	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/wal"
)

// The recorded writer: the test binary runs the workload as a child under
// the ptrace recorder, and the explorer judges what it really called.

const childEnv = "WALCRASH_TEST_CHILD" // root directory, then a tab, then the Config as JSON

func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		var root, js string
		fmt.Sscanf(spec, "%s\t%s", &root, &js)
		var cfg Config
		if err := json.Unmarshal([]byte(js), &cfg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		if err := Workload(root, cfg, trace.MarkAck); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func testBatch(t *testing.T, torn crash.TornMode) crash.Batch {
	return crash.Batch{
		Dir: t.TempDir(), Seed: 1, States: 400, Torn: torn,
		Record: func(cmd *exec.Cmd, root string) (*crash.Log, error) {
			log, _, err := record.Record(cmd, root)
			return log, err
		},
	}
}

// testCommand runs the workload in this test binary, as a child.
func testCommand(root string, cfg Config) *exec.Cmd {
	js, _ := json.Marshal(cfg)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+root+"\t"+string(js))
	cmd.Stderr = os.Stderr
	return cmd
}

// The writer as it is: with fsync or fdatasync, buffered or direct, no
// acknowledged record is lost and no state is corrupt under linux-ext4 and
// posix-strict, nor under macos where the writer's sync is F_FULLFSYNC,
// when a torn sector holds old or new bytes (the writer's stated
// assumption). Under macos with the plain calls it loses records, as the
// wal package documents.
func TestRecordedWriterKeepsAcknowledgedRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("records a child under ptrace")
	}
	for _, c := range []struct {
		layout fixtures.State
		mode   wal.IOMode
		method string
	}{
		{fixtures.Append, wal.Buffered, "fdatasync"},
		{fixtures.Initialized, wal.Direct, "fsync"},
		{fixtures.Fallocate, wal.Direct, "full"},
	} {
		cases, err := Plan([]fixtures.State{c.layout}, []wal.IOMode{c.mode}, []string{c.method},
			[]crash.Model{crash.LinuxExt4(), crash.PosixStrict(), crash.MacOS(crash.Mapping{})}, 16)
		if err != nil {
			t.Fatal(err)
		}
		res, err := testBatch(t, crash.TornMix).Explore(Workloads(cases, testCommand))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			plain := r.Model == "macos"
			switch {
			case r.States < 400:
				t.Errorf("%s under %s: %d states checked, want 400", r.Config, r.Model, r.States)
			case plain && r.Lost == 0:
				t.Errorf("%s under macos with plain %s: no state lost a record; fsync persists nothing there", r.Config, c.method)
			case !plain && !r.Safe():
				t.Errorf("%s under %s: %s; smallest: %+v %+v", r.Config, r.Model, r.Verdict(), r.SmallestLost, r.SmallestCorrupt)
			}
		}
	}
}

// A writer that skips its sync loses acknowledged records in every model,
// and the explorer shows the smallest state that proves it.
func TestRecordedWriterWithoutSyncLosesRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("records a child under ptrace")
	}
	cfg := Config{Layout: fixtures.Append, IOMode: wal.Buffered, Method: syscalls.Fdatasync, Records: 10, SkipSync: true}
	log, err := testBatch(t, crash.TornGarbage).RecordOne(AsWorkload(cfg, nil, testCommand), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []crash.Model{crash.LinuxExt4(), crash.PosixStrict(), crash.MacOS(crash.Mapping{})} {
		res, err := crash.Explore(log, crash.Explorer{Model: m, Seed: 1, States: 300, Scratch: t.TempDir(), Checker: Checker{}, Config: cfg.Name()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Lost == 0 || res.MaxLost != 10 || res.SmallestLost == nil {
			t.Errorf("%s: writer without sync: %d states lost records (most %d); want some, the worst losing all 10", m.Name, res.Lost, res.MaxLost)
		}
	}
}
