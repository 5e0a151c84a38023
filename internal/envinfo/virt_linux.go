package envinfo

import (
	"bufio"
	"fmt"
	"io/fs"
	"strings"
)

// cpuInfo is what /proc/cpuinfo tells about the first processor.
type cpuInfo struct {
	model      string
	hypervisor bool // the x86 "hypervisor" flag: a hypervisor set CPUID.1:ECX[31]
}

// parseCPUInfo reads the model name (x86 "model name"; other
// architectures' "Hardware", "cpu model" or "Processor") and the hypervisor
// flag from the text of /proc/cpuinfo. Only the first processor's block is
// read.
func parseCPUInfo(text string) cpuInfo {
	var c cpuInfo
	fallback := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if line == "" && (c.model != "" || fallback != "") {
			break // end of the first processor's block
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "model name":
			c.model = v
		case "Hardware", "cpu model", "Processor":
			if fallback == "" {
				fallback = v
			}
		case "flags":
			for f := range strings.FieldsSeq(v) {
				if f == "hypervisor" {
					c.hypervisor = true
				}
			}
		}
	}
	if c.model == "" {
		c.model = fallback
	}
	return c
}

// virtInfo is what was found about virtualisation.
type virtInfo struct {
	text      string // Env.Virtualization
	vm        bool
	container string
}

// vmVendors are DMI system vendors and product names that only virtual
// machines report.
var vmVendors = []string{
	"QEMU", "KVM", "VMware", "VirtualBox", "innotek", "Xen", "Bochs", "Parallels",
	"Amazon EC2", "Google Compute Engine", "Virtual Machine", "OpenStack", "BHYVE", "Apple Virtualization",
}

// detectVirt looks for a hypervisor (the CPU flag, DMI vendor and product,
// /sys/hypervisor/type) and a container (/.dockerenv, /run/.containerenv,
// the cgroup of PID 1). sys, proc and root are /sys, /proc and /.
func detectVirt(cpu cpuInfo, sys, proc, root fs.FS) virtInfo {
	var vmEvidence []string
	vm := cpu.hypervisor
	if cpu.hypervisor {
		vmEvidence = append(vmEvidence, "hypervisor flag")
	}
	vendor, errV := fs.ReadFile(sys, "class/dmi/id/sys_vendor")
	product, errP := fs.ReadFile(sys, "class/dmi/id/product_name")
	if errV != nil && errP != nil {
		vmEvidence = append(vmEvidence, "DMI unavailable")
	} else {
		dmi := strings.TrimSpace(strings.TrimSpace(string(vendor)) + " " + strings.TrimSpace(string(product)))
		vmEvidence = append(vmEvidence, "DMI: "+dmi)
		for _, v := range vmVendors {
			if strings.Contains(dmi, v) {
				vm = true
			}
		}
	}
	if t, err := fs.ReadFile(sys, "hypervisor/type"); err == nil {
		vm = true
		vmEvidence = append(vmEvidence, "hypervisor type "+strings.TrimSpace(string(t)))
	}

	var container, hint string
	switch {
	case exists(root, ".dockerenv"):
		container, hint = "docker", "/.dockerenv"
	case exists(root, "run/.containerenv"):
		container, hint = "podman", "/run/.containerenv"
	default:
		if cg, err := fs.ReadFile(proc, "1/cgroup"); err == nil {
			container = cgroupContainer(string(cg))
			hint = "cgroup of PID 1"
		}
	}

	var parts []string
	if vm {
		parts = append(parts, fmt.Sprintf("vm (%s)", strings.Join(vmEvidence, "; ")))
	}
	if container != "" {
		parts = append(parts, fmt.Sprintf("container (%s: %s)", container, hint))
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("none found (no hypervisor flag; %s; no container hints)",
			strings.Join(vmEvidence, "; ")))
	}
	return virtInfo{text: strings.Join(parts, ", "), vm: vm, container: container}
}

// cgroupContainer names the container runtime that the text of
// /proc/1/cgroup points to, or returns "".
func cgroupContainer(text string) string {
	for _, c := range []struct{ marker, name string }{
		{"kubepods", "kubernetes"},
		{"docker", "docker"},
		{"libpod", "podman"},
		{"containerd", "containerd"},
		{"lxc", "lxc"},
	} {
		if strings.Contains(text, c.marker) {
			return c.name
		}
	}
	return ""
}

func exists(fsys fs.FS, name string) bool {
	_, err := fs.Stat(fsys, name)
	return err == nil
}
