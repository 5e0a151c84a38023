package envinfo

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// mountEntry is one line of /proc/PID/mountinfo (see proc(5)).
type mountEntry struct {
	major, minor uint32 // st_dev of files on this mount (for most file systems)
	root         string // the mount's root within its file system
	mountPoint   string
	options      string // per-mount options
	fsType       string
	source       string
	superOptions string // per-superblock options
}

// parseMountinfo parses the text of /proc/PID/mountinfo. Paths are
// unescaped ("\040" is a space).
func parseMountinfo(r io.Reader) ([]mountEntry, error) {
	var mounts []mountEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		m, err := parseMountinfoLine(line)
		if err != nil {
			return nil, fmt.Errorf("mountinfo line %d %q: %w", n, line, err)
		}
		mounts = append(mounts, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mountinfo: %w", err)
	}
	return mounts, nil
}

// parseMountinfoLine parses
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//
// where any number of optional fields precede the "-".
func parseMountinfoLine(line string) (mountEntry, error) {
	f := strings.Fields(line)
	sep := -1
	for i := 6; i < len(f); i++ {
		if f[i] == "-" {
			sep = i
			break
		}
	}
	if sep < 0 || len(f) < sep+3 {
		return mountEntry{}, fmt.Errorf("want 6 fields, optional fields, \"-\" and 2 or 3 more")
	}
	majStr, minStr, ok := strings.Cut(f[2], ":")
	if !ok {
		return mountEntry{}, fmt.Errorf("device %q is not major:minor", f[2])
	}
	major, err1 := strconv.ParseUint(majStr, 10, 32)
	minor, err2 := strconv.ParseUint(minStr, 10, 32)
	if err1 != nil || err2 != nil {
		return mountEntry{}, fmt.Errorf("device %q is not major:minor", f[2])
	}
	m := mountEntry{
		major:      uint32(major),
		minor:      uint32(minor),
		root:       unescapeMountPath(f[3]),
		mountPoint: unescapeMountPath(f[4]),
		options:    f[5],
		fsType:     f[sep+1],
		source:     unescapeMountPath(f[sep+2]),
	}
	if len(f) > sep+3 {
		m.superOptions = f[sep+3]
	}
	return m, nil
}

// unescapeMountPath undoes the kernel's octal escapes of space, tab,
// newline and backslash ("\040", "\011", "\012", "\134").
func unescapeMountPath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }

// findMount returns the mount that holds path (absolute, symbolic links
// resolved): the one with the longest mount point that is path or a parent
// of it, preferring mounts whose device is dev (path's st_dev), so that a
// mount hidden under a later one is not chosen. Of equal candidates the
// later one wins, as it is mounted on top.
func findMount(mounts []mountEntry, path string, major, minor uint32) (mountEntry, bool) {
	best, bestMatch := -1, false
	for i, m := range mounts {
		if !pathUnder(path, m.mountPoint) {
			continue
		}
		match := m.major == major && m.minor == minor
		switch {
		case best < 0,
			match && !bestMatch,
			match == bestMatch && len(m.mountPoint) >= len(mounts[best].mountPoint):
			best, bestMatch = i, match
		}
	}
	if best < 0 {
		return mountEntry{}, false
	}
	return mounts[best], true
}

// pathUnder reports whether path is dir or lies below it.
func pathUnder(path, dir string) bool {
	return dir == "/" || path == dir || strings.HasPrefix(path, dir+"/")
}
