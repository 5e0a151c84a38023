// Package envinfo records the conditions a measurement ran under: the OS and
// kernel, the CPU, the file system and mount options under the benchmark
// directory, the block device beneath it with its write-cache mode, and any
// virtualisation. A result without its environment is not a result.
//
// Collect never fails for want of a fact: what cannot be found is left empty
// and said so in Env.Notes. Where the figures cannot mean durability (tmpfs,
// a VM, a write-through cache, a network or FUSE file system), Env.Warnings
// says so in plain words.
package envinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/durabench/durabench/internal/buildinfo"
)

// ErrNotSupported is wrapped by the errors of functions that have no
// implementation on this OS, such as DeviceFlushes on darwin.
var ErrNotSupported = errors.New("not supported on this OS")

// Env is the environment record stored with every result. Empty strings and
// zero numbers mean "not known here"; Notes says why.
type Env struct {
	// ID identifies the record: the first 12 hex digits of the SHA-256 of
	// the record's JSON encoding with ID empty. Time and CommandLine are part
	// of that content, so two runs get different IDs, and anyone can
	// recompute the ID to check that a stored record was not edited.
	ID   string    `json:"id"`
	Time time.Time `json:"time"` // UTC, whole seconds; JSON is RFC 3339

	OS        string `json:"os"`         // runtime.GOOS
	Arch      string `json:"arch"`       // runtime.GOARCH
	Kernel    string `json:"kernel"`     // uname release and version
	CPU       string `json:"cpu"`        // model name
	CPUCount  int    `json:"cpu_count"`  // logical CPUs usable by this process
	GoVersion string `json:"go_version"` // runtime.Version()
	Hostname  string `json:"hostname"`

	Dir          string `json:"dir"`           // absolute, symbolic links resolved
	FSType       string `json:"fs_type"`       // e.g. "ext4", "tmpfs", "apfs"
	MountPoint   string `json:"mount_point"`   // where the file system holding Dir is mounted
	MountOptions string `json:"mount_options"` // per-mount options, e.g. "rw,relatime"
	// SuperOptions are the file system's own options (Linux mountinfo's
	// last field), where barriers and journaling modes show.
	SuperOptions string `json:"super_options,omitempty"`
	MountSource  string `json:"mount_source"` // e.g. "/dev/vda", "tmpfs", "server:/export"

	// Device is the whole block device whose queue serves Dir (e.g. "vda"):
	// partitions are resolved to their disk, and device-mapper or md
	// devices to their one underlying device. A device built on several
	// (a RAID, a striped volume) stays itself; its parts are DeviceMembers.
	Device string `json:"device"`
	// DeviceStack lists the devices from the file system's own device down
	// to Device, e.g. ["dm-0", "vda2", "vda"]; empty if there is no block
	// device.
	DeviceStack   []string `json:"device_stack,omitempty"`
	DeviceMembers []string `json:"device_members,omitempty"`
	DeviceModel   string   `json:"device_model,omitempty"`
	LogicalBlock  int      `json:"logical_block_size"`  // bytes
	PhysicalBlock int      `json:"physical_block_size"` // bytes
	Rotational    *bool    `json:"rotational"`
	// WriteCache is the device's cache mode as the kernel sees it: "write
	// back" (flushes are sent) or "write through" (they are not).
	WriteCache string `json:"write_cache"`
	FUA        *bool  `json:"fua"` // whether the device takes forced-unit-access writes

	// Virtualization says what was found and from what evidence, e.g.
	// "vm (hypervisor flag; DMI unavailable), container (docker: /.dockerenv)".
	Virtualization string `json:"virtualization"`
	VM             bool   `json:"vm"`                  // a hypervisor is below us
	Container      string `json:"container,omitempty"` // e.g. "docker", "podman"

	CommandLine []string `json:"command_line"` // os.Args
	// Durabench is the build of durabench that ran: version, VCS revision,
	// Go version, cgo, engines compiled in.
	Durabench buildinfo.Info `json:"durabench"`
	// Notes lists facts that could not be collected, and why.
	Notes []string `json:"notes,omitempty"`
	// Warnings says, in plain words, why figures measured here may not mean
	// durability.
	Warnings []string `json:"warnings"`
}

// Collect describes the environment of a benchmark run in dir. It fails only
// if dir cannot be resolved to a directory; facts that cannot be found are
// left empty and listed in Notes.
func Collect(dir string) (Env, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Env{}, fmt.Errorf("envinfo: directory %q: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Env{}, fmt.Errorf("envinfo: directory %q: %w", dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return Env{}, fmt.Errorf("envinfo: directory %q: %w", dir, err)
	}
	if !fi.IsDir() {
		return Env{}, fmt.Errorf("envinfo: %q is not a directory: give the directory the benchmark writes in", dir)
	}
	e := Env{
		Time:        time.Now().UTC().Truncate(time.Second),
		OS:          runtime.GOOS,
		Arch:        runtime.GOARCH,
		CPUCount:    runtime.NumCPU(),
		GoVersion:   runtime.Version(),
		Dir:         real,
		CommandLine: slices.Clone(os.Args),
		Durabench:   buildinfo.Read(),
	}
	if e.Hostname, err = os.Hostname(); err != nil {
		e.note("hostname unknown: %v", err)
	}
	if err := collectPlatform(&e); err != nil {
		return Env{}, err
	}
	e.Warnings = append(fsWarnings(e.FSType, e.Dir), e.Warnings...)
	if e.WriteCache == writeThrough {
		e.Warnings = append(e.Warnings, writeThroughWarning(e.Device))
	}
	if e.VM {
		e.Warnings = append(e.Warnings, vmWarning)
	}
	if e.Warnings == nil {
		e.Warnings = []string{} // JSON [] says "none", not "not checked"
	}
	e.ID = e.contentID()
	return e, nil
}

// note records a fact that could not be collected.
func (e *Env) note(format string, args ...any) {
	e.Notes = append(e.Notes, fmt.Sprintf(format, args...))
}

// contentID hashes the record's JSON encoding with ID left empty.
func (e Env) contentID() string {
	e.ID = ""
	b, err := json.Marshal(e)
	if err != nil {
		// Env holds only strings, numbers, bools and a time.Time: encoding
		// cannot fail.
		panic(fmt.Sprintf("envinfo: encode record: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

// BenchConfig returns the record's configuration lines for Go benchmark
// format ("key: value" before the results), so that benchstat shows and
// compares them: the build of durabench (durabench-version,
// durabench-revision), then the machine. Unknown values are "unknown".
func (e Env) BenchConfig() [][2]string {
	virt := "none"
	switch {
	case e.VM && e.Container != "":
		virt = "vm+container"
	case e.VM:
		virt = "vm"
	case e.Container != "":
		virt = "container"
	}
	return [][2]string{
		{"durabench-version", e.Durabench.ShortVersion()},
		{"durabench-revision", e.Durabench.RevisionWord()},
		{"goos", orUnknown(e.OS)},
		{"goarch", orUnknown(e.Arch)},
		{"cpu", orUnknown(e.CPU)},
		{"kernel", orUnknown(kernelRelease(e.Kernel))},
		{"fs", orUnknown(e.FSType)},
		{"device", orUnknown(e.Device)},
		{"write-cache", orUnknown(e.WriteCache)},
		{"virt", virt},
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
