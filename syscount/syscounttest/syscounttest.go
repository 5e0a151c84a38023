// Package syscounttest lets a runner's tests count system calls the way
// durabench's --count-syscalls does, with the test binary itself as the
// traced child: Counter re-runs the binary with a one-case configuration,
// and Main, the package's TestMain, serves it. It is for tests only.
package syscounttest

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
)

// The counting child is the test binary re-run with configEnv set to its
// one-case configuration as JSON and dirEnv to the directory to work in.
const (
	configEnv = "DURABENCH_SYSCOUNTTEST_CONFIG"
	dirEnv    = "DURABENCH_SYSCOUNTTEST_DIR"
)

// Main is the TestMain of a runner's tests that count: in a counting child
// that Counter started, it runs the configuration it was given with
// measure, which puts the window in the configuration's Marks and runs it
// once (as durabench's hidden __count-* roles do), and exits 0, or 3 after
// printing the error; otherwise it runs the tests.
func Main[C any](m *testing.M, measure func(run *fixtures.Run, cfg C, window *syscount.Window) error) {
	if spec := os.Getenv(configEnv); spec != "" {
		if err := serve(os.Getenv(dirEnv), spec, measure); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serve runs the counting child's side: the configuration in spec,
// measured in a run inside dir.
func serve[C any](dir, spec string, measure func(run *fixtures.Run, cfg C, window *syscount.Window) error) error {
	var cfg C
	if err := json.Unmarshal([]byte(spec), &cfg); err != nil {
		return err
	}
	return syscount.ServeChild(dir, func(run *fixtures.Run, window *syscount.Window) error {
		return measure(run, cfg, window)
	})
}

// Counter counts one case the way --count-syscalls does, in dir, with this
// test binary (whose TestMain is Main) as the traced child.
func Counter[C any](t *testing.T, dir string) syscount.Counter[C] {
	return func(cfg C, classify trace.Classifier) (syscount.Result, error) {
		b, err := json.Marshal(cfg)
		if err != nil {
			return syscount.Result{}, err
		}
		t.Setenv(configEnv, string(b))
		t.Setenv(dirEnv, dir)
		return syscount.Count([]string{"-test.run=^$"}, dir, classify)
	}
}
