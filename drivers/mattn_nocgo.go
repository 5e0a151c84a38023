//go:build !cgo

package drivers

// mattnBuilt says that this build leaves the mattn engine out (no cgo).
const mattnBuilt = false

// loadMattn says why the mattn engine is missing: without cgo,
// github.com/mattn/go-sqlite3 compiles into a stub that fails at run time, so
// this build leaves it out altogether.
func loadMattn(Options) (func(path string) (conn, error), error) {
	return nil, &unavailableError{
		engine: "mattn",
		reason: "built without cgo (CGO_ENABLED=0): rebuild with cgo and a C compiler to get it",
	}
}
