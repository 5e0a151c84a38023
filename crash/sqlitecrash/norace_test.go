//go:build !race

package sqlitecrash

// raceEnabled reports a build with the race detector.
const raceEnabled = false
