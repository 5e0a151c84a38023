package main

import (
	"fmt"
	"io"
	"os"

	"github.com/durabench/durabench/fixtures"
	"github.com/durabench/durabench/internal/envinfo"
	"github.com/durabench/durabench/internal/results"
	"github.com/durabench/durabench/internal/syncbench"
	"github.com/durabench/durabench/syscalls"
)

const suiteSynopsis = `suite [--dir DIR] [--out DIR]

A quick tour of the disk under --dir (default: the current directory) in
about a minute: the environment, then every sync method this OS has for
4 KiB and 64 KiB overwrites and appends. Each part is a short run of the
corresponding command; run those for figures worth quoting (more rounds
and writes).`

const suiteExamples = `  durabench suite                      # the current directory
  durabench suite --dir /data --out results/quick`

// part is one section of the quick suite: a title and the run that prints it.
type part struct {
	title string
	run   func(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error)
}

// suiteParts is the quick suite, in order.
var suiteParts = []part{
	{"Sync methods (durabench sync)", quickSync},
}

func runSuite(args []string) error {
	fs := newFlags("suite", suiteSynopsis, suiteExamples)
	var o outputFlags
	addOutputFlags(fs, &o)
	fs.Lookup("dir").DefValue = "."
	o.dir = "."
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	if err := o.validate(); err != nil {
		return err
	}
	if err := checkDir(o.dir); err != nil {
		return err
	}
	env, err := envinfo.Collect(o.dir)
	if err != nil {
		return err
	}
	sink, err := openSink(&o, env)
	if err != nil {
		return err
	}
	run, err := fixtures.NewRun(o.dir, "suite", o.keep)
	if err != nil {
		return err
	}
	defer run.Close()
	var recs []results.Record
	var reports []func(io.Writer) error
	for _, p := range suiteParts {
		fmt.Fprintf(os.Stderr, "durabench suite: %s\n", p.title)
		r, report, err := p.run(run, env)
		if err != nil {
			return fmt.Errorf("%s: %w", p.title, err)
		}
		recs = append(recs, r...)
		title := p.title
		reports = append(reports, func(w io.Writer) error {
			fmt.Fprintf(w, "== %s\n\n", title)
			return report(w)
		})
	}
	err = sink.emit(recs, func(w io.Writer) error {
		for _, report := range reports {
			if err := report(w); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return sink.close()
}

// quickSync is a short durabench sync: every method, 4K and 64K, overwrite
// and append.
func quickSync(run *fixtures.Run, env envinfo.Env) ([]results.Record, func(io.Writer) error, error) {
	cfg := syncbench.Config{
		Workloads:  []syncbench.Workload{syncbench.Overwrite, syncbench.Append},
		BlockSizes: []int64{4 << 10, 64 << 10},
		Methods:    syscalls.Methods(),
		Iterations: 300, Warmup: 30, Rounds: 3,
		FileSize: 64 << 20, SyncEvery: 1, Threads: []int{1},
	}
	res, err := syncbench.Run(run, cfg, nil)
	if err != nil {
		return nil, nil, err
	}
	return syncbench.Records(res, nil, env.ID), func(w io.Writer) error { return syncbench.Report(w, cfg, res, nil) }, nil
}
