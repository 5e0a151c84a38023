package envinfo

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Render writes e as a human-readable block: one labelled line per topic,
// then a "Note:" line for each fact that could not be collected and a
// "Warning:" line for each reason the figures may not mean durability.
func (e Env) Render(w io.Writer) {
	line := func(label, format string, args ...any) {
		fmt.Fprintf(w, "%-15s %s\n", label, fmt.Sprintf(format, args...))
	}
	line("Environment", "%s at %s", e.ID, e.Time.Format(time.RFC3339))
	line("OS", "%s %s (%s)", e.OS, orUnknown(kernelRelease(e.Kernel)), e.Arch)
	if e.Kernel != "" {
		line("Kernel", "%s", e.Kernel)
	}
	line("CPU", "%s, %d logical CPUs", orUnknown(e.CPU), e.CPUCount)
	line("Go", "%s", e.GoVersion)
	line("Host", "%s", orUnknown(e.Hostname))
	line("Directory", "%s", e.Dir)
	if e.MountPoint != "" {
		mount := fmt.Sprintf("%s from %s", e.MountPoint, e.MountSource)
		if e.SuperOptions != "" {
			mount += fmt.Sprintf(" (%s options %s)", e.FSType, e.SuperOptions)
		}
		line("Mount", "%s", mount)
	}
	line("Disk", "%s", e.disk())
	if d := e.deviceDetails(); d != "" {
		line("Device", "%s", d)
	}
	line("Virtualisation", "%s", orUnknown(e.Virtualization))
	line("Command", "%s", shellQuote(e.CommandLine))
	line("durabench", "%s", e.build())
	for _, n := range e.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
	for _, warn := range e.Warnings {
		fmt.Fprintf(w, "Warning: %s\n", warn)
	}
}

// disk describes the device and file system in one line:
// "vda ext4 (rw,relatime) write cache: write back, 512/4096 B".
func (e Env) disk() string {
	var b strings.Builder
	if e.Device == "" {
		b.WriteString("no block device,")
	} else {
		b.WriteString(e.Device)
	}
	fmt.Fprintf(&b, " %s", orUnknown(e.FSType))
	if e.MountOptions != "" {
		fmt.Fprintf(&b, " (%s)", e.MountOptions)
	}
	if e.Device == "" {
		return b.String()
	}
	fmt.Fprintf(&b, " write cache: %s", orUnknown(e.WriteCache))
	if e.LogicalBlock != 0 || e.PhysicalBlock != 0 {
		fmt.Fprintf(&b, ", %s/%s B", blockSize(e.LogicalBlock), blockSize(e.PhysicalBlock))
	}
	return b.String()
}

// deviceDetails describes the device beyond the Disk line, or returns "".
func (e Env) deviceDetails() string {
	if e.Device == "" {
		return ""
	}
	var parts []string
	if e.DeviceModel != "" {
		parts = append(parts, "model "+e.DeviceModel)
	}
	if e.Rotational != nil {
		parts = append(parts, "rotational: "+yesNo(*e.Rotational))
	}
	if e.FUA != nil {
		parts = append(parts, "FUA: "+yesNo(*e.FUA))
	}
	if len(e.DeviceStack) > 1 {
		parts = append(parts, "stack: "+strings.Join(e.DeviceStack, " > "))
	}
	if len(e.DeviceMembers) > 0 {
		parts = append(parts, "built on "+strings.Join(e.DeviceMembers, ", "))
	}
	return strings.Join(parts, "; ")
}

func blockSize(n int) string {
	if n == 0 {
		return "?"
	}
	return strconv.Itoa(n)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// kernelRelease returns the release part of Env.Kernel ("6.18.44-fc-v595"
// of "6.18.44-fc-v595 #1 SMP PREEMPT_DYNAMIC").
func kernelRelease(kernel string) string {
	release, _, _ := strings.Cut(kernel, " ")
	return release
}

// shellQuote joins args as a shell would need them typed, quoting those
// with characters other than letters, digits and -_./=:,+@%.
func shellQuote(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		safe := a != ""
		for _, r := range a {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r)) {
				safe = false
				break
			}
		}
		if safe {
			quoted[i] = a
		} else {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}

// build describes the build of durabench in one line: "v0.0.0-…+dirty
// (revision 183fe529ee3c…+dirty, go1.26.8, cgo on, engines modernc, mattn,
// system)".
func (e Env) build() string {
	b := e.Durabench
	cgo := "off"
	if b.CGO {
		cgo = "on"
	}
	return fmt.Sprintf("%s (revision %s, %s, cgo %s, engines %s)",
		b.ShortVersion(), b.RevisionWord(), orUnknown(b.GoVersion), cgo, strings.Join(b.Engines, ", "))
}
