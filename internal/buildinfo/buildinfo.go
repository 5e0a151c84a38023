// Package buildinfo says which build of durabench is running: the module
// version, the VCS revision it was built from (and whether the tree had
// uncommitted changes), the Go version, whether cgo was on, and the SQLite
// engines compiled in. Every result records it, so that a figure can be
// traced back to the code that measured it.
//
// The facts come from runtime/debug.ReadBuildInfo, which the go command fills
// in: a binary built with go build or go install inside a git clone carries
// its revision; go run and test binaries do not (Go leaves VCS stamping out
// of them), and then Revision is empty.
package buildinfo

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/durabench/durabench/drivers"
)

// Info describes one build of durabench. Empty strings mean "not recorded in
// this binary".
type Info struct {
	Module    string `json:"module"`  // the main module's path
	Version   string `json:"version"` // the module version, e.g. "v0.0.0-20261130194512-183fe529ee3c+dirty", or "(devel)"
	Revision  string `json:"revision"`
	Modified  bool   `json:"modified"`                // the tree had uncommitted changes at build time
	Time      string `json:"revision_time,omitempty"` // the revision's commit time, RFC 3339
	GoVersion string `json:"go_version"`              // the toolchain that built the binary
	CGO       bool   `json:"cgo"`
	// Engines names the SQLite engines compiled in: modernc and system
	// always, mattn only with cgo.
	Engines []string `json:"engines"`
}

// Read returns the running binary's build information.
func Read() Info {
	bi, _ := debug.ReadBuildInfo() // nil outside module mode: every field then stays empty
	return fromBuildInfo(bi, drivers.BuiltIn())
}

// fromBuildInfo fills an Info from the go command's record (nil if there is
// none) and the names of the engines compiled in.
func fromBuildInfo(bi *debug.BuildInfo, engines []string) Info {
	info := Info{GoVersion: runtime.Version(), Engines: engines}
	if bi == nil {
		return info
	}
	info.Module, info.Version = bi.Main.Path, bi.Main.Version
	if bi.GoVersion != "" {
		info.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		case "vcs.time":
			info.Time = s.Value
		case "CGO_ENABLED":
			info.CGO = s.Value == "1"
		}
	}
	return info
}

// ShortVersion is the version in one word: the module version when the go
// command recorded one, else "devel" with the first 12 digits of the revision
// and "+dirty" for a modified tree, else "devel".
func (i Info) ShortVersion() string {
	if i.Version != "" && i.Version != "(devel)" {
		return i.Version
	}
	v := "devel"
	if i.Revision != "" {
		v += "-" + short(i.Revision)
		if i.Modified {
			v += "+dirty"
		}
	}
	return v
}

// RevisionText is the revision with its state, as the version command and the
// benchmark header print it: "183fe529ee3c… (modified)", or "unknown" with
// the reason.
func (i Info) RevisionText() string {
	switch {
	case i.Revision == "":
		return "unknown (not recorded: build with go build or go install inside a git clone)"
	case i.Modified:
		return i.Revision + " (modified: uncommitted changes)"
	}
	return i.Revision
}

// RevisionWord is the revision in one word, for headers and one-line
// summaries: the full revision, "+dirty" for a modified tree, or "unknown".
func (i Info) RevisionWord() string {
	switch {
	case i.Revision == "":
		return "unknown"
	case i.Modified:
		return i.Revision + "+dirty"
	}
	return i.Revision
}

// short returns the first 12 characters of a revision.
func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// Write prints the build information as "key  value" lines, the output of
// durabench version.
func (i Info) Write(w io.Writer) error {
	onOff := map[bool]string{true: "on", false: "off"}
	lines := [][2]string{
		{"durabench", i.ShortVersion()},
		{"module", orUnknown(i.Module)},
		{"revision", i.RevisionText()},
		{"committed", orUnknown(i.Time)},
		{"go", i.GoVersion},
		{"cgo", onOff[i.CGO]},
		{"engines", strings.Join(i.Engines, ", ")},
	}
	for _, l := range lines {
		if _, err := fmt.Fprintf(w, "%-10s %s\n", l[0], l[1]); err != nil {
			return err
		}
	}
	return nil
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
