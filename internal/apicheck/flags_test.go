package apicheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// flagName is a command-line flag as a user types it.
var flagName = regexp.MustCompile(`--[a-z]`)

// TestNoFlagsInLibraryErrors: no package outside cmd/ and examples/ puts a
// flag name ("--dir") in the text of an error it makes. A library says what
// is wrong in its own terms; the command that set the value from a flag
// names the flag (cmd/durabench: refuse, listVar, usageErrorf).
func TestNoFlagsInLibraryErrors(t *testing.T) {
	checked := 0
	files := sourceFiles(t)
	consts := flagConsts(files)
	for _, pf := range files {
		if under(pf.dir, "cmd") || under(pf.dir, "examples") {
			continue
		}
		checked++
		for _, v := range flagViolations(pf, consts[pf.dir]) {
			t.Error(v)
		}
	}
	if checked < 80 {
		t.Errorf("checked only %d library files", checked)
	}
}

// TestFlagCheckFinds: the check finds a flag in each kind of error
// constructor, and not elsewhere.
func TestFlagCheckFinds(t *testing.T) {
	src := `package p

var ErrX = errors.New("use --dir")
var ok = []string{"--mode", "backlog"}

func f(n int) error {
	_ = fmt.Sprintf("--not-an-error %d", n)
	if n == 1 {
		return fmt.Errorf("--iterations %d", n)
	}
	if n == 2 {
		return bad("Iterations", "raise --file-size")
	}
	if n == 3 {
		return runner.Refuse(ErrConfig, "FileSize", "%s", fmt.Sprintf("--file-size %d", n))
	}
	if n == 4 {
		return &unavailableError{reason: "name one with --sqlite-lib"}
	}
	if n == 5 {
		return fmt.Errorf("cannot load: %s", hint)
	}
	return errors.New("fine: no flag - here -- or there")
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := flagViolations(pkgFile{dir: "p", path: "p.go", file: f, fset: fset}, map[string]string{"hint": "or name another with --sqlite-lib"})
	want := []string{`"use --dir"`, `"--iterations %d"`, `"raise --file-size"`, `"--file-size %d"`, `"name one with --sqlite-lib"`, `hint ("or name another with --sqlite-lib")`}
	if len(got) != len(want) {
		t.Fatalf("found %d violations, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("violation %d = %q, want it to quote %s", i, got[i], w)
		}
	}
}

// flagConsts maps each directory to its package-level string constants
// that hold a flag name, with their values.
func flagConsts(files []pkgFile) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, pf := range files {
		for _, decl := range pf.file.Decls {
			d, ok := decl.(*ast.GenDecl)
			if !ok || d.Tok != token.CONST {
				continue
			}
			for _, spec := range d.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					if s, err := strconv.Unquote(lit.Value); err == nil && flagName.MatchString(s) {
						if out[pf.dir] == nil {
							out[pf.dir] = map[string]string{}
						}
						out[pf.dir][name.Name] = s
					}
				}
			}
		}
	}
	return out
}

// flagViolations lists the string literals with a flag name, and the uses
// of consts (the package's string constants that hold one), in the
// arguments of pf's error constructors: errors.New, fmt.Errorf,
// runner.Refuse, a package's own bad helper, and the fields of a composite
// literal of a type whose name ends in "Error" or "error".
func flagViolations(pf pkgFile, consts map[string]string) []string {
	var out []string
	check := func(where string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := consts[id.Name]; ok {
					out = append(out, fmt.Sprintf("%s: %s has a flag name in %s (%q): say what is wrong in the package's terms, and let the command name its flag",
						pf.fset.Position(id.Pos()), where, id.Name, v))
				}
				return true
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && flagName.MatchString(s) {
				out = append(out, fmt.Sprintf("%s: %s has a flag name in %s: say what is wrong in the package's terms, and let the command name its flag",
					pf.fset.Position(lit.Pos()), where, lit.Value))
			}
			return true
		})
	}
	ast.Inspect(pf.file, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.CallExpr:
			if name := callName(e.Fun); isErrorConstructor(name) {
				for _, a := range e.Args {
					check(name, a)
				}
				return false
			}
		case *ast.CompositeLit:
			if name := typeName(e.Type); strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "error") {
				check(name+"{...}", e)
				return false
			}
		}
		return true
	})
	return out
}

// isErrorConstructor reports whether a call of name makes an error.
func isErrorConstructor(name string) bool {
	switch name {
	case "errors.New", "fmt.Errorf", "runner.Refuse", "Refuse", "bad":
		return true
	}
	return false
}

// callName returns "pkg.F" or "F" for a call's function, or "".
func callName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
	}
	return ""
}

// typeName returns the name of a composite literal's type, or "".
func typeName(x ast.Expr) string {
	switch e := x.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.StarExpr:
		return typeName(e.X)
	}
	return ""
}
