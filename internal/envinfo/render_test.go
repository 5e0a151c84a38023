package envinfo

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/durabench/durabench/internal/buildinfo"
	"github.com/durabench/durabench/internal/golden"
)

// fixedEnv is a record as Collect would give on a VM with a stacked disk.
func fixedEnv() Env {
	yes := true
	e := Env{
		Time:           time.Date(2026, 11, 30, 7, 1, 2, 0, time.UTC),
		OS:             "linux",
		Arch:           "amd64",
		Kernel:         "6.18.44-fc-v595 #1 SMP PREEMPT_DYNAMIC @0",
		CPU:            "AMD EPYC",
		CPUCount:       2,
		GoVersion:      "go1.26.8",
		Hostname:       "vm",
		Dir:            "/work/run 1",
		FSType:         "ext4",
		MountPoint:     "/work",
		MountOptions:   "rw,relatime",
		SuperOptions:   "rw,discard",
		MountSource:    "/dev/mapper/vg-work",
		Device:         "vda",
		DeviceStack:    []string{"dm-0", "vda2", "vda"},
		DeviceModel:    "QEMU HARDDISK",
		LogicalBlock:   512,
		PhysicalBlock:  4096,
		Rotational:     &yes,
		WriteCache:     "write back",
		FUA:            nil,
		Virtualization: "vm (hypervisor flag; DMI unavailable)",
		VM:             true,
		CommandLine:    []string{"durabench", "env", "--dir", "/work/run 1"},
		Notes:          []string{"sysfs lacks for vda: queue/fua"},
		Warnings:       []string{vmWarning},
		Durabench: buildinfo.Info{
			Module: "github.com/durabench/durabench", Version: "v0.0.0-20261130194512-183fe529ee3c+dirty",
			Revision: "183fe529ee3c008e6647eb5540a44b498aef084a", Modified: true, Time: "2026-11-30T19:45:12Z",
			GoVersion: "go1.26.8", CGO: true, Engines: []string{"modernc", "mattn", "system"},
		},
	}
	e.ID = e.contentID()
	return e
}

func TestRenderGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  func() Env
	}{
		{"render-vm", fixedEnv},
		{"render-tmpfs", func() Env {
			e := fixedEnv()
			e.Dir, e.FSType, e.MountPoint, e.MountSource = "/dev/shm", "tmpfs", "/dev/shm", "tmpfs"
			e.SuperOptions, e.Device, e.DeviceStack, e.DeviceModel = "", "", nil, ""
			e.LogicalBlock, e.PhysicalBlock, e.Rotational, e.FUA, e.WriteCache = 0, 0, nil, nil, ""
			e.VM, e.Virtualization = false, "none found (no hypervisor flag; DMI: Dell Inc. PowerEdge R640; no container hints)"
			e.Notes = []string{"no block device: tmpfs from tmpfs is not backed by one"}
			e.Warnings = fsWarnings("tmpfs", e.Dir)
			e.ID = e.contentID()
			return e
		}},
	} {
		var buf bytes.Buffer
		tc.env().Render(&buf)
		golden.Check(t, tc.name+".golden", buf.Bytes())
	}
}

func TestContentID(t *testing.T) {
	e := fixedEnv()
	if len(e.ID) != 12 {
		t.Fatalf("ID %q: want 12 hex digits", e.ID)
	}
	if again := e.contentID(); again != e.ID {
		t.Errorf("contentID of a record with its ID set = %s, want %s (the ID must not hash itself)", again, e.ID)
	}
	changed := e
	changed.Time = changed.Time.Add(time.Second)
	if changed.contentID() == e.ID {
		t.Errorf("ID unchanged when Time changed")
	}
	changed = e
	changed.CommandLine = slices.Clone(e.CommandLine)
	changed.CommandLine[1] = "sync"
	if changed.contentID() == e.ID {
		t.Errorf("ID unchanged when CommandLine changed")
	}
}

func TestJSONKeys(t *testing.T) {
	b, err := json.Marshal(fixedEnv())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{
		"id", "time", "os", "arch", "kernel", "cpu", "cpu_count", "go_version", "hostname", "dir", "fs_type",
		"mount_point", "mount_options", "super_options", "mount_source", "device", "device_stack", "device_model",
		"logical_block_size", "physical_block_size", "rotational", "write_cache", "fua", "virtualization", "vm",
		"command_line", "notes", "warnings", "durabench",
	} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks key %q", k)
		}
	}
	if m["time"] != "2026-11-30T07:01:02Z" {
		t.Errorf("time = %v, want RFC 3339 2026-11-30T07:01:02Z", m["time"])
	}
	var back Env
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.contentID() != fixedEnv().ID {
		t.Errorf("a record read back from JSON hashes to %s, want %s", back.contentID(), fixedEnv().ID)
	}
}

func TestBenchConfig(t *testing.T) {
	want := [][2]string{
		{"durabench-version", "v0.0.0-20261130194512-183fe529ee3c+dirty"},
		{"durabench-revision", "183fe529ee3c008e6647eb5540a44b498aef084a+dirty"},
		{"goos", "linux"}, {"goarch", "amd64"}, {"cpu", "AMD EPYC"}, {"kernel", "6.18.44-fc-v595"},
		{"fs", "ext4"}, {"device", "vda"}, {"write-cache", "write back"}, {"virt", "vm"},
	}
	if got := fixedEnv().BenchConfig(); !slices.Equal(got, want) {
		t.Errorf("BenchConfig() =\n%q\nwant\n%q", got, want)
	}
	e := Env{OS: "darwin", Arch: "arm64", Container: "docker"}
	got := e.BenchConfig()
	if got[0] != [2]string{"durabench-version", "devel"} || got[1] != [2]string{"durabench-revision", "unknown"} ||
		got[4] != [2]string{"cpu", "unknown"} || got[8] != [2]string{"write-cache", "unknown"} || got[9] != [2]string{"virt", "container"} {
		t.Errorf("BenchConfig of a sparse record = %q", got)
	}
}

func TestShellQuote(t *testing.T) {
	got := shellQuote([]string{"durabench", "--dir", "/a b", "it's", "", "--x=1,2"})
	want := `durabench --dir '/a b' 'it'\''s' '' --x=1,2`
	if got != want {
		t.Errorf("shellQuote = %s, want %s", got, want)
	}
}
