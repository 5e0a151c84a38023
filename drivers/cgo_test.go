//go:build cgo

package drivers

// cgoEnabled says whether this test binary has cgo, and so the mattn engine.
const cgoEnabled = true
