package drivers

// defaultSystemLib is the system engine's library on Linux: the soname,
// found by the dynamic loader's search (LD_LIBRARY_PATH, ld.so.cache, ...),
// as a C program linked with -lsqlite3 would find it.
const defaultSystemLib = "libsqlite3.so.0"

// systemLibHint says how to get the default library on Linux.
const systemLibHint = "install it (Debian/Ubuntu: apt-get install libsqlite3-0; Fedora: dnf install sqlite-libs) or name another libsqlite3 to load"
