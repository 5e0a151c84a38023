//go:build !race

package sqlitebench

// raceEnabled says whether this test binary runs the race detector, under
// which sync.Pool (used by purego) drops items at random and so allocates.
const raceEnabled = false
