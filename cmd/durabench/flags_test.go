package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/durabench/durabench/runner"
	"github.com/durabench/durabench/syscalls"
	"github.com/spf13/pflag"
)

// TestListFlags: a list flag parses its default and what the user gives,
// and refuses a bad list as pflag reports it, naming the flag.
func TestListFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.SetOutput(devNull{})
	var sizes []int64
	var methods []syscalls.Method
	var counts []int
	listVar(fs, &sizes, "block-sizes", "4K,64K", "", parseSizes)
	listVar(fs, &methods, "methods", "", "", parseMethods)
	listVar(fs, &counts, "threads", "1", "", parseCounts)
	if !slices.Equal(sizes, []int64{4096, 65536}) || methods != nil || !slices.Equal(counts, []int{1}) {
		t.Fatalf("defaults: %v %v %v", sizes, methods, counts)
	}
	if err := fs.Parse([]string{"--block-sizes", "1M", "--methods", "none, fsync,,fdatasync", "--threads", "1,2,4"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sizes, []int64{1 << 20}) || !slices.Equal(methods, []syscalls.Method{syscalls.None, syscalls.Fsync, syscalls.Fdatasync}) || !slices.Equal(counts, []int{1, 2, 4}) {
		t.Errorf("parsed: %v %v %v", sizes, methods, counts)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"--methods", "fsync,fsync"}},
		{[]string{"--methods", " , "}},
		{[]string{"--methods", "fsync,bogus"}},
		{[]string{"--block-sizes", "4K,zero"}},
		{[]string{"--threads", "1,x"}},
	} {
		err := fs.Parse(tc.args)
		if err == nil || !strings.Contains(err.Error(), `for "`+tc.args[0]+`" flag: `) {
			t.Errorf("%q: %v, want a refusal naming %s", tc.args, err, tc.args[0])
		}
	}
}

// TestRefuseNamesFlags: a runner's configuration error reaches the user
// with the flags of its fields, kebab-cased or renamed, and only flags that
// exist.
func TestRefuseNamesFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.Int("sync-every", 1, "")
	fs.Int("iterations", 1, "")
	fs.String("stream-size", "", "")
	err := refuse(runner.Refuse(nil, "Iterations,SyncEvery,Marks", "5 is not a multiple of 2"), fs, nil)
	if want := "--iterations, --sync-every: 5 is not a multiple of 2"; err == nil || err.Error() != want || !isUsageError(err) {
		t.Errorf("refuse = %v, want usage error %q", err, want)
	}
	err = refuse(runner.Refuse(nil, "FileSize", "too small"), fs, map[string]string{"FileSize": "stream-size"})
	if want := "--stream-size: too small"; err == nil || err.Error() != want {
		t.Errorf("refuse renamed = %v, want %q", err, want)
	}
	if kebab("MaxCaseBytes") != "max-case-bytes" {
		t.Errorf("kebab(MaxCaseBytes) = %q", kebab("MaxCaseBytes"))
	}
}
