package main

import (
	"fmt"
	"os"
)

// quiet is --quiet: print only the result.
var quiet bool

// status prints a line about the run on standard error, unless --quiet.
func status(format string, args ...any) {
	if !quiet {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}
