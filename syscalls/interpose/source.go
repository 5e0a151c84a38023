package interpose

import _ "embed"

// Source is the C source of the interposer library, built at run time by
// Build. It lives in a directory of its own because the go command refuses
// C files in a package that does not use cgo.
//
//go:embed csrc/interpose.c
var Source []byte
