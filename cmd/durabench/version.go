package main

import (
	"os"

	"github.com/durabench/durabench/internal/buildinfo"
)

const versionSynopsis = `version

Prints which build of durabench this is: the module version, the git revision
it was built from (marked modified if the tree had uncommitted changes) and
that revision's time, the Go version, whether cgo was on, and the SQLite
engines compiled in (mattn only with cgo). Every result records the same
facts: env.json, the JSON Lines stream and the benchmark-format header.
A binary from go build or go install inside a git clone knows its revision;
go run leaves it out.`

const versionExamples = `  durabench version
  durabench --version`

func runVersion(args []string) error {
	fs := newFlags("version", versionSynopsis, versionExamples)
	if err := parseOptions(fs, args); err != nil {
		return err
	}
	return buildinfo.Read().Write(os.Stdout)
}
