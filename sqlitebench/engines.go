package sqlitebench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/durabench/durabench/drivers"
	"github.com/durabench/durabench/runner"
)

// Selection is the engines a run uses, and those it leaves out.
type Selection struct {
	// Names are the engines to run, in order.
	Names []string
	// Skipped are engines of the default list that cannot run here, with
	// the reason (mattn in a build without cgo, a system library that is
	// not installed).
	Skipped []drivers.Status
}

// SelectEngines decides which engines run. With asked empty, every engine
// available here runs and the others are listed as Skipped; if none is
// available, that is an error. An engine asked for by name must be
// available: otherwise the error, a *runner.ConfigError wrapping
// ErrConfig, gives the reason. A
// library named with systemLib must load, even when the system engine is
// not asked for by name, and naming one while leaving the system engine out
// of asked is refused as a likely mistake.
func SelectEngines(asked []string, systemLib string) (Selection, error) {
	status := drivers.Available(drivers.Options{SystemLib: systemLib})
	if systemLib != "" {
		if len(asked) > 0 && !slices.Contains(asked, "system") {
			return Selection{}, runner.Refuse(ErrConfig, "SystemLib,Engines", "the library %s is only for the system engine, which the engines asked for (%s) leave out: add system or name no library",
				systemLib, strings.Join(asked, ","))
		}
		if st := statusOf(status, "system"); !st.Available {
			return Selection{}, runner.Refuse(ErrConfig, "SystemLib", "%s: give the path of a libsqlite3 shared library", st.Reason)
		}
	}
	if len(asked) == 0 {
		var sel Selection
		for _, st := range status {
			if st.Available {
				sel.Names = append(sel.Names, st.Name)
			} else {
				sel.Skipped = append(sel.Skipped, st)
			}
		}
		if len(sel.Names) == 0 {
			return Selection{}, fmt.Errorf("sqlitebench: no SQLite engine can run here: %s", reasons(sel.Skipped))
		}
		return sel, nil
	}
	for _, name := range asked {
		st := statusOf(status, name)
		if st.Name == "" {
			return Selection{}, runner.Refuse(ErrConfig, "Engines", "engine %q: use one or more of %s", name, strings.Join(drivers.Names(), ", "))
		}
		if !st.Available {
			return Selection{}, runner.Refuse(ErrConfig, "Engines", "engine %s is unavailable: %s", name, st.Reason)
		}
	}
	return Selection{Names: slices.Clone(asked)}, nil
}

func statusOf(status []drivers.Status, name string) drivers.Status {
	for _, st := range status {
		if st.Name == name {
			return st
		}
	}
	return drivers.Status{}
}

// reasons joins "name: reason" for each status.
func reasons(status []drivers.Status) string {
	parts := make([]string, len(status))
	for i, st := range status {
		parts[i] = st.Name + ": " + st.Reason
	}
	return strings.Join(parts, "; ")
}
