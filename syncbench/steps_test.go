package syncbench

import "testing"

func TestStepsCountsProgressLines(t *testing.T) {
	for _, order := range []Order{Sequential, Interleaved} {
		cfg := small()
		cfg.Order = order
		cfg.FileSize = 2 << 20 // room for the interleaved methods sharing a file
		lines := 0
		if _, err := Run(newRun(t), cfg, func(string) { lines++ }); err != nil {
			t.Fatal(err)
		}
		if lines != cfg.Steps() {
			t.Errorf("%s: Run gave %d progress lines, Steps() = %d", order, lines, cfg.Steps())
		}
	}
}
