package syncbench

import (
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/measure"
	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
)

func small() Config {
	return Config{
		Workloads:  []Workload{Append, Fallocate, Overwrite},
		BlockSizes: []int64{4096, 16384},
		Methods:    []syscalls.Method{syscalls.None, syscalls.Fdatasync, syscalls.Dsync},
		Iterations: 24, Warmup: 4, Rounds: 2,
		FileSize:  1 << 20,
		SyncEvery: 1,
		Threads:   []int{1},
	}
}

func newRun(t *testing.T) *fixtures.Run {
	t.Helper()
	run, err := fixtures.NewRun(t.TempDir(), "test", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	return run
}

func checkResults(t *testing.T, cfg Config, res []Result, samplesPerRound, writesPerRound int) {
	t.Helper()
	if want := len(cfg.Workloads) * len(cfg.BlockSizes) * len(cfg.Methods) * len(cfg.Threads); len(res) != want {
		t.Fatalf("%d results, want %d", len(res), want)
	}
	for _, r := range res {
		if len(r.Rounds) != cfg.Rounds {
			t.Errorf("%s: %d rounds, want %d", r.Name(), len(r.Rounds), cfg.Rounds)
		}
		for i, rd := range r.Rounds {
			if rd.Samples != samplesPerRound*r.Threads || rd.Total.N != rd.Samples {
				t.Errorf("%s round %d: %d samples, want %d", r.Name(), i, rd.Samples, samplesPerRound*r.Threads)
			}
			if want := int64(rd.Samples) * int64(cfg.SyncEvery) * r.BlockSize; rd.Bytes != want {
				t.Errorf("%s round %d: %d bytes, want %d", r.Name(), i, rd.Bytes, want)
			}
		}
		if want := cfg.Rounds * samplesPerRound * r.Threads; r.Total.N != want || r.Write.N != want || r.Sync.N != want {
			t.Errorf("%s: pooled N = %d/%d/%d, want %d", r.Name(), r.Total.N, r.Write.N, r.Sync.N, want)
		}
		if want := cfg.Rounds * writesPerRound * r.Threads; r.Verified != want {
			t.Errorf("%s: verified %d writes, want %d", r.Name(), r.Verified, want)
		}
		wantSize := cfg.FileSize
		if r.Workload == Append {
			wantSize = int64(writesPerRound) * r.BlockSize
			if cfg.Order == Interleaved { // the methods share one file
				wantSize *= int64(len(cfg.Methods))
			}
		}
		if r.FileSize != wantSize {
			t.Errorf("%s: file size %d after the run, want %d", r.Name(), r.FileSize, wantSize)
		}
		if r.Total.Min <= 0 || r.Total.P50 < r.Write.P50 {
			t.Errorf("%s: implausible stats %+v (write %+v)", r.Name(), r.Total, r.Write)
		}
	}
}

func TestRunSequential(t *testing.T) {
	cfg := small()
	run := newRun(t)
	res, err := Run(run, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, cfg, res, cfg.Iterations, cfg.Warmup+cfg.Iterations)
	if entries, _ := os.ReadDir(run.Dir); len(entries) != 0 {
		t.Errorf("%d files left in the run directory after the cases", len(entries))
	}
}

func TestRunSyncEveryMakesBatchSamples(t *testing.T) {
	cfg := small()
	cfg.SyncEvery = 4
	res, err := Run(newRun(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, cfg, res, cfg.Iterations/4, cfg.Warmup+cfg.Iterations)
}

func TestRunInterleaved(t *testing.T) {
	cfg := small()
	cfg.Order = Interleaved
	cfg.FileSize = 2 << 20
	var lines []string
	res, err := Run(newRun(t), cfg, func(l string) { lines = append(lines, l) })
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, cfg, res, cfg.Iterations, cfg.Warmup+cfg.Iterations)
	// One file per workload and size per round, shared by the methods.
	if want := cfg.Rounds * len(cfg.Workloads) * len(cfg.BlockSizes); len(lines) != want {
		t.Errorf("%d progress lines, want one per shared file: %d", len(lines), want)
	}
}

func TestRunThreads(t *testing.T) {
	cfg := small()
	cfg.Workloads = []Workload{Overwrite}
	cfg.Threads = []int{1, 3}
	res, err := Run(newRun(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, cfg, res, cfg.Iterations, cfg.Warmup+cfg.Iterations)
}

func TestOverwriteWrapsAndVerifies(t *testing.T) {
	cfg := small()
	cfg.Workloads = []Workload{Overwrite}
	cfg.BlockSizes = []int64{4096}
	cfg.FileSize = 5*4096 + 100 // 5 whole blocks; wraps every 5 writes
	cfg.Methods = []syscalls.Method{syscalls.None}
	res, err := Run(newRun(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, cfg, res, cfg.Iterations, cfg.Warmup+cfg.Iterations)
}

func TestVerifyCatchesAMissingWrite(t *testing.T) {
	run := newRun(t)
	c := Case{Workload: Fallocate, BlockSize: 4096, Method: syscalls.None, Threads: 1}
	cfg := small()
	spec := cfg.fileSpec(run, c, 0, 0)
	tg, err := openTarget(spec, c.Method, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tg.f.Close()
	for range 10 {
		if _, _, _, err := tg.batch(1); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := verify(spec.path, tg.cur, spec); err != nil {
		t.Fatalf("verify of a good file: %v", err)
	}
	var word [8]byte
	binary.LittleEndian.PutUint64(word[:], 99)
	if err := tg.f.Pwrite(word[:], 3*4096); err != nil {
		t.Fatal(err)
	}
	if _, _, err := verify(spec.path, tg.cur, spec); err == nil || !strings.Contains(err.Error(), "block 3 holds write 99, want write 4") {
		t.Errorf("verify of a damaged file = %v", err)
	}
}

func TestLoopAllocatesNothing(t *testing.T) {
	run := newRun(t)
	for _, m := range []syscalls.Method{syscalls.None, syscalls.Fdatasync, syscalls.GoStd} {
		c := Case{Workload: Overwrite, BlockSize: 4096, Method: m, Threads: 1}
		cfg := small()
		spec := cfg.fileSpec(run, c, 0, 0)
		tg, err := openTarget(spec, m, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := measure.NewSamples(200)
		allocs := testing.AllocsPerRun(100, func() {
			total, write, sync, err := tg.batch(2)
			if err != nil {
				t.Fatal(err)
			}
			s.Add(total, write, sync)
		})
		tg.f.Close()
		if allocs != 0 {
			t.Errorf("%s: the timed loop allocates %.1f times per sample", m, allocs)
		}
	}
}

func TestValidateRefuses(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*Config)
		want   string
		fields string // the fields the error names
	}{
		{"iterations 0", func(c *Config) { c.Iterations = 0 }, "0 measured writes: need at least one", "Iterations"},
		{"negative warmup", func(c *Config) { c.Warmup = -1 }, "-1 warm-up writes: must be 0 or more", "Warmup"},
		{"rounds 0", func(c *Config) { c.Rounds = 0 }, "0 rounds", "Rounds"},
		{"sync-every 0", func(c *Config) { c.SyncEvery = 0 }, "0 writes per sync", "SyncEvery"},
		{"batch does not divide", func(c *Config) { c.SyncEvery = 5 }, "not a multiple of 5 writes per sync", "Iterations,SyncEvery"},
		{"file below block", func(c *Config) { c.FileSize = 1024 }, "below the block size", "FileSize"},
		{"fallocate capacity", func(c *Config) { c.FileSize = 64 << 10 }, "raise the file size to 112K", "FileSize"},
		{"interleaved capacity", func(c *Config) { c.Order = Interleaved; c.FileSize = 256 << 10 }, "for each of 3 interleaved methods", "FileSize"},
		{"interleaved threads", func(c *Config) { c.Order = Interleaved; c.Threads = []int{2} }, "interleaved order runs on one thread", "Order,Threads"},
		{"threads 0", func(c *Config) { c.Threads = []int{0} }, "0 threads: use 1 to 1024", "Threads"},
		{"no methods", func(c *Config) { c.Methods = nil }, "no sync method", "Methods"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := small()
			cfg.BlockSizes = []int64{4096}
			tt.edit(&cfg)
			err := cfg.Validate()
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want it to say %q", err, tt.want)
			}
			if fields, _, _ := runner.FieldsOf(err); strings.Join(fields, ",") != tt.fields {
				t.Errorf("Validate() names fields %q, want %q", fields, tt.fields)
			}
		})
	}
	if err := small().Validate(); err != nil {
		t.Errorf("a good configuration is refused: %v", err)
	}
}

func TestParseWorkloadsAndOrder(t *testing.T) {
	ws, err := ParseWorkloads("overwrite, append")
	if err != nil || len(ws) != 2 || ws[0] != Overwrite || ws[1] != Append {
		t.Fatalf("ParseWorkloads = %v, %v", ws, err)
	}
	if _, err := ParseWorkloads("apend"); err == nil || !strings.Contains(err.Error(), "append, fallocate, overwrite") {
		t.Errorf("unknown workload error = %v", err)
	}
	if o, err := ParseOrder("interleaved"); err != nil || o != Interleaved {
		t.Errorf("ParseOrder = %v, %v", o, err)
	}
	if _, err := ParseOrder("random"); err == nil {
		t.Error("ParseOrder accepted random")
	}
}
