package envinfo

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// fakeSys builds a sysfs tree: vda (virtio, partitions vda1 and vda2),
// dm-0 on vda2, md0 on sdb and sdc, loop0 backed by a file, and zram0.
// Entries of dev/block and class/block are directories here rather than
// symbolic links; the code only reads through them.
func fakeSys() fstest.MapFS {
	fsys := fstest.MapFS{}
	file := func(name, data string) { fsys[name] = &fstest.MapFile{Data: []byte(data)} }
	dir := func(name string) { fsys[name] = &fstest.MapFile{Mode: 0o755 | 1<<31} }
	device := func(majMin, name, devtype string) {
		uevent := "MAJOR=x\nMINOR=y\nDEVNAME=" + name + "\nDEVTYPE=" + devtype + "\n"
		file("dev/block/"+majMin+"/uevent", uevent)
		file("class/block/"+name+"/uevent", uevent)
	}
	disk := func(majMin, name, wc, fua, rot string, logical, physical string) {
		device(majMin, name, "disk")
		file("block/"+name+"/uevent", "DEVNAME="+name+"\nDEVTYPE=disk\n")
		file("block/"+name+"/queue/write_cache", wc+"\n")
		file("block/"+name+"/queue/fua", fua+"\n")
		file("block/"+name+"/queue/rotational", rot+"\n")
		file("block/"+name+"/queue/logical_block_size", logical+"\n")
		file("block/"+name+"/queue/physical_block_size", physical+"\n")
		dir("block/" + name + "/slaves")
	}
	partition := func(majMin, name, diskName string) {
		device(majMin, name, "partition")
		file("block/"+diskName+"/"+name+"/partition", "1\n")
	}
	disk("254:0", "vda", "write back", "0", "1", "512", "4096")
	partition("254:1", "vda1", "vda")
	partition("254:2", "vda2", "vda")
	disk("253:0", "dm-0", "write back", "0", "0", "512", "4096")
	dir("block/dm-0/slaves/vda2")
	disk("8:16", "sdb", "write through", "1", "0", "4096", "4096")
	file("block/sdb/device/model", "Samsung SSD 870 \n")
	disk("8:32", "sdc", "write through", "1", "0", "4096", "4096")
	disk("9:0", "md0", "write through", "0", "0", "4096", "4096")
	dir("block/md0/slaves/sdb")
	dir("block/md0/slaves/sdc")
	disk("7:0", "loop0", "write back", "0", "1", "512", "512")
	file("block/loop0/loop/backing_file", "/var/img/disk.img\n")
	// zram0: only a block size; the other queue files are missing.
	device("251:0", "zram0", "disk")
	file("block/zram0/queue/logical_block_size", "4096\n")
	file("block/zram0/queue/physical_block_size", "four\n")
	file("block/zram0/queue/rotational", "2\n")
	return fsys
}

func TestResolveBlockDevice(t *testing.T) {
	sys := fakeSys()
	for _, tc := range []struct {
		major, minor uint32
		stack        []string
		members      []string
	}{
		{254, 0, []string{"vda"}, nil},
		{254, 2, []string{"vda2", "vda"}, nil},
		{253, 0, []string{"dm-0", "vda2", "vda"}, nil},
		{9, 0, []string{"md0"}, []string{"sdb", "sdc"}},
		{7, 0, []string{"loop0"}, nil},
	} {
		b, err := resolveBlockDevice(sys, tc.major, tc.minor)
		if err != nil {
			t.Errorf("resolveBlockDevice(%d:%d): %v", tc.major, tc.minor, err)
			continue
		}
		if !slices.Equal(b.stack, tc.stack) || !slices.Equal(b.members, tc.members) {
			t.Errorf("resolveBlockDevice(%d:%d) = stack %q members %q; want %q, %q",
				tc.major, tc.minor, b.stack, b.members, tc.stack, tc.members)
		}
	}
}

func TestResolveBlockDeviceErrors(t *testing.T) {
	sys := fakeSys()
	if _, err := resolveBlockDevice(sys, 0, 27); !errors.Is(err, ErrNoBlockDevice) {
		t.Errorf("anonymous device 0:27: got %v, want ErrNoBlockDevice", err)
	}
	// Without sysfs, nothing can be said: not "no block device".
	if _, err := resolveBlockDevice(fstest.MapFS{}, 254, 0); err == nil || errors.Is(err, ErrNoBlockDevice) {
		t.Errorf("empty sysfs: got %v, want an error other than ErrNoBlockDevice", err)
	}
	// A partition whose disk is not listed under block/.
	sys["dev/block/8:1/uevent"] = &fstest.MapFile{Data: []byte("DEVNAME=sda1\nDEVTYPE=partition\n")}
	if _, err := resolveBlockDevice(sys, 8, 1); err == nil || !strings.Contains(err.Error(), "no disk in sysfs holds partition sda1") {
		t.Errorf("orphan partition: got %v", err)
	}
	// A loop of slaves ends at the depth limit.
	sys["dev/block/1:1/uevent"] = &fstest.MapFile{Data: []byte("DEVNAME=dm-7\nDEVTYPE=disk\n")}
	sys["class/block/dm-7/uevent"] = &fstest.MapFile{Data: []byte("DEVNAME=dm-7\nDEVTYPE=disk\n")}
	sys["block/dm-7/slaves/dm-7"] = &fstest.MapFile{Mode: 0o755 | 1<<31}
	if _, err := resolveBlockDevice(sys, 1, 1); err == nil || !strings.Contains(err.Error(), "stacked deeper than 8") {
		t.Errorf("slave loop: got %v", err)
	}
	sys["dev/block/1:2/uevent"] = &fstest.MapFile{Data: []byte("DEVTYPE=disk\n")}
	if _, err := resolveBlockDevice(sys, 1, 2); err == nil || !strings.Contains(err.Error(), "no usable DEVNAME") {
		t.Errorf("uevent without DEVNAME: got %v", err)
	}
}

func TestReadQueue(t *testing.T) {
	sys := fakeSys()
	q, missing := readQueue(sys, "sdb")
	if q.logical != 4096 || q.physical != 4096 || q.writeCache != "write through" || q.model != "Samsung SSD 870" ||
		q.rotational == nil || *q.rotational || q.fua == nil || !*q.fua || q.loopBacking != "" || len(missing) != 0 {
		t.Errorf("sdb: got %+v, missing %q", q, missing)
	}
	q, _ = readQueue(sys, "loop0")
	if q.loopBacking != "/var/img/disk.img" {
		t.Errorf("loop0 backing file = %q", q.loopBacking)
	}
	q, missing = readQueue(sys, "zram0")
	if q.logical != 4096 || q.physical != 0 || q.rotational != nil || q.fua != nil || q.writeCache != "" {
		t.Errorf("zram0: got %+v", q)
	}
	want := []string{
		`queue/physical_block_size (not a number: "four")`,
		`queue/rotational (not 0 or 1: "2")`,
		"queue/fua",
		"queue/write_cache",
	}
	if !slices.Equal(missing, want) {
		t.Errorf("zram0 missing = %q, want %q", missing, want)
	}
}
