package interpose

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/durabench/durabench/syscalls/trace"
)

// The shared counters file, as csrc/interpose.c lays it out: keep the two in
// step. Go writes the header, including the total size, before the program
// starts; the library counts nothing unless every field matches what it was
// compiled with. Both sides use the machine's byte order and no padding (all
// fields are naturally aligned).
const (
	layoutMagic   = 0x65736f707265746e // "nterpose"
	layoutVersion = 1
	nCalls        = 16
	nFcntl        = 256
	nOpenFlags    = 4
	nFiles        = 256
	pathLen       = 1024
)

type counters struct {
	Calls      [nCalls]uint64
	Fcntl      [nFcntl]uint64
	OpenFlags  [nOpenFlags]uint64
	WriteBytes uint64
}

type fileSlot struct {
	State uint32 // 2 once named
	IsDir uint32
	N     counters
	Path  [pathLen]byte
}

type header struct {
	Magic, Size                              uint64
	Version, NCalls, NFcntl, NFiles, PathLen uint32
	Window, WindowOpen, Windowed, FilesFull  uint32
	BadLayout, Processes, Pad                uint32
}

type shared struct {
	header
	Total counters
	Files [nFiles]fileSlot
}

// sharedSize is the size of the counters file.
var sharedSize = binary.Size(shared{})

// newHeader returns the header Go writes into a new counters file.
func newHeader(window bool) []byte {
	h := header{
		Magic: layoutMagic, Size: uint64(sharedSize), Version: layoutVersion,
		NCalls: nCalls, NFcntl: nFcntl, NFiles: nFiles, PathLen: pathLen,
	}
	if window {
		h.Window = 1
	}
	var b bytes.Buffer
	_ = binary.Write(&b, binary.NativeEndian, &h) // writes to memory cannot fail
	return b.Bytes()
}

// The indexes of counters.Calls (enum in csrc/interpose.c).
const (
	callFsync = iota
	callFdatasync
	callSyncFileRange
	callSyncfs
	callSync
	callMsync
	callFcntl
	callWrite
	callPwrite
	callWritev
	callPwritev
	callPwritev2
	callFtruncate
	callFallocate
)

// callNames names each counted call as the kernel on that OS calls the
// system call the libc function makes, so that the interposer's counts use
// the tracer's names. Empty: the OS has no such call.
var callNames = map[int]struct{ linux, darwin string }{
	callFsync:         {"fsync", "fsync"},
	callFdatasync:     {"fdatasync", "fdatasync"},
	callSyncFileRange: {"sync_file_range", ""},
	callSyncfs:        {"syncfs", ""},
	callSync:          {"sync", "sync"},
	callMsync:         {"msync", "msync"},
	callWrite:         {"write", "write"},
	callPwrite:        {"pwrite64", "pwrite"},
	callWritev:        {"writev", "writev"},
	callPwritev:       {"pwritev", "pwritev"},
	callPwritev2:      {"pwritev2", ""},
	callFtruncate:     {"ftruncate", "ftruncate"},
	callFallocate:     {"fallocate", ""},
}

func callName(goos string, i int) string {
	n, ok := callNames[i]
	if !ok {
		return ""
	}
	if goos == "darwin" || goos == "ios" {
		return n.darwin
	}
	return n.linux
}

// fcntlCommand inverts csrc/interpose.c's fcntl_index: -1 for the "other" slot.
func fcntlCommand(i int) int {
	switch {
	case i < 192:
		return i
	case i < 255:
		return 1024 + i - 192
	}
	return -1
}

func fcntlName(goos string, i int) string {
	if cmd := fcntlCommand(i); cmd >= 0 {
		return trace.FcntlCall(goos, cmd)
	}
	return "fcntl(other)"
}

var openFlagNames = [nOpenFlags]string{"O_DSYNC", "O_SYNC", "O_DIRECT"}

// errBadLayout reports a library that disagrees with this reader.
var errBadLayout = errors.New("interpose: the library and durabench disagree on the counters layout (a stale build?); remove the cached library and retry")

// decode adds the counters file data, written by programs on goos, to c.
func decode(data []byte, goos string, classify trace.Classifier, c *trace.Counts) error {
	if len(data) != sharedSize {
		return fmt.Errorf("interpose: counters file is %d bytes, want %d", len(data), sharedSize)
	}
	var s shared
	if err := binary.Read(bytes.NewReader(data), binary.NativeEndian, &s); err != nil {
		return fmt.Errorf("interpose: read counters: %w", err)
	}
	if s.Magic != layoutMagic {
		return fmt.Errorf("interpose: counters file has magic %#x, want %#x", s.Magic, uint64(layoutMagic))
	}
	if s.BadLayout != 0 {
		return errBadLayout
	}

	add := func(n *counters, put func(name string, v uint64)) {
		for i, v := range n.Calls {
			if v > 0 && i != callFcntl { // fcntl is counted by command below
				name := callName(goos, i)
				if name == "" {
					name = "call" + strconv.Itoa(i)
				}
				put(name, v)
			}
		}
		for i, v := range n.Fcntl {
			if v > 0 {
				put(fcntlName(goos, i), v)
			}
		}
	}
	add(&s.Total, func(name string, v uint64) { c.Syscalls[name] += v })
	c.WriteBytes += s.Total.WriteBytes
	for i, v := range s.Total.OpenFlags {
		if v > 0 {
			c.OpenFlags[openFlagNames[i]] += v
		}
	}

	for i := range s.Files {
		f := &s.Files[i]
		if f.State != 2 {
			continue
		}
		end := bytes.IndexByte(f.Path[:], 0)
		if end < 0 {
			end = len(f.Path)
		}
		path := string(f.Path[:end])
		class := classify(path, f.IsDir != 0)
		add(&f.N, func(name string, v uint64) { c.AddFileCall(path, class, name, v) })
		for i, v := range f.N.OpenFlags {
			if v > 0 {
				c.AddFileCall(path, class, openFlagNames[i], v)
			}
		}
		if f.N.WriteBytes > 0 {
			c.AddFileBytes(path, class, f.N.WriteBytes)
		}
	}

	c.Windowed = s.Windowed != 0
	if s.Processes == 0 {
		c.Notes = append(c.Notes, "the interposer was never loaded: statically linked programs (Go on Linux), "+
			"setuid programs and, on macOS, SIP-protected ones (/usr/bin/...) ignore LD_PRELOAD and DYLD_INSERT_LIBRARIES")
	}
	if s.FilesFull != 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("more than %d files: calls on the others are counted in total but not by file", nFiles))
	}
	c.Notes = append(c.Notes, "the interposer sees calls through libc only: not raw system calls (pure Go on Linux), nor libc's internal calls")
	return nil
}
