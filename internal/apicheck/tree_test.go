package apicheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is the module's import path, read from go.mod.
const module = "github.com/durabench/durabench"

// root is the module's directory, from this package's.
const root = "../.."

// pkgFile is one parsed non-test Go file with the directory it is in,
// relative to the module root, in slash form ("syncbench", "syscalls/trace").
type pkgFile struct {
	dir  string
	path string
	file *ast.File
	fset *token.FileSet
}

// sourceFiles parses every non-test .go file of the module, whatever its
// build constraints, skipping testdata and hidden directories.
func sourceFiles(t *testing.T) []pkgFile {
	t.Helper()
	fset := token.NewFileSet()
	var out []pkgFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		out = append(out, pkgFile{dir: filepath.ToSlash(rel), path: path, file: f, fset: fset})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("found only %d source files under %s: is the test running in its own directory?", len(out), root)
	}
	return out
}

// under reports whether dir is top or inside it.
func under(dir, top string) bool { return dir == top || strings.HasPrefix(dir, top+"/") }

// isInternal reports whether dir is an internal package's directory.
func isInternal(dir string) bool {
	return under(dir, "internal") || strings.Contains("/"+dir+"/", "/internal/")
}

// imports maps each name a file refers to an import by to its path.
func imports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		m[name] = p
	}
	return m
}
