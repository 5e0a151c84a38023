package main

func runCompare(args []string) error { return usageErrorf("not yet") }
