package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/durabench/durabench/syscalls/interpose"
	"github.com/durabench/durabench/syscalls/trace"
	"github.com/durabench/durabench/syscount"
	"golang.org/x/sys/unix"
)

const traceSynopsis = `trace [--method ptrace|interpose] [--json] [--window] [--db PATH] -- CMD [ARGS...]

Runs CMD and counts the system calls that decide durability: fsync,
fdatasync, sync_file_range, msync, syncfs, sync, fcntl by command
(F_SETLK, F_FULLFSYNC, F_BARRIERFSYNC, ...), writes (calls and bytes),
ftruncate, fallocate, io_uring set-ups, and opens with O_DSYNC, O_SYNC or
O_DIRECT. Each call on a descriptor is attributed to its file, and the file
to its role: db, journal (-journal), wal (-wal), shm (-shm), directory, or
other. Every thread and child process of CMD is followed.

Methods:
  ptrace     (Linux, the default) sees every system call, pure Go included.
  interpose  a library inserted with LD_PRELOAD (DYLD_INSERT_LIBRARIES on
             macOS, the default there), compiled on first use with $CC or cc;
             sees calls made through libc only.

A traced run is slow (the program stops at every call): it gives counts,
never timings. The counts are printed after CMD ends, however it ends (a
crash, a kill, Ctrl-C); CMD's own exit status is part of the report. After
a Ctrl-C, whatever CMD left running (a daemon in its own session) is killed
2 s later, or at a second Ctrl-C. With --json, CMD's standard output
goes to standard error so that standard output holds only the JSON.`

const traceExamples = `  # What does the sqlite3 shell call for one commit?
  durabench trace -- sqlite3 /tmp/x.db "create table t(x); insert into t values(1);"

  # The same, with the files named by role for this database
  durabench trace --db /tmp/x.db -- sqlite3 /tmp/x.db "insert into t values(2);"

  # Python's os.fsync, counted by the interposer
  durabench trace --method interpose -- python3 -c 'import os; fd = os.open("/tmp/f", os.O_WRONLY | os.O_CREAT); os.fsync(fd)'

  # Only between the program's marks (trace.MarkStart / trace.MarkStop in Go)
  durabench trace --window --json -- ./mybench > counts.json`

func runTrace(args []string) error {
	fs := newFlags("trace", traceSynopsis, traceExamples)
	defaultMethod := "ptrace"
	if runtime.GOOS == "darwin" {
		defaultMethod = "interpose"
	}
	method := fs.String("method", defaultMethod, "ptrace (Linux) or interpose (Linux, macOS)")
	asJSON := fs.Bool("json", false, "print the counts as JSON")
	window := fs.Bool("window", false, "count only between the program's window marks")
	db := fs.String("db", "", "the database file: it and its -journal, -wal and -shm are classified by name (default: by suffix)")
	fs.SetInterspersed(false) // flags after CMD are CMD's
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErrorf("no command to trace: give it after --, e.g. durabench trace -- sqlite3 x.db .tables")
	}
	if strings.TrimSpace(fs.Arg(0)) == "" {
		return usageErrorf("the command to trace is empty: give a program after --, e.g. durabench trace -- sqlite3 x.db .tables")
	}
	if _, err := exec.LookPath(fs.Arg(0)); err != nil {
		return usageErrorf("cannot run %q: %v; give a program on $PATH or its path", fs.Arg(0), errors.Unwrap(err))
	}
	switch *method {
	case "ptrace":
		if runtime.GOOS != "linux" {
			return usageErrorf("--method ptrace is Linux-only; on %s use --method interpose", runtime.GOOS)
		}
	case "interpose":
	default:
		return usageErrorf("--method %q: want ptrace or interpose", *method)
	}
	classify := trace.ClassifyPath
	if *db != "" {
		path, err := canonical(*db)
		if err != nil {
			return usageErrorf("--db %s: %v", *db, err)
		}
		classify = trace.SQLiteClassifier(path)
	}

	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if *asJSON {
		cmd.Stdout = os.Stderr
	}
	// Ctrl-C reaches CMD, in the same process group; durabench outlives
	// it to report what it did until then. What CMD left running out of
	// the terminal's reach (a daemon in its own session) is killed after
	// traceGrace, or at a second Ctrl-C.
	interrupted := make(chan os.Signal, 2)
	signal.Notify(interrupted, os.Interrupt)
	defer signal.Stop(interrupted)
	stop := make(chan struct{})
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-interrupted:
		case <-finished:
			return
		}
		select {
		case <-interrupted:
		case <-time.After(traceGrace):
		case <-finished:
			return
		}
		close(stop)
	}()

	var counts *trace.Counts
	var err error
	if *method == "ptrace" {
		counts, err = trace.Run(cmd, trace.Options{Window: *window, Classify: classify, Stop: stop})
	} else {
		// SIGTERM or SIGHUP sent to durabench alone stops CMD too (the
		// tracer gets this from PTRACE_O_EXITKILL), then durabench exits
		// with 128+n.
		stopped := make(chan os.Signal, 1)
		signal.Notify(stopped, syscall.SIGTERM, syscall.SIGHUP)
		defer signal.Stop(stopped)
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		var got syscall.Signal // set before cancel, read after ctx is done
		go func() {
			select {
			case sig := <-stopped:
				got = sig.(syscall.Signal)
				cancel(fmt.Errorf("durabench got %s", unix.SignalName(got)))
			case <-ctx.Done():
			}
		}()
		counts, err = interpose.RunContext(ctx, cmd, interpose.Options{Window: *window, Classify: classify})
		if err != nil && ctx.Err() != nil {
			fmt.Fprintf(os.Stderr, "durabench: trace: %v; its counts file is removed\n", err)
			os.Exit(128 + int(got))
		}
	}
	if err != nil {
		return err
	}

	if *asJSON {
		return printJSON(counts)
	}
	fmt.Fprintln(os.Stdout)
	return syscount.WriteCounts(os.Stdout, counts)
}

// traceGrace is how long trace lets the traced program end by itself after
// a Ctrl-C before it kills every process still traced.
const traceGrace = 2 * time.Second

// canonical returns path as the kernel reports open files: absolute, with
// the symbolic links of its directory resolved (the file itself need not
// exist yet).
func canonical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}
