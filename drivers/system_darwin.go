package drivers

// defaultSystemLib is the system engine's library on macOS: Apple's own
// SQLite. Since macOS 11 it lives only in the dyld shared cache, not on disk,
// so it is loaded by path without checking that the file exists.
const defaultSystemLib = "/usr/lib/libsqlite3.dylib"

// systemLibHint says how to get a library on macOS when Apple's cannot be
// loaded.
const systemLibHint = "name another libsqlite3 to load (Homebrew's: lib/libsqlite3.dylib under the sqlite formula's prefix)"
