package sqlitebench

import "testing"

func TestStepsCountsProgressLines(t *testing.T) {
	f := &fakeEngine{}
	cfg := smallConfig("modernc")
	lines := 0
	if _, err := runWith(newRun(t), cfg, func(string) { lines++ }, f.lookup); err != nil {
		t.Fatal(err)
	}
	if lines != cfg.Steps() {
		t.Errorf("Run gave %d progress lines, Steps() = %d", lines, cfg.Steps())
	}
}
