package main

import "github.com/durabench/durabench/fixtures"

// checkSpace refuses a run that would leave less than fixtures' margin
// free under dir: need is what the run holds on disk at once, computed
// without overflow, and what names it.
func checkSpace(dir string, need int64, what string) error {
	return asUsage(fixtures.CheckSpace(dir, need, what, nil))
}
