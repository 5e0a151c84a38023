package apicheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestNoInternalTypesInExportedAPI: no exported declaration of a package
// outside internal/ (commands aside: package main has no API) names a
// package whose import path has an /internal/ element: exported functions'
// and methods' signatures, exported types with their exported fields and
// methods, and the types of exported variables and constants.
func TestNoInternalTypesInExportedAPI(t *testing.T) {
	checked := 0
	for _, pf := range sourceFiles(t) {
		if isInternal(pf.dir) || pf.file.Name.Name == "main" {
			continue
		}
		checked++
		for _, v := range apiViolations(pf) {
			t.Error(v)
		}
	}
	if checked < 40 {
		t.Errorf("checked only %d public files", checked)
	}
}

// TestAPICheckFinds: the check finds each kind of exported reference to an
// internal package, and nothing unexported.
func TestAPICheckFinds(t *testing.T) {
	src := `package p

import (
	"example.com/m/internal/units"
	env "example.com/m/internal/envinfo"
	"example.com/m/measure"
)

func F(x units.Size) measure.Stats { return measure.Stats{} }
func g(x units.Size) {}
type T struct {
	A env.Env
	b units.Size
	measure.Stats
}
type t2 struct{ A units.Size }
func (T) M() []units.Size { return nil }
func (t2) M() units.Size { return 0 }
var V units.Size
var W = env.Env{}
var w units.Size
type I interface{ Env() env.Env }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := apiViolations(pkgFile{dir: "p", path: "p.go", file: f, fset: fset})
	want := []string{"func F names example.com/m/internal/units", "type T names example.com/m/internal/envinfo",
		"func M names example.com/m/internal/units", "V names example.com/m/internal/units", "W names example.com/m/internal/envinfo",
		"type I names example.com/m/internal/envinfo"}
	if len(got) != len(want) {
		t.Fatalf("found %d violations, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("violation %d = %q, want it to say %q", i, got[i], w)
		}
	}
}

// apiViolations lists the exported declarations of pf that name an
// internal package, one line each.
func apiViolations(pf pkgFile) []string {
	var out []string
	imps := imports(pf.file)
	report := func(what string, n ast.Node) {
		for _, p := range internalRefs(n, imps) {
			out = append(out, fmt.Sprintf("%s: exported %s names %s, an internal package: make what it needs public, or keep it unexported",
				pf.fset.Position(n.Pos()), what, p))
		}
	}
	for _, decl := range pf.file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedReceiver(d.Recv)) {
				continue
			}
			report("func "+d.Name.Name, d.Type)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						report("type "+s.Name.Name, exportedPart(s.Type))
					}
				case *ast.ValueSpec:
					for i, name := range s.Names {
						if !name.IsExported() {
							continue
						}
						if s.Type != nil {
							report(name.Name, s.Type)
						}
						if i < len(s.Values) {
							if lit, ok := s.Values[i].(*ast.CompositeLit); ok && lit.Type != nil {
								report(name.Name, lit.Type)
							}
						}
					}
				}
			}
		}
	}
	return out
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	x := recv.List[0].Type
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.Ident:
			return e.IsExported()
		default:
			return false
		}
	}
}

// exportedPart returns what of a type definition its users see: of a
// struct, its exported and embedded fields; of an interface, its exported
// methods and embedded interfaces; of anything else, all of it.
func exportedPart(x ast.Expr) ast.Node {
	var fields *ast.FieldList
	switch e := x.(type) {
	case *ast.StructType:
		fields = e.Fields
	case *ast.InterfaceType:
		fields = e.Methods
	default:
		return x
	}
	kept := &ast.FieldList{}
	for _, f := range fields.List {
		if len(f.Names) == 0 {
			kept.List = append(kept.List, f)
			continue
		}
		for _, n := range f.Names {
			if n.IsExported() {
				kept.List = append(kept.List, f)
				break
			}
		}
	}
	return kept
}

// internalRefs lists the internal import paths that n refers to through
// qualified identifiers (pkg.Name).
func internalRefs(n ast.Node, imps map[string]string) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok {
			if p, ok := imps[id.Name]; ok && strings.Contains(p+"/", "/internal/") {
				out = append(out, fmt.Sprintf("%s (%s.%s)", p, id.Name, sel.Sel.Name))
			}
		}
		return true
	})
	return out
}
