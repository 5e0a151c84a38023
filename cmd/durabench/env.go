package main

import (
	"os"

	"github.com/durabench/durabench/internal/envinfo"
)

const envSynopsis = `env --dir DIR [--json]

Prints the environment every result records: OS, kernel, CPU, Go, the file
system and mount options under DIR, the block device with its logical and
physical block sizes and write-cache mode, and any virtualisation. It warns
in plain words where sync figures cannot mean durability (tmpfs, a VM whose
host decides about flushes, a write-through cache). It writes nothing.`

const envExamples = `  durabench env --dir .
  durabench env --dir /dev/shm          # warns: tmpfs, sync is a no-op
  durabench env --dir /data --json > env.json`

func runEnv(args []string) error {
	fs := newFlags("env", envSynopsis, envExamples)
	dir := fs.String("dir", ".", "directory whose file system and device to describe")
	asJSON := fs.Bool("json", false, "print the record as JSON")
	if err := parseOptions(fs, args); err != nil {
		return err
	}
	if err := checkDir(*dir); err != nil {
		return err
	}
	env, err := envinfo.Collect(*dir)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env)
	}
	env.Render(os.Stdout)
	return nil
}
