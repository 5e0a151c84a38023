package main

import (
	"path/filepath"
	"testing"
)

// TestDocsCrashSubcommands: the crash page shows each of its subcommands'
// --help as the current code prints it (go test ./cmd/durabench -run
// TestDocs -update rewrites the blocks).
func TestDocsCrashSubcommands(t *testing.T) {
	page := filepath.Join(repoRoot, "docs", "commands", "crash.md")
	for _, sub := range []string{"wal", "run", "show"} {
		help, stderr, code := durabench(t, "crash", sub, "--help")
		if code != 0 {
			t.Fatalf("durabench crash %s --help: exit %d: %s", sub, code, stderr)
		}
		checkGenerated(t, page, "durabench crash "+sub+" --help", helpBlock("crash "+sub+" --help", help), nil)
	}
}
