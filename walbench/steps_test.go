package walbench

import "testing"

func TestStepsCountsProgressLines(t *testing.T) {
	cfg := smallConfig()
	lines := 0
	if _, err := Run(newRun(t), cfg, func(string) { lines++ }); err != nil {
		t.Fatal(err)
	}
	if lines != cfg.Steps() {
		t.Errorf("Run gave %d progress lines, Steps() = %d", lines, cfg.Steps())
	}
}
