//go:build linux && (amd64 || arm64)

package record

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/durabench/durabench/crash"
	"github.com/durabench/durabench/syscalls/trace"
)

// Record runs cmd under the ptrace tracer and returns the log of what it did
// to the files under root (which must be an existing directory), and the
// tracer's counts of the same run. The contents of the regular files under
// root before cmd starts are the log's initial state.
//
// cmd must not have been started. A command that fails or is killed is not
// an error: its log up to that point is returned, and Counts.Exit says how
// it ended.
func Record(cmd *exec.Cmd, root string) (*crash.Log, *trace.Counts, error) {
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("record: root %s: %w", root, err)
	}
	r := &recorder{
		root:    abs,
		log:     &crash.Log{Initial: map[string][]byte{}, Inodes: map[string]uint64{}},
		inodes:  map[devIno]uint64{},
		names:   map[uint64]string{},
		dirs:    map[uint64]bool{},
		pending: map[int]*pathCall{},
		noted:   map[string]bool{},
	}
	if err := r.scan(); err != nil {
		return nil, nil, err
	}
	counts, err := trace.Run(cmd, trace.Options{Hook: r})
	if err != nil {
		return nil, nil, err
	}
	return r.log, counts, nil
}

// devIno is a file's identity in the kernel.
type devIno struct{ dev, ino uint64 }

// recorder is the trace.Hook that builds the log. Only the tracer's thread
// uses it.
type recorder struct {
	root    string // absolute, symbolic links resolved
	log     *crash.Log
	inodes  map[devIno]uint64 // the kernel's identity → the log's inode number
	next    uint64            // the last inode number given
	names   map[uint64]string // inode → last known path, relative to root
	dirs    map[uint64]bool   // inodes that are directories
	pending map[int]*pathCall // by thread: the path call between entry and exit
	noted   map[string]bool
	rand    uint64 // the state of the fixed random stream (fixRandom)
	linkBuf [unix.PathMax]byte
	fdinfo  [4096]byte
}

// The kinds of path call, normalised to their *at forms.
type callKind uint8

const (
	kOpen     callKind = iota + 1
	kMkdir             // mkdir, mkdirat
	kUnlink            // unlink, unlinkat, rmdir
	kRename            // rename, renameat, renameat2
	kTruncate          // truncate(path)
	kLink              // link, linkat, symlink, symlinkat: noted only
)

// atCWD is AT_FDCWD as a descriptor argument.
const atCWD = unix.AT_FDCWD

// pathCall is a call that names files by path, as read at its entry.
type pathCall struct {
	kind          callKind
	dirfd, dirfd2 int
	path, path2   uint64 // addresses in the task
	flags         uint64
	name          string // kLink: the call's name

	// Filled at entry.
	abs, abs2 string // resolved paths
	in, in2   bool   // under root
	existed   bool   // kOpen: the path named something before the call
	id        devIno // kUnlink, kRename, kTruncate: what the path named
	isDir     bool
}

// scan numbers root and everything under it, and keeps the contents of its
// regular files.
func (r *recorder) scan() error {
	return filepath.WalkDir(r.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("record: read the initial state: %w", err)
		}
		rel, _ := r.rel(path)
		var st unix.Stat_t
		if err := unix.Lstat(path, &st); err != nil {
			return fmt.Errorf("record: read the initial state: %w", err)
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			ino := r.newInode(st, rel, true)
			r.log.Inodes[rel] = ino
		case unix.S_IFREG:
			b, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("record: read the initial state: %w", err)
			}
			ino := r.newInode(st, rel, false)
			r.log.Inodes[rel] = ino
			r.log.Initial[rel] = b
		default:
			r.note("the initial state has %s, which is neither a file nor a directory: left out", rel)
		}
		return nil
	})
}

// newInode gives the file with st a new inode number, named rel.
func (r *recorder) newInode(st unix.Stat_t, rel string, dir bool) uint64 {
	r.next++
	r.inodes[devIno{st.Dev, st.Ino}] = r.next
	r.names[r.next] = rel
	if dir {
		r.dirs[r.next] = true
	}
	return r.next
}

// rel returns abs relative to root, and whether it is under root at all.
func (r *recorder) rel(abs string) (string, bool) {
	switch {
	case abs == r.root:
		return ".", true
	case strings.HasPrefix(abs, r.root+"/"):
		return abs[len(r.root)+1:], true
	}
	return "", false
}

func (r *recorder) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !r.noted[s] {
		r.noted[s] = true
		r.log.Notes = append(r.log.Notes, s)
	}
}

func (r *recorder) add(e crash.Event) { r.log.Events = append(r.log.Events, e) }

// Ack records an acknowledgement mark.
func (r *recorder) Ack(pid int, n uint64) { r.add(crash.Event{Op: crash.OpAck, Ack: n}) }

// Enter reads what a path call names before the call changes it.
func (r *recorder) Enter(c *trace.Call) {
	delete(r.pending, c.Pid)
	if c.Compat {
		r.note("32-bit system calls are not recorded")
		return
	}
	p, ok := r.pathCallOf(c)
	if !ok {
		return
	}
	p.abs, p.in = r.resolve(c.Pid, p.dirfd, p.path)
	if p.kind == kRename {
		p.abs2, p.in2 = r.resolve(c.Pid, p.dirfd2, p.path2)
	}
	if !p.in && !p.in2 {
		return
	}
	var st unix.Stat_t
	if unix.Lstat(p.abs, &st) == nil {
		p.existed = true
		p.id = devIno{st.Dev, st.Ino}
		p.isDir = st.Mode&unix.S_IFMT == unix.S_IFDIR
	}
	r.pending[c.Pid] = &p
}

// pathCallOf normalises the path calls; ok is false for any other call.
func (r *recorder) pathCallOf(c *trace.Call) (pathCall, bool) {
	a := c.Args
	fd := func(v uint64) int { return int(int32(v)) }
	switch c.Nr {
	case unix.SYS_OPENAT:
		return pathCall{kind: kOpen, dirfd: fd(a[0]), path: a[1], flags: a[2]}, true
	case unix.SYS_OPENAT2:
		var how [8]byte
		if trace.ReadMem(c.Pid, a[2], how[:]) != nil {
			return pathCall{}, false
		}
		return pathCall{kind: kOpen, dirfd: fd(a[0]), path: a[1], flags: binary.LittleEndian.Uint64(how[:])}, true
	case unix.SYS_MKDIRAT:
		return pathCall{kind: kMkdir, dirfd: fd(a[0]), path: a[1]}, true
	case unix.SYS_UNLINKAT:
		return pathCall{kind: kUnlink, dirfd: fd(a[0]), path: a[1], flags: a[2]}, true
	case unix.SYS_RENAMEAT:
		return pathCall{kind: kRename, dirfd: fd(a[0]), path: a[1], dirfd2: fd(a[2]), path2: a[3]}, true
	case unix.SYS_RENAMEAT2:
		return pathCall{kind: kRename, dirfd: fd(a[0]), path: a[1], dirfd2: fd(a[2]), path2: a[3], flags: a[4]}, true
	case unix.SYS_TRUNCATE:
		return pathCall{kind: kTruncate, dirfd: atCWD, path: a[0], flags: a[1]}, true
	case unix.SYS_LINKAT:
		return pathCall{kind: kLink, dirfd: fd(a[2]), path: a[3], name: "linkat"}, true
	case unix.SYS_SYMLINKAT:
		return pathCall{kind: kLink, dirfd: fd(a[1]), path: a[2], name: "symlinkat"}, true
	}
	return legacyCall(c)
}

// Exit records a call that succeeded.
func (r *recorder) Exit(c *trace.Call) {
	p := r.pending[c.Pid]
	delete(r.pending, c.Pid)
	if c.Compat || c.Ret < 0 {
		return
	}
	if p != nil {
		r.pathExit(c, p)
		return
	}
	a := c.Args
	switch c.Nr {
	case unix.SYS_WRITE, unix.SYS_PWRITE64, unix.SYS_WRITEV, unix.SYS_PWRITEV, unix.SYS_PWRITEV2:
		r.write(c)
	case unix.SYS_FSYNC:
		r.sync(c.Pid, a[0], crash.SyncFsync)
	case unix.SYS_FDATASYNC:
		r.sync(c.Pid, a[0], crash.SyncFdatasync)
	case unix.SYS_SYNC_FILE_RANGE:
		r.sync(c.Pid, a[0], crash.SyncFileRange)
	case unix.SYS_SYNCFS:
		if ino, _, _, ok := r.fdInode(c.Pid, a[0]); ok {
			r.add(crash.Event{Op: crash.OpSync, Inode: ino, Path: r.names[ino], Dir: r.dirs[ino], Sync: crash.SyncFS})
		}
	case unix.SYS_SYNC:
		r.add(crash.Event{Op: crash.OpSync, Sync: crash.SyncFS})
	case unix.SYS_FTRUNCATE:
		if ino, _, _, ok := r.fdInode(c.Pid, a[0]); ok {
			r.add(crash.Event{Op: crash.OpTruncate, Inode: ino, Path: r.names[ino], Size: int64(a[1])})
		}
	case unix.SYS_FALLOCATE:
		ino, _, _, ok := r.fdInode(c.Pid, a[0])
		if !ok {
			return
		}
		mode := a[1]
		if mode&^unix.FALLOC_FL_KEEP_SIZE != 0 {
			r.note("fallocate mode %#x on %s (punching or zeroing a range) is not recorded", mode, r.names[ino])
			return
		}
		r.add(crash.Event{Op: crash.OpFallocate, Inode: ino, Path: r.names[ino], Off: int64(a[2]), Size: int64(a[3]), KeepSize: mode != 0})
	case unix.SYS_MMAP:
		const shared = unix.MAP_SHARED | unix.MAP_SHARED_VALIDATE
		if a[3]&shared != 0 && a[2]&unix.PROT_WRITE != 0 && a[3]&unix.MAP_ANONYMOUS == 0 {
			if ino, _, _, ok := r.fdInode(c.Pid, a[4]); ok {
				r.note("%s is mapped shared and writable: stores into it make no system call and are not recorded", r.names[ino])
			}
		}
	case unix.SYS_COPY_FILE_RANGE:
		r.noteFd(c.Pid, a[2], "copy_file_range")
	case unix.SYS_SENDFILE:
		r.noteFd(c.Pid, a[0], "sendfile")
	case unix.SYS_IO_URING_SETUP:
		r.note("io_uring in use: I/O submitted through a ring makes no system call and is not recorded")
	case unix.SYS_GETRANDOM:
		r.fixRandom(c.Pid, a[0], c.Ret)
	case unix.SYS_READ:
		if n, err := unix.Readlink(r.fdLink(c.Pid, a[0]), r.linkBuf[:]); err == nil {
			if dev := string(r.linkBuf[:n]); dev == "/dev/urandom" || dev == "/dev/random" {
				r.fixRandom(c.Pid, a[1], c.Ret)
			}
		}
	}
}

// fixRandom replaces the n random bytes the kernel just gave task pid at
// addr (getrandom(2), or a read of /dev/urandom) with the recorder's own
// fixed stream, so that recording the same program again writes the same
// bytes: SQLite's journal nonce and WAL salts come from there, and a state
// identifier holds the hash of the log it was found in. (Randomness from
// the vDSO's getrandom makes no system call and is left alone.)
func (r *recorder) fixRandom(pid int, addr uint64, n int64) {
	if n <= 0 || n > 1<<20 {
		return
	}
	buf := make([]byte, n)
	for i := range buf {
		// splitmix64, one byte per step: any fixed stream would do.
		r.rand += 0x9e3779b97f4a7c15
		z := r.rand
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		buf[i] = byte(z ^ z>>31)
	}
	local := []unix.Iovec{{Base: &buf[0], Len: uint64(n)}}
	remote := []unix.RemoteIovec{{Base: uintptr(addr), Len: int(n)}}
	if w, err := unix.ProcessVMWritev(pid, local, remote, 0); err != nil || w != int(n) {
		r.note("random bytes could not be fixed (%v): a re-recording may differ", err)
	}
}

// noteFd notes an unmodelled call that wrote into a file under root.
func (r *recorder) noteFd(pid int, fd uint64, call string) {
	if ino, _, _, ok := r.fdInode(pid, fd); ok {
		r.note("%s into %s is not recorded", call, r.names[ino])
	}
}

// pathExit records a path call that succeeded.
func (r *recorder) pathExit(c *trace.Call, p *pathCall) {
	rel, _ := r.rel(p.abs)
	switch p.kind {
	case kOpen:
		if !p.in {
			return
		}
		if p.flags&unix.O_TMPFILE == unix.O_TMPFILE {
			r.note("an O_TMPFILE file in %s is not recorded", rel)
			return
		}
		var st unix.Stat_t
		if unix.Stat(r.fdLink(c.Pid, uint64(c.Ret)), &st) != nil {
			return
		}
		id := devIno{st.Dev, st.Ino}
		if !p.existed && p.flags&unix.O_CREAT != 0 {
			ino := r.newInode(st, rel, false)
			r.add(crash.Event{Op: crash.OpCreate, Path: rel, Inode: ino})
			return
		}
		ino, ok := r.inodes[id]
		if !ok {
			r.note("%s was opened but was not there at the start nor created by the program: its changes are not recorded", rel)
			return
		}
		if p.flags&unix.O_TRUNC != 0 && p.flags&unix.O_ACCMODE != unix.O_RDONLY && st.Mode&unix.S_IFMT == unix.S_IFREG {
			r.add(crash.Event{Op: crash.OpTruncate, Inode: ino, Path: rel, Size: 0})
		}
	case kMkdir:
		var st unix.Stat_t
		if !p.in || unix.Lstat(p.abs, &st) != nil {
			return
		}
		ino := r.newInode(st, rel, true)
		r.add(crash.Event{Op: crash.OpMkdir, Path: rel, Inode: ino})
	case kUnlink:
		if ino, ok := r.inodes[p.id]; ok && p.in {
			r.add(crash.Event{Op: crash.OpUnlink, Path: rel, Inode: ino, Dir: p.isDir})
		}
	case kTruncate:
		if ino, ok := r.inodes[p.id]; ok && p.in {
			r.add(crash.Event{Op: crash.OpTruncate, Path: rel, Inode: ino, Size: int64(p.flags)})
		}
	case kLink:
		if p.in {
			r.note("%s named by %s is not recorded", rel, p.name)
		}
	case kRename:
		r.rename(p, rel)
	}
}

// rename records a rename that succeeded.
func (r *recorder) rename(p *pathCall, rel string) {
	rel2, _ := r.rel(p.abs2)
	ino, known := r.inodes[p.id]
	switch {
	case p.flags&unix.RENAME_EXCHANGE != 0:
		r.note("rename of %s and %s with RENAME_EXCHANGE is not recorded", rel, rel2)
	case !known || !p.in:
		if p.in2 {
			r.note("%s was renamed in from outside the recorded files: its contents are not recorded", rel2)
		}
	case !p.in2:
		r.add(crash.Event{Op: crash.OpUnlink, Path: rel, Inode: ino, Dir: p.isDir})
	default:
		r.add(crash.Event{Op: crash.OpRename, Path: rel, NewPath: rel2, Inode: ino})
		r.names[ino] = rel2
		if p.isDir {
			for i, name := range r.names {
				if strings.HasPrefix(name, rel+"/") {
					r.names[i] = rel2 + name[len(rel):]
				}
			}
		}
	}
}

// sync records a sync of the file behind fd.
func (r *recorder) sync(pid int, fd uint64, kind crash.SyncKind) {
	if ino, _, _, ok := r.fdInode(pid, fd); ok {
		r.add(crash.Event{Op: crash.OpSync, Inode: ino, Path: r.names[ino], Dir: r.dirs[ino], Sync: kind})
	}
}

// write records a write call's bytes, where they went, and the flags of its
// descriptor.
func (r *recorder) write(c *trace.Call) {
	a := c.Args
	ino, pos, flags, ok := r.fdInode(c.Pid, a[0])
	if !ok || c.Ret == 0 {
		return
	}
	n := c.Ret
	data := make([]byte, n)
	var err error
	switch c.Nr {
	case unix.SYS_WRITE, unix.SYS_PWRITE64:
		err = trace.ReadMem(c.Pid, a[1], data)
	default:
		err = r.readIovecs(c.Pid, a[1], a[2], data)
	}
	if err != nil {
		r.note("the bytes of a write to %s could not be read: %v", r.names[ino], err)
		return
	}
	off := pos - n // write, writev, and pwritev2 at offset -1: the position moved past the bytes
	switch {
	case c.Nr == unix.SYS_PWRITE64, c.Nr == unix.SYS_PWRITEV, c.Nr == unix.SYS_PWRITEV2 && int64(a[3]) != -1:
		off = int64(a[3])
		if flags&unix.O_APPEND != 0 {
			r.note("a positioned write to %s opened O_APPEND went to its end, not to its offset: recorded at the offset", r.names[ino])
		}
	}
	r.add(crash.Event{Op: crash.OpWrite, Inode: ino, Path: r.names[ino], Off: off, Data: data,
		Durable: flags&unix.O_DSYNC != 0, Direct: flags&unix.O_DIRECT != 0})
}

// readIovecs reads len(data) bytes from the iovec array of cnt entries at
// addr in task pid.
func (r *recorder) readIovecs(pid int, addr, cnt uint64, data []byte) error {
	if cnt > 1024 {
		return fmt.Errorf("%d iovecs", cnt)
	}
	iov := make([]byte, 16*cnt)
	if err := trace.ReadMem(pid, addr, iov); err != nil {
		return err
	}
	for i := uint64(0); i < cnt && len(data) > 0; i++ {
		base := binary.LittleEndian.Uint64(iov[16*i:])
		n := min(binary.LittleEndian.Uint64(iov[16*i+8:]), uint64(len(data)))
		if err := trace.ReadMem(pid, base, data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	if len(data) > 0 {
		return fmt.Errorf("the iovecs hold %d bytes fewer than written", len(data))
	}
	return nil
}

// fdLink is the /proc path of task pid's descriptor fd.
func (r *recorder) fdLink(pid int, fd uint64) string {
	return "/proc/" + strconv.Itoa(pid) + "/fd/" + strconv.Itoa(int(int32(fd)))
}

// fdInode returns the inode number of the recorded file behind descriptor
// fd of task pid, with the descriptor's position and open flags; ok is
// false for any other descriptor.
func (r *recorder) fdInode(pid int, fd uint64) (ino uint64, pos int64, flags int, ok bool) {
	if int32(fd) < 0 {
		return 0, 0, 0, false
	}
	var st unix.Stat_t
	if unix.Stat(r.fdLink(pid, fd), &st) != nil {
		return 0, 0, 0, false
	}
	ino, ok = r.inodes[devIno{st.Dev, st.Ino}]
	if !ok {
		return 0, 0, 0, false
	}
	pos, flags = r.readFdinfo(pid, fd)
	return ino, pos, flags, true
}

// readFdinfo reads a descriptor's position and flags from
// /proc/PID/fdinfo/FD ("pos:\t123\nflags:\t0100002\n...").
func (r *recorder) readFdinfo(pid int, fd uint64) (pos int64, flags int) {
	path := "/proc/" + strconv.Itoa(pid) + "/fdinfo/" + strconv.Itoa(int(int32(fd)))
	f, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, 0
	}
	n, _ := unix.Read(f, r.fdinfo[:])
	unix.Close(f)
	for _, line := range bytes.Split(r.fdinfo[:max(n, 0)], []byte("\n")) {
		k, v, _ := bytes.Cut(line, []byte(":"))
		v = bytes.TrimSpace(v)
		switch string(k) {
		case "pos":
			pos, _ = strconv.ParseInt(string(v), 10, 64)
		case "flags":
			f, _ := strconv.ParseInt(string(v), 8, 64)
			flags = int(f)
		}
	}
	return pos, flags
}

// resolve returns the absolute path a path argument names (the file itself
// is not followed if it is a symbolic link), and whether it is under root.
func (r *recorder) resolve(pid int, dirfd int, addr uint64) (string, bool) {
	path, ok := readString(pid, addr)
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(path) {
		base := "/proc/" + strconv.Itoa(pid) + "/cwd"
		if dirfd != atCWD {
			base = r.fdLink(pid, uint64(dirfd))
		}
		n, err := unix.Readlink(base, r.linkBuf[:])
		if err != nil {
			return "", false
		}
		path = filepath.Join(string(r.linkBuf[:n]), path)
	}
	path = filepath.Clean(path)
	if _, in := r.rel(path); in {
		return path, true
	}
	// A path reaching root through a symbolic link in its directory.
	if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		path = filepath.Join(dir, filepath.Base(path))
	}
	_, in := r.rel(path)
	return path, in
}

// readString reads a NUL-terminated string at addr in task pid, a page at a
// time (a read must not cross into an unmapped page).
func readString(pid int, addr uint64) (string, bool) {
	const page = 4096
	var b []byte
	var chunk [page]byte
	for len(b) < unix.PathMax {
		n := page - addr%page
		buf := chunk[:n]
		if trace.ReadMem(pid, addr, buf) != nil {
			return "", false
		}
		if i := bytes.IndexByte(buf, 0); i >= 0 {
			return string(append(b, buf[:i]...)), true
		}
		b = append(b, buf...)
		addr += n
	}
	return "", false
}
