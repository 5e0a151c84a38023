package main

import (
	"strings"
	"testing"
)

func TestCountingOnlyWhereTheTracerRuns(t *testing.T) {
	for _, p := range [][2]string{{"linux", "amd64"}, {"linux", "arm64"}} {
		if err := countingOn(p[0], p[1]); err != nil {
			t.Errorf("%s/%s: %v", p[0], p[1], err)
		}
	}
	for _, p := range [][2]string{{"darwin", "arm64"}, {"linux", "386"}, {"freebsd", "amd64"}} {
		err := countingOn(p[0], p[1])
		want := "not on " + p[0] + "/" + p[1] + ": drop it, or count a command with durabench trace --method interpose"
		if err == nil || !isUsageError(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s/%s: %v, want a usage error saying %q", p[0], p[1], err, want)
		}
	}
}
