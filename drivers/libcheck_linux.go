package drivers

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime"
)

// elfMachines is the ELF machine of each 64-bit architecture the system
// engine runs on.
var elfMachines = map[string]elf.Machine{
	"amd64":   elf.EM_X86_64,
	"arm64":   elf.EM_AARCH64,
	"riscv64": elf.EM_RISCV,
	"ppc64le": elf.EM_PPC64,
	"s390x":   elf.EM_S390,
	"loong64": elf.EM_LOONGARCH,
}

// checkLibFile checks, without loading it, that the regular file f (of
// size bytes) is an ELF shared object for this machine, whole (every loaded
// segment and every section lies within the file: mapping a truncated
// library succeeds, and touching the missing pages then raises SIGBUS), and
// that it defines every function in syms.
func checkLibFile(path string, f *os.File, size int64, syms []string) error {
	ef, err := elf.NewFile(f)
	if err != nil {
		if need, ok := elfHeadersEnd(f); ok && need > uint64(size) {
			return truncatedError(path, size, need)
		} else if ok {
			return fmt.Errorf("%s is a damaged ELF file (%v): copy the library again", path, err)
		}
		return fmt.Errorf("%s is not an ELF shared library (%v)", path, err)
	}
	if ef.Type != elf.ET_DYN {
		return fmt.Errorf("%s is an ELF file of type %s, not a shared library", path, ef.Type)
	}
	if want, ok := elfMachines[runtime.GOARCH]; ok && (ef.Machine != want || ef.Class != elf.ELFCLASS64) {
		return fmt.Errorf("%s is built for %s (%s), and this program for %s: give a library for %s", path, ef.Machine, ef.Class, runtime.GOARCH, runtime.GOARCH)
	}
	for _, p := range ef.Progs {
		if p.Type == elf.PT_LOAD && (p.Off > uint64(size) || p.Filesz > uint64(size)-p.Off) {
			return truncatedError(path, size, p.Off+p.Filesz)
		}
	}
	for _, s := range ef.Sections {
		if s.Type != elf.SHT_NOBITS && (s.Offset > uint64(size) || s.Size > uint64(size)-s.Offset) {
			return truncatedError(path, size, s.Offset+s.Size)
		}
	}
	dyn, err := ef.DynamicSymbols()
	if err != nil {
		return fmt.Errorf("%s has no readable table of exported functions (%v): is it a libsqlite3?", path, err)
	}
	defined := make(map[string]bool, len(dyn))
	for _, s := range dyn {
		switch elf.ST_TYPE(s.Info) {
		case elf.STT_FUNC, elf.STT_GNU_IFUNC:
			if s.Section != elf.SHN_UNDEF {
				defined[s.Name] = true
			}
		}
	}
	return missingSymbol(path, syms, defined)
}

// elfHeadersEnd reads the identification and header of a 64-bit ELF file
// and returns where its program and section header tables end, so that a
// file cut short before them is called truncated rather than "not ELF". It
// returns false if f does not start like a 64-bit ELF file.
func elfHeadersEnd(f io.ReaderAt) (uint64, bool) {
	var h [64]byte
	if _, err := f.ReadAt(h[:], 0); err != nil || string(h[:4]) != elf.ELFMAG || elf.Class(h[elf.EI_CLASS]) != elf.ELFCLASS64 {
		return 0, false
	}
	var bo binary.ByteOrder = binary.LittleEndian
	if elf.Data(h[elf.EI_DATA]) == elf.ELFDATA2MSB {
		bo = binary.BigEndian
	}
	phEnd := bo.Uint64(h[32:]) + uint64(bo.Uint16(h[54:]))*uint64(bo.Uint16(h[56:]))
	shEnd := bo.Uint64(h[40:]) + uint64(bo.Uint16(h[58:]))*uint64(bo.Uint16(h[60:]))
	return max(phEnd, shEnd), true
}
