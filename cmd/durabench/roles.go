package main

import (
	"fmt"
	"strings"
)

// Child roles. durabench starts copies of itself for work that must run in
// a process of its own: a counting pass traced by syscount (__count-sync,
// __count-wal, __count-sqlite), the neighbor process of durabench neighbor
// (__neighbor), and the workloads of the crash simulation to come. Each such
// role is registered here, once, by name, and main dispatches it before it
// looks at the public commands. Roles are never listed: not by --help, not
// in the unknown-command message, not in docs; users never call them.
//
// To add one, call registerRole from an init function of the file that owns
// it:
//
//	func init() { registerRole("__crash-wal", runCrashWALRole) }
//
// The name must start with "__", so that it cannot collide with a public
// command. The function gets the arguments after the name and returns the
// process's exit status; roleRun adapts a func(args) error to that, with
// the exit statuses of the public commands.

// roles maps each child role's name to the function that plays it.
var roles = map[string]func(args []string) int{}

// registerRole adds a child role. A name without the "__" prefix, or one
// registered twice, is a programming error and panics at start-up.
func registerRole(name string, run func(args []string) int) {
	if !strings.HasPrefix(name, "__") {
		panic(fmt.Sprintf("durabench: child role %q must start with __", name))
	}
	if _, dup := roles[name]; dup {
		panic(fmt.Sprintf("durabench: child role %q registered twice", name))
	}
	roles[name] = run
}

// roleRun adapts a role written as func(args) error: its error is printed
// after the role's name, and the exit status is that of a command (2 for
// refused input, 1 for a failure).
func roleRun(name string, run func(args []string) error) func(args []string) int {
	return func(args []string) int { return exitStatus(name, run(args), false) }
}

// dispatchRole runs the child role args[0] names, if it names one.
func dispatchRole(args []string) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	run, ok := roles[args[0]]
	if !ok {
		return 0, false
	}
	return run(args[1:]), true
}
