// Command renamer is the test program of durabench crash run: it saves a
// settings file N times the way many programs do, by writing a temporary
// file and renaming it over the real one, and acknowledges each save. It
// also checks a crash state of what it saved.
//
//	renamer save N          the bug: write settings.tmp, rename it to settings,
//	                        fsync the directory; the file's data is never synced
//	renamer save N --fixed  fsync settings.tmp before the rename, the directory after
//	renamer check DIR ACKED the check command of durabench crash run
//
// Each save is acknowledged by writing "durabench-trace: ack N\n" to file
// descriptor -1, as any program can (the write fails with EBADF).
package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func main() {
	if len(os.Args) >= 3 && os.Args[1] == "save" {
		n, err := strconv.Atoi(os.Args[2])
		if err == nil {
			err = save(n, len(os.Args) > 3 && os.Args[3] == "--fixed")
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "renamer:", err)
			os.Exit(2)
		}
		return
	}
	if len(os.Args) == 4 && os.Args[1] == "check" {
		acked, err := strconv.Atoi(os.Args[3])
		if err != nil {
			fmt.Fprintln(os.Stderr, "renamer: bad acked count:", err)
			os.Exit(2)
		}
		os.Exit(check(os.Args[2], acked))
	}
	fmt.Fprintln(os.Stderr, "usage: renamer save N [--fixed] | renamer check DIR ACKED")
	os.Exit(2)
}

// contents is version v of the settings file: 1,500 bytes that say v.
func contents(v int) []byte {
	line := fmt.Sprintf("setting %d\n", v)
	b := bytes.Repeat([]byte(line), 1500/len(line))
	return append(b, fmt.Sprintf("end of version %d\n", v)...)
}

func save(n int, fixed bool) error {
	for v := 1; v <= n; v++ {
		f, err := os.OpenFile("settings.tmp", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := f.Write(contents(v)); err != nil {
			return err
		}
		if fixed {
			if err := syscall.Fsync(int(f.Fd())); err != nil {
				return err
			}
		}
		if err := f.Close(); err != nil {
			return err
		}
		if err := os.Rename("settings.tmp", "settings"); err != nil {
			return err
		}
		if err := syncDir("."); err != nil {
			return err
		}
		syscall.Write(-1, []byte("durabench-trace: ack "+strconv.Itoa(v)+"\n"))
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return syscall.Fsync(int(d.Fd()))
}

// check judges a state: settings must hold a whole version, at least the
// last acknowledged one.
func check(dir string, acked int) int {
	b, err := os.ReadFile(dir + "/settings")
	if os.IsNotExist(err) {
		if acked == 0 {
			return 0
		}
		fmt.Printf("lost %d\n", acked)
		return 1
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	v := 0
	if i := bytes.LastIndex(b, []byte("end of version ")); i >= 0 {
		v, _ = strconv.Atoi(strings.TrimSpace(string(b[i+len("end of version "):])))
	}
	if v == 0 || !bytes.Equal(b, contents(v)) {
		fmt.Printf("corrupt settings holds %d bytes that are no whole version\n", len(b))
		if acked > 0 {
			fmt.Printf("lost %d\n", acked)
		}
		return 1
	}
	if v < acked {
		fmt.Printf("lost %d\n", acked-v)
		return 1
	}
	return 0
}
