//go:build darwin || linux

package drivers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// The system engine calls the platform's libsqlite3 through purego, without
// cgo. Invariants the code below keeps:
//
//   - Every C function is called with purego.SyscallN on an address from
//     Dlsym. purego.RegisterLibFunc would be tidier but goes through
//     reflect.MakeFunc, which allocates on every call.
//   - Where a Go pointer is passed (a NUL-terminated []byte for a string, a
//     *uintptr for an out-parameter), it is converted to uintptr in the
//     argument list of the SyscallN call itself, whose go:uintptrescapes
//     keeps the memory in place and alive for the call; C never keeps it.
//   - SyscallN heap-allocates its variadic slice on every such call, so the
//     statements a benchmark times pass arguments from a slice they own
//     instead (systemStmt.call). Those arguments are never Go pointers: the
//     payload is first copied into a buffer from sqlite3_malloc64 and bound
//     from there with SQLITE_STATIC.
//   - A C int result is read as int32(r1): the upper half of the register is
//     undefined.
//   - NULL is a 0 argument (zVfs, pzTail, the exec callback); no callbacks
//     are ever created (purego allows 2,000 per process, never freed).
//   - Arguments are passed one per register, so int64 parameters need a
//     64-bit platform; loadSystem refuses others.
//   - A library, once loaded, stays loaded for the life of the process.

// SQLite constants used here (sqlite3.h).
const (
	sqliteOK     = 0
	sqliteMisuse = 21
	sqliteRow    = 100
	sqliteDone   = 101

	sqliteOpenReadWrite = 0x00000002
	sqliteOpenCreate    = 0x00000004
	sqliteOpenURI       = 0x00000040
	sqliteOpenFullMutex = 0x00010000

	// sqliteStatic is SQLITE_STATIC, ((sqlite3_destructor_type)0): SQLite
	// uses the bound memory in place until it is rebound or finalized.
	sqliteStatic = 0
)

// systemOpenFlags match what the modernc and mattn drivers pass to
// sqlite3_open_v2, so that open flags are not among the engines'
// differences.
const systemOpenFlags = sqliteOpenReadWrite | sqliteOpenCreate | sqliteOpenFullMutex | sqliteOpenURI

// sqliteLib is one loaded libsqlite3: the addresses of the functions used.
type sqliteLib struct {
	openV2, closeV2, exec, prepareV2, step, reset, finalize uintptr
	bindInt64, bindBlob, bindNull                           uintptr
	columnCount, columnText, columnBytes                    uintptr
	errmsg, extendedErrcode                                 uintptr
	malloc64, free                                          uintptr
	libversionNumber, libversion                            uintptr

	path string // the library's name or path, for errors
}

// symbols lists the C functions the system engine calls, with where each
// one's address goes in lib.
func (lib *sqliteLib) symbols() []libSymbol {
	return []libSymbol{
		{"sqlite3_open_v2", &lib.openV2},
		{"sqlite3_close_v2", &lib.closeV2},
		{"sqlite3_exec", &lib.exec},
		{"sqlite3_prepare_v2", &lib.prepareV2},
		{"sqlite3_step", &lib.step},
		{"sqlite3_reset", &lib.reset},
		{"sqlite3_finalize", &lib.finalize},
		{"sqlite3_bind_int64", &lib.bindInt64},
		{"sqlite3_bind_blob", &lib.bindBlob},
		{"sqlite3_bind_null", &lib.bindNull},
		{"sqlite3_column_count", &lib.columnCount},
		{"sqlite3_column_text", &lib.columnText},
		{"sqlite3_column_bytes", &lib.columnBytes},
		{"sqlite3_errmsg", &lib.errmsg},
		{"sqlite3_extended_errcode", &lib.extendedErrcode},
		{"sqlite3_malloc64", &lib.malloc64},
		{"sqlite3_free", &lib.free},
		{"sqlite3_libversion_number", &lib.libversionNumber},
		{"sqlite3_libversion", &lib.libversion},
	}
}

// libSymbol is a C function's name and where its address is kept.
type libSymbol struct {
	name string
	addr *uintptr
}

// symbolNames returns the names of the C functions the engine needs.
func symbolNames() []string {
	var names []string
	for _, s := range (&sqliteLib{}).symbols() {
		names = append(names, s.name)
	}
	return names
}

// systemLibs caches loaded libraries by the name they were asked for.
var systemLibs struct {
	sync.Mutex
	m map[string]*sqliteLib
}

// loadSystem loads the library opts name (or the platform's own) and returns
// a function that opens connections with it.
func loadSystem(opts Options) (func(path string) (conn, error), error) {
	lib, err := loadSQLiteLib(opts.SystemLib)
	if err != nil {
		return nil, err
	}
	return lib.open, nil
}

func loadSQLiteLib(name string) (*sqliteLib, error) {
	if unsafe.Sizeof(uintptr(0)) < 8 {
		return nil, &unavailableError{engine: "system", reason: "needs a 64-bit platform (int64 arguments are passed in one register)"}
	}
	if name != "" && strings.ContainsRune(name, '/') {
		// A path must exist; a bare name is left to the loader's search.
		if _, err := os.Stat(name); err != nil {
			reason := fmt.Sprintf("library %s: %v", name, err)
			if errors.Is(err, fs.ErrNotExist) {
				reason = fmt.Sprintf("library %s: no such file", name)
			}
			return nil, &unavailableError{engine: "system", reason: reason, err: err}
		}
		if err := checkLib(name, symbolNames()); err != nil {
			return nil, &unavailableError{engine: "system", reason: err.Error(), err: err}
		}
	}
	path := name
	if path == "" {
		path = defaultSystemLib
	}

	systemLibs.Lock()
	defer systemLibs.Unlock()
	if lib, ok := systemLibs.m[path]; ok {
		return lib, nil
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, &unavailableError{
			engine: "system",
			reason: fmt.Sprintf("cannot load %s: %v: %s", path, err, systemLibHint),
			err:    err,
		}
	}
	lib := &sqliteLib{path: path}
	for _, sym := range lib.symbols() {
		addr, err := purego.Dlsym(h, sym.name)
		if err != nil {
			purego.Dlclose(h)
			return nil, &unavailableError{engine: "system", reason: noSymbol(path, sym.name), err: err}
		}
		*sym.addr = addr
	}
	if _, err := lib.checkVersion(path); err != nil {
		purego.Dlclose(h)
		return nil, &unavailableError{engine: "system", reason: err.Error(), err: err}
	}
	if systemLibs.m == nil {
		systemLibs.m = make(map[string]*sqliteLib)
	}
	systemLibs.m[path] = lib
	return lib, nil
}

// cInt returns the C int result of a purego.SyscallN call.
func cInt(r1, _, _ uintptr) int32 { return int32(r1) }

// cPtr returns the pointer result of a purego.SyscallN call.
func cPtr(r1, _, _ uintptr) uintptr { return r1 }

// cString returns s as a NUL-terminated C string in Go memory.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// cPointer turns an address C returned into a pointer. (Converting through
// memory rather than with unsafe.Pointer(p) states that p is not a Go
// pointer hidden in a uintptr.)
func cPointer(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

// goString copies the NUL-terminated C string at p ("" for NULL).
func goString(p uintptr) string {
	if p == 0 {
		return ""
	}
	base := cPointer(p)
	n := 0
	for *(*byte)(unsafe.Add(base, n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(base), n))
}

// sqliteErr builds the *Error for rc, the result of op on db, with the
// message and extended code SQLite keeps on db.
func (l *sqliteLib) sqliteErr(db uintptr, rc int32, op string) error {
	e := &Error{Engine: "system", Op: op, Code: int(rc) & 0xff, ExtendedCode: int(rc), Msg: "out of memory"}
	if db != 0 {
		e.Msg = goString(cPtr(purego.SyscallN(l.errmsg, db)))
		if ext := int(cInt(purego.SyscallN(l.extendedErrcode, db))); ext&0xff == e.Code {
			e.ExtendedCode = ext
		}
	}
	return e
}

// systemConn is a conn on a sqlite3* handle.
type systemConn struct {
	lib *sqliteLib
	db  uintptr
}

var _ conn = (*systemConn)(nil)

// open opens a connection, turning a Go panic while it reads what the
// library returns into an error (guarded); so do exec and query.
func (l *sqliteLib) open(path string) (c conn, err error) {
	err = guarded(l.path, "open", func() (e error) { c, e = l.openConn(path); return e })
	return c, err
}

func (c *systemConn) exec(sql string) error {
	return guarded(c.lib.path, "exec", func() error { return c.execSQL(sql) })
}

func (c *systemConn) query(sql string) (rows []string, err error) {
	err = guarded(c.lib.path, "query", func() (e error) { rows, e = c.queryRows(sql); return e })
	return rows, err
}

func (l *sqliteLib) openConn(path string) (conn, error) {
	cpath := cString(path)
	var db uintptr
	rc := cInt(purego.SyscallN(l.openV2, uintptr(unsafe.Pointer(&cpath[0])), uintptr(unsafe.Pointer(&db)), systemOpenFlags, 0))
	if rc != sqliteOK {
		err := l.sqliteErr(db, rc, fmt.Sprintf("open %q", path))
		if db != 0 {
			purego.SyscallN(l.closeV2, db)
		}
		return nil, err
	}
	return &systemConn{lib: l, db: db}, nil
}

func (c *systemConn) execSQL(sql string) error {
	csql := cString(sql)
	if rc := cInt(purego.SyscallN(c.lib.exec, c.db, uintptr(unsafe.Pointer(&csql[0])), 0, 0, 0)); rc != sqliteOK {
		return c.lib.sqliteErr(c.db, rc, fmt.Sprintf("exec %q", sql))
	}
	return nil
}

// prepareOne compiles the single statement in sql; op names the caller's
// operation in errors.
func (c *systemConn) prepareOne(sql, op string) (uintptr, error) {
	csql := cString(sql)
	var p, tail uintptr
	rc := cInt(purego.SyscallN(c.lib.prepareV2, c.db, uintptr(unsafe.Pointer(&csql[0])), uintptr(len(csql)),
		uintptr(unsafe.Pointer(&p)), uintptr(unsafe.Pointer(&tail))))
	if rc != sqliteOK {
		return 0, c.lib.sqliteErr(c.db, rc, fmt.Sprintf("%s %q", op, sql))
	}
	if p == 0 {
		return 0, fmt.Errorf("system: %s %q: no statement in it", op, sql)
	}
	if rest := strings.TrimSpace(sql[tail-uintptr(unsafe.Pointer(&csql[0])):]); rest != "" {
		purego.SyscallN(c.lib.finalize, p)
		return 0, fmt.Errorf("system: %s %q: more than one statement (%q follows): give one at a time", op, sql, rest)
	}
	return p, nil
}

func (c *systemConn) queryRows(sql string) ([]string, error) {
	p, err := c.prepareOne(sql, "query")
	if err != nil {
		return nil, err
	}
	defer purego.SyscallN(c.lib.finalize, p)
	var out []string
	for {
		switch rc := cInt(purego.SyscallN(c.lib.step, p)); rc {
		case sqliteDone:
			return out, nil
		case sqliteRow:
			if cInt(purego.SyscallN(c.lib.columnCount, p)) == 0 {
				continue
			}
			text := cPtr(purego.SyscallN(c.lib.columnText, p, 0))
			n := cInt(purego.SyscallN(c.lib.columnBytes, p, 0))
			if text == 0 || n <= 0 {
				out = append(out, "")
				continue
			}
			out = append(out, string(unsafe.Slice((*byte)(cPointer(text)), n)))
		default:
			return nil, c.lib.sqliteErr(c.db, rc, fmt.Sprintf("query %q", sql))
		}
	}
}

func (c *systemConn) prepare(sql string) (stmt, error) {
	p, err := c.prepareOne(sql, "prepare")
	if err != nil {
		return nil, err
	}
	return &systemStmt{lib: c.lib, db: c.db, p: p, sql: sql}, nil
}

func (c *systemConn) close() error {
	if rc := cInt(purego.SyscallN(c.lib.closeV2, c.db)); rc != sqliteOK {
		return c.lib.sqliteErr(c.db, rc, "close")
	}
	return nil
}

// systemStmt is a stmt on a sqlite3_stmt* handle. Its run and runRow make
// no Go allocation: see call.
type systemStmt struct {
	lib *sqliteLib
	db  uintptr
	p   uintptr
	sql string

	argv [5]uintptr // arguments of the C call in progress

	// halted says the last run ended in SQLITE_DONE and the statement was
	// not reset. A finished statement holds no lock and no transaction, and
	// sqlite3_step resets it by itself on the next run (SQLite's autoreset,
	// which mattn's driver relies on too), which saves a C call per run.
	// Binding needs an explicit reset first; a statement that returned a row
	// is reset at once, since it still holds its read transaction.
	halted bool

	// blob is C memory (sqlite3_malloc64) holding the payload, bound to ?2
	// with SQLITE_STATIC; blobCap is its size. It is freed after finalize.
	blob, blobCap uintptr
}

var _ stmt = (*systemStmt)(nil)

// call calls the C function at fn with args, which must not be Go pointers,
// passing them to purego from s.argv so that no slice is allocated, and
// returns its pointer result.
func (s *systemStmt) call(fn uintptr, args ...uintptr) uintptr {
	n := copy(s.argv[:], args)
	r, _, _ := purego.SyscallN(fn, s.argv[:n]...)
	return r
}

// callInt is call for a C function that returns an int.
func (s *systemStmt) callInt(fn uintptr, args ...uintptr) int32 {
	n := copy(s.argv[:], args)
	r, _, _ := purego.SyscallN(fn, s.argv[:n]...)
	return int32(r)
}

func (s *systemStmt) run() error {
	rc := s.callInt(s.lib.step, s.p)
	if rc == sqliteMisuse && s.halted {
		// A build with SQLITE_OMIT_AUTORESET: reset by hand, once.
		s.call(s.lib.reset, s.p)
		rc = s.callInt(s.lib.step, s.p)
	}
	switch rc {
	case sqliteDone:
		s.halted = true
		return nil
	case sqliteRow:
		s.call(s.lib.reset, s.p)
		s.halted = false
		return nil
	}
	return s.fail(rc, "exec")
}

func (s *systemStmt) runRow(id int64, payload []byte) error {
	if s.halted {
		s.call(s.lib.reset, s.p) // binding needs a statement that is reset
		s.halted = false
	}
	if rc := s.callInt(s.lib.bindInt64, s.p, 1, uintptr(id)); rc != sqliteOK {
		return s.fail(rc, "bind ?1 of")
	}
	var rc int32
	if payload == nil {
		rc = s.callInt(s.lib.bindNull, s.p, 2)
	} else {
		if err := s.copyBlob(payload); err != nil {
			return err
		}
		rc = s.callInt(s.lib.bindBlob, s.p, 2, s.blob, uintptr(len(payload)), sqliteStatic)
	}
	if rc != sqliteOK {
		return s.fail(rc, "bind ?2 of")
	}
	return s.run()
}

// copyBlob copies payload into s.blob, growing it if needed. A zero-length
// payload still gets an address: bind_blob reads NULL as SQL NULL.
func (s *systemStmt) copyBlob(payload []byte) error {
	if n := uintptr(len(payload)); s.blob == 0 || n > s.blobCap {
		if s.blob != 0 {
			// Unbind the old buffer before freeing it, so that no later
			// step can read freed memory even if what follows fails.
			s.callInt(s.lib.bindNull, s.p, 2)
			s.call(s.lib.free, s.blob)
			s.blob, s.blobCap = 0, 0
		}
		size := max(n, 64)
		if s.blob = s.call(s.lib.malloc64, size); s.blob == 0 {
			return &Error{Engine: "system", Op: fmt.Sprintf("bind ?2 of %q", s.sql), Code: 7, ExtendedCode: 7,
				Msg: fmt.Sprintf("out of memory for a %d-byte payload", n)}
		}
		s.blobCap = size
	}
	copy(unsafe.Slice((*byte)(cPointer(s.blob)), s.blobCap), payload)
	return nil
}

// fail builds the error for rc and resets the statement, so that it can run
// again.
func (s *systemStmt) fail(rc int32, op string) error {
	err := s.lib.sqliteErr(s.db, rc, fmt.Sprintf("%s %q", op, s.sql))
	s.call(s.lib.reset, s.p)
	s.halted = false
	return err
}

func (s *systemStmt) close() error {
	rc := s.callInt(s.lib.finalize, s.p)
	if s.blob != 0 {
		s.call(s.lib.free, s.blob)
	}
	if rc != sqliteOK {
		return s.lib.sqliteErr(s.db, rc, fmt.Sprintf("finalize %q", s.sql))
	}
	return nil
}
