package envinfo

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// The functions here read sysfs through an fs.FS rooted at /sys, so that
// tests can give them a fixture tree.

// maxStackDepth bounds the walk down device-mapper and md slaves.
const maxStackDepth = 8

// blockDevice is the block device under a file system.
type blockDevice struct {
	// stack runs from the file system's own device to the whole device
	// whose queue serves it (the last element).
	stack []string
	// members are the devices the last element of stack is built on, when
	// it is built on more than one.
	members []string
}

// disk returns the whole device whose queue serves the file system.
func (b blockDevice) disk() string { return b.stack[len(b.stack)-1] }

// resolveBlockDevice finds the block device numbered major:minor and walks
// down to the whole device below it: a partition to its disk, a
// device-mapper or md device to its only slave, and so on.
func resolveBlockDevice(sys fs.FS, major, minor uint32) (blockDevice, error) {
	name, partition, err := readUevent(sys, fmt.Sprintf("dev/block/%d:%d", major, minor))
	if errors.Is(err, fs.ErrNotExist) && hasBlockDevices(sys) {
		// Anonymous devices (tmpfs, overlay, NFS, FUSE) have no entry.
		return blockDevice{}, fmt.Errorf("device %d:%d: %w", major, minor, ErrNoBlockDevice)
	}
	if err != nil {
		return blockDevice{}, fmt.Errorf("device %d:%d in sysfs: %w", major, minor, err)
	}
	var b blockDevice
	for {
		b.stack = append(b.stack, name)
		if partition {
			disk, err := diskOfPartition(sys, name)
			if err != nil {
				return blockDevice{}, err
			}
			b.stack = append(b.stack, disk)
			name = disk
		}
		slaves, err := fs.ReadDir(sys, path.Join("block", name, "slaves"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return blockDevice{}, fmt.Errorf("slaves of %s: %w", name, err)
		}
		if len(slaves) > 1 {
			for _, s := range slaves {
				b.members = append(b.members, s.Name())
			}
			return b, nil
		}
		if len(slaves) == 0 {
			return b, nil
		}
		if len(b.stack) >= maxStackDepth {
			return blockDevice{}, fmt.Errorf("block devices stacked deeper than %d: %s", maxStackDepth, strings.Join(b.stack, " > "))
		}
		name, partition, err = readUevent(sys, path.Join("class/block", slaves[0].Name()))
		if err != nil {
			return blockDevice{}, fmt.Errorf("slave %s of %s: %w", slaves[0].Name(), b.disk(), err)
		}
	}
}

// hasBlockDevices reports whether sys lists block devices by number, so that
// a number it lacks is known not to be a block device.
func hasBlockDevices(sys fs.FS) bool {
	_, err := fs.Stat(sys, "dev/block")
	return err == nil
}

// readUevent reads a block device's uevent file in dir for its name and
// whether it is a partition.
func readUevent(sys fs.FS, dir string) (name string, partition bool, err error) {
	b, err := fs.ReadFile(sys, path.Join(dir, "uevent"))
	if err != nil {
		return "", false, err
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		switch k {
		case "DEVNAME":
			name = v
		case "DEVTYPE":
			partition = v == "partition"
		}
	}
	if name == "" || strings.Contains(name, "/") {
		return "", false, fmt.Errorf("%s/uevent has no usable DEVNAME (%q)", dir, name)
	}
	return name, partition, nil
}

// diskOfPartition finds the disk that holds partition part: the entry of
// /sys/block with a subdirectory of that name.
func diskOfPartition(sys fs.FS, part string) (string, error) {
	disks, err := fs.ReadDir(sys, "block")
	if err != nil {
		return "", fmt.Errorf("list block devices: %w", err)
	}
	for _, d := range disks {
		if _, err := fs.Stat(sys, path.Join("block", d.Name(), part)); err == nil {
			return d.Name(), nil
		}
	}
	return "", fmt.Errorf("no disk in sysfs holds partition %s", part)
}

// queueFacts are what sysfs tells about a whole block device.
type queueFacts struct {
	logical, physical int
	rotational, fua   *bool
	writeCache        string
	model             string
	loopBacking       string // the backing file of a loop device
}

// readQueue reads the facts of whole block device dev. Facts it cannot read
// stay zero and are listed in missing.
func readQueue(sys fs.FS, dev string) (q queueFacts, missing []string) {
	dir := path.Join("block", dev)
	read := func(name string) (string, bool) {
		b, err := fs.ReadFile(sys, path.Join(dir, name))
		if err != nil {
			missing = append(missing, name)
			return "", false
		}
		return strings.TrimSpace(string(b)), true
	}
	readInt := func(name string) int {
		s, ok := read(name)
		if !ok {
			return 0
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			missing = append(missing, name+" (not a number: "+strconv.Quote(s)+")")
		}
		return n
	}
	readBool := func(name string) *bool {
		s, ok := read(name)
		if !ok {
			return nil
		}
		if s != "0" && s != "1" {
			missing = append(missing, name+" (not 0 or 1: "+strconv.Quote(s)+")")
			return nil
		}
		v := s == "1"
		return &v
	}
	q.logical = readInt("queue/logical_block_size")
	q.physical = readInt("queue/physical_block_size")
	q.rotational = readBool("queue/rotational")
	q.fua = readBool("queue/fua")
	if s, ok := read("queue/write_cache"); ok {
		q.writeCache = s
	}
	// Not every device has a model (virtio disks do not) or is a loop
	// device: their absence is not worth a note.
	if b, err := fs.ReadFile(sys, path.Join(dir, "device/model")); err == nil {
		q.model = strings.TrimSpace(string(b))
	}
	if b, err := fs.ReadFile(sys, path.Join(dir, "loop/backing_file")); err == nil {
		q.loopBacking = strings.TrimSpace(string(b))
	}
	return q, missing
}

// memoryDevice reports whether dev is a RAM-backed block device: zram or
// the brd RAM disk.
func memoryDevice(dev string) bool {
	return strings.HasPrefix(dev, "zram") || strings.HasPrefix(dev, "ram")
}
