package main

import (
	"os"

	"github.com/durabench/durabench/internal/compare"
	"github.com/durabench/durabench/internal/saved"
)

const compareSynopsis = `compare A B [C...]

Puts saved runs side by side (the --out directories of any measuring
command, or their results.jsonl): per case, each run's median over its
rounds with a 95 % confidence interval, the ratio to the first run, and a
mark from the Mann-Whitney U test of golang.org/x/perf/benchmath, the test
benchstat uses: * significant at p < 0.05, ~ not, ? cannot tell (too few
rounds; a footnote says how many are needed). Cases are keyed by what was
asked, not by where it ran: each run's environment (OS, kernel, file
system, device, SQLite versions) is shown once, above the tables, so two
machines' runs line up.

The results.bench.txt files stay usable with plain benchstat. To compare
two machines there, ignore the environment keys:
  benchstat -ignore durabench-version,durabench-revision,goos,goarch,cpu,kernel,fs,device,write-cache,virt,/sqlite_version \
      A/results.bench.txt B/results.bench.txt`

const compareExamples = `  durabench compare results/laptop results/server
  durabench compare results/before results/after results/after-tuning`

func runCompare(args []string) error {
	fs := newFlags("compare", compareSynopsis, compareExamples)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		return usageErrorf("give two or more saved runs (--out directories) to compare; got %d", fs.NArg())
	}
	var runs []saved.Run
	for _, p := range fs.Args() {
		r, err := saved.Load(p)
		if err != nil {
			return usageErrorf("%s: %v", p, err)
		}
		runs = append(runs, r)
	}
	c, err := compare.Compare(runs)
	if err != nil {
		return asUsage(err)
	}
	return c.Render(os.Stdout)
}
