package drivers

import (
	"debug/macho"
	"fmt"

	"os"
	"runtime"
)

// machoCPUs is the Mach-O CPU type of each architecture macOS runs.
var machoCPUs = map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}

// checkLibFile checks, without loading it, that the regular file f (of
// size bytes) is a Mach-O dynamic library for this machine (alone or in a
// universal file), whole (every segment lies within the file), and that it
// exports every function in syms.
func checkLibFile(path string, f *os.File, size int64, syms []string) error {
	want := machoCPUs[runtime.GOARCH]
	mf, err := macho.NewFile(f)
	limit := uint64(size)
	if err != nil {
		fat, ferr := macho.NewFatFile(f)
		if ferr != nil {
			return fmt.Errorf("%s is not a Mach-O library (%v)", path, err)
		}
		for _, a := range fat.Arches {
			if a.Cpu == want {
				if uint64(a.Offset)+uint64(a.Size) > uint64(size) {
					return truncatedError(path, size, uint64(a.Offset)+uint64(a.Size))
				}
				mf, limit = a.File, uint64(a.Size)
			}
		}
		if mf == nil {
			return fmt.Errorf("%s is a universal library without a part for %s", path, runtime.GOARCH)
		}
	}
	if mf.Cpu != want {
		return fmt.Errorf("%s is built for %s, and this program for %s: give a library for %s", path, mf.Cpu, runtime.GOARCH, runtime.GOARCH)
	}
	if mf.Type != macho.TypeDylib {
		return fmt.Errorf("%s is a Mach-O file of type %s, not a dynamic library", path, mf.Type)
	}
	for _, l := range mf.Loads {
		if s, ok := l.(*macho.Segment); ok && (s.Offset > limit || s.Filesz > limit-s.Offset) {
			return truncatedError(path, size, s.Offset+s.Filesz)
		}
	}
	if mf.Symtab == nil {
		return fmt.Errorf("%s has no symbol table: is it a libsqlite3?", path)
	}
	defined := make(map[string]bool, len(mf.Symtab.Syms))
	for _, s := range mf.Symtab.Syms {
		if s.Sect != 0 && len(s.Name) > 1 && s.Name[0] == '_' {
			defined[s.Name[1:]] = true
		}
	}
	return missingSymbol(path, syms, defined)
}
