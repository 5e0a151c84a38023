package drivers

import (
	"bufio"
	"debug/elf"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// SystemSyncCall returns the system call the system engine's library makes
// for every sync: "fdatasync" when the library was built with
// HAVE_FDATASYNC (SQLite's configure script finds it on Linux; Debian's
// build), "fsync" otherwise (os_unix.c then defines fdatasync as fsync).
// PRAGMA compile_options does not list HAVE_FDATASYNC, so the answer comes
// from the library file itself: whether it imports fdatasync. It loads the
// library as Lookup would, and returns the file it read.
func SystemSyncCall(opts Options) (call, file string, err error) {
	lib, err := loadSQLiteLib(opts.SystemLib)
	if err != nil {
		return "", "", err
	}
	file, err = mappedFile(lib.libversion)
	if err != nil {
		return "", "", err
	}
	ef, err := elf.Open(file)
	if err != nil {
		return "", file, fmt.Errorf("drivers: read %s: %w", file, err)
	}
	defer ef.Close()
	syms, err := ef.DynamicSymbols()
	if err != nil {
		return "", file, fmt.Errorf("drivers: read the symbols of %s: %w", file, err)
	}
	call = "fsync"
	for _, s := range syms {
		if s.Name == "fdatasync" && s.Section == elf.SHN_UNDEF {
			call = "fdatasync"
		}
	}
	return call, file, nil
}

// mappedFile returns the file this process has mapped at addr, from
// /proc/self/maps.
func mappedFile(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return "", fmt.Errorf("drivers: find the loaded library: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// start-end perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if ok && err1 == nil && err2 == nil && uint64(addr) >= start && uint64(addr) < end {
			return strings.Join(fields[5:], " "), nil
		}
	}
	return "", fmt.Errorf("drivers: no file in /proc/self/maps holds address %#x", addr)
}
