//go:build !darwin && !linux

package drivers

// loadSystem says why the system engine is missing: loading a library with
// purego is wired up for Linux and macOS only.
func loadSystem(Options) (func(path string) (conn, error), error) {
	return nil, &unavailableError{engine: "system", reason: "not on this OS: the system engine runs on Linux and macOS"}
}
