package envinfo

import (
	"os"
	"testing"
	"testing/fstest"
)

func TestParseCPUInfo(t *testing.T) {
	for _, tc := range []struct {
		file, model string
		hypervisor  bool
	}{
		{"testdata/cpuinfo-amd64", "AMD EPYC", true},
		{"testdata/cpuinfo-arm64", "Fake Board Rev 1", false},
	} {
		b, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := parseCPUInfo(string(b)); got.model != tc.model || got.hypervisor != tc.hypervisor {
			t.Errorf("%s: got %+v, want model %q, hypervisor %v", tc.file, got, tc.model, tc.hypervisor)
		}
	}
}

func TestDetectVirt(t *testing.T) {
	dmi := func(vendor, product string) fstest.MapFS {
		return fstest.MapFS{
			"class/dmi/id/sys_vendor":   {Data: []byte(vendor + "\n")},
			"class/dmi/id/product_name": {Data: []byte(product + "\n")},
		}
	}
	none := fstest.MapFS{}
	for _, tc := range []struct {
		name            string
		cpu             cpuInfo
		sys, proc, root fstest.MapFS
		text            string
		vm              bool
		container       string
	}{
		{"this machine", cpuInfo{hypervisor: true}, none, none, fstest.MapFS{".dockerenv": {}},
			"vm (hypervisor flag; DMI unavailable), container (docker: /.dockerenv)", true, "docker"},
		{"qemu by DMI alone", cpuInfo{}, dmi("QEMU", "Standard PC (Q35 + ICH9, 2009)"), none, none,
			"vm (DMI: QEMU Standard PC (Q35 + ICH9, 2009))", true, ""},
		{"xen", cpuInfo{}, fstest.MapFS{"hypervisor/type": {Data: []byte("xen\n")}}, none, none,
			"vm (DMI unavailable; hypervisor type xen)", true, ""},
		{"bare metal", cpuInfo{}, dmi("Dell Inc.", "PowerEdge R640"), none, none,
			"none found (no hypervisor flag; DMI: Dell Inc. PowerEdge R640; no container hints)", false, ""},
		{"podman", cpuInfo{}, none, none, fstest.MapFS{"run/.containerenv": {}},
			"container (podman: /run/.containerenv)", false, "podman"},
		{"kubernetes cgroup", cpuInfo{}, none,
			fstest.MapFS{"1/cgroup": {Data: []byte("0::/kubepods/besteffort/pod1/abc\n")}}, none,
			"container (kubernetes: cgroup of PID 1)", false, "kubernetes"},
		{"host cgroup", cpuInfo{}, none, fstest.MapFS{"1/cgroup": {Data: []byte("0::/init.scope\n")}}, none,
			"none found (no hypervisor flag; DMI unavailable; no container hints)", false, ""},
	} {
		got := detectVirt(tc.cpu, tc.sys, tc.proc, tc.root)
		if got.text != tc.text || got.vm != tc.vm || got.container != tc.container {
			t.Errorf("%s: got %+v\nwant text %q, vm %v, container %q", tc.name, got, tc.text, tc.vm, tc.container)
		}
	}
}
