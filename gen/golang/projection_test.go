package golang

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/model"
)

// reachFile is the table projections reads: what each projection reaches
// of the shared part.
const reachFile = "projection_reach.go"

// updating reports whether the tests run with -update, the flag the
// stand-in's test (in package golang_test, in the same test binary)
// defines.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// declared returns the names src, a part of the runtime, declares at the
// top level: its functions, types, variables and constants, and its methods.
func declared(t *testing.T, src string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "part.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range f.Decls {
		for _, n := range declNames(d) {
			names[n] = true
		}
	}
	return names
}

// DeclNames is declNames for the package's external tests.
var DeclNames = declNames

// declNames returns the names d declares at the top level: a method
// declares none.
func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	return names
}

// computeReach computes sharedReach from the runtime's sources, type-checked
// together as the runtime package (runtime.go, the stand-in, the shared part
// and every projection's part): for each projection, the shared part's
// declarations its part uses, then those they use, to the end, and the
// imports of those declarations.
func computeReach(t *testing.T) map[string]sharedUse {
	t.Helper()
	standin, err := os.ReadFile("runtime/standin.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	parse := func(name, src string) *ast.File {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	shared := parse("project.go", projectShared)
	files := []*ast.File{parse("runtime.go", runtimeSource), parse("standin.go", string(standin)), shared}
	parts := map[string]*ast.File{}
	for _, name := range model.ProjectionNames {
		src, ok := projectSources[name]
		if !ok {
			t.Fatalf("projection %s has no part of the runtime in projectSources", name)
		}
		parts[name] = parse("project_"+name+".go", src)
		files = append(files, parts[name])
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("runtime", fset, files, info); err != nil {
		t.Fatal(err)
	}
	// The shared part's declarations, by the objects they define, and the
	// lines of its import block, by path.
	declOf := map[types.Object]string{}
	var order []string
	for _, d := range shared.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		names := declNames(d)
		if len(names) != 1 {
			t.Fatalf("project.go: a declaration of %d names %v; each top-level declaration of the shared part must declare one, so that projections can keep it or leave it out", len(names), names)
		}
		order = append(order, names[0])
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == names[0] && info.Defs[id] != nil && info.Defs[id].Parent() == info.Defs[id].Pkg().Scope() {
				declOf[info.Defs[id]] = names[0]
			}
			return true
		})
	}
	importLine := map[string]string{}
	for _, s := range shared.Imports {
		line := s.Path.Value
		if s.Name != nil {
			line = s.Name.Name + " " + line
		}
		importLine[strings.Trim(s.Path.Value, `"`)] = line
	}
	// uses returns the shared declarations and the imports n uses.
	uses := func(n ast.Node) (decls, imports []string) {
		ast.Inspect(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			switch obj := info.Uses[id].(type) {
			case *types.PkgName:
				if line, ok := importLine[obj.Imported().Path()]; ok {
					imports = append(imports, line)
				}
			case types.Object:
				if d, ok := declOf[obj]; ok {
					decls = append(decls, d)
				}
			}
			return true
		})
		return decls, imports
	}
	direct, imports := map[string][]string{}, map[string][]string{}
	for _, d := range shared.Decls {
		if names := declNames(d); len(names) == 1 {
			direct[names[0]], imports[names[0]] = uses(d)
		}
	}
	reach := map[string]sharedUse{}
	for name, part := range parts {
		seen := map[string]bool{}
		todo, _ := uses(part)
		for len(todo) > 0 {
			d := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			if !seen[d] {
				seen[d] = true
				todo = append(todo, direct[d]...)
			}
		}
		var use sharedUse
		for _, d := range order {
			if seen[d] {
				use.decls = append(use.decls, d)
				use.imports = append(use.imports, imports[d]...)
			}
		}
		slices.Sort(use.imports)
		use.imports = slices.Compact(use.imports)
		reach[name] = use
	}
	return reach
}

// renderReach returns projection_reach.go for reach.
func renderReach(t *testing.T, reach map[string]sharedUse) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./gen/golang -update from runtime/project*.go. DO NOT EDIT.\n\npackage golang\n\n")
	b.WriteString("// sharedReach holds what each projection's part of the runtime reaches of the\n// part the projections share (see sharedUse), by projection.\n")
	b.WriteString("var sharedReach = map[string]sharedUse{\n")
	quote := func(list []string, q string) string {
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = q + s + q
		}
		return strings.Join(out, ", ")
	}
	for _, name := range model.ProjectionNames {
		use := reach[name]
		if len(use.decls) == 0 {
			fmt.Fprintf(&b, "%q: {},\n", name)
			continue
		}
		fmt.Fprintf(&b, "%q: {\ndecls: []string{%s},\nimports: []string{%s},\n},\n", name, quote(use.decls, `"`), quote(use.imports, "`"))
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, b.Bytes())
	}
	return out
}

// TestSharedReachIsCurrent keeps projection_reach.go what the runtime's
// sources say: computed from them parsed and type-checked, it is rewritten
// by go test ./gen/golang -update, and stale until it is.
func TestSharedReachIsCurrent(t *testing.T) {
	want := renderReach(t, computeReach(t))
	if updating() {
		if err := os.WriteFile(reachFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(reachFile)
	if err != nil || !bytes.Equal(have, want) {
		t.Errorf("%s is stale: the runtime's projection parts changed (run go test ./gen/golang -update): %v\nwant:\n%s", reachFile, err, want)
	}
	// The table compiled in is the one on disk.
	if got := renderReach(t, sharedReach); !bytes.Equal(got, have) {
		t.Errorf("sharedReach differs from %s", reachFile)
	}
}

// TestSharedPartSplits: sharedPieces cuts the shared part into pieces that
// each hold one top-level declaration, of the name it gives the piece, or
// only comments, and that together are the whole part; so that keeping
// pieces by name keeps whole declarations, and each of them. A declaration
// with an empty line inside stays one piece.
func TestSharedPartSplits(t *testing.T) {
	_, body, err := splitImports(projectShared)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := checkPieces(t, body), declared(t, projectShared); len(got) != len(want) {
		t.Errorf("the pieces name %d declarations, the shared part has %d", len(got), len(want))
	}
	const spaced = `// The part's own comment.

// a is a.
func a() {
	x := 1

	_ = x
}

// b is b.
var b = []int{
	1,

	2,
}

var c, d = f(
	1,

)

type e[T any] struct {
	f T
}
`
	want := []string{"", "a", "b", "c", "e"}
	var got []string
	for _, p := range sharedPieces(spaced) {
		got = append(got, p.name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("sharedPieces names %v, want %v", got, want)
	}
}

// checkPieces checks the pieces of body, a shared part after its import
// block, and returns the names they declare.
func checkPieces(t *testing.T, body string) map[string]bool {
	t.Helper()
	var whole strings.Builder
	seen := map[string]bool{}
	for _, p := range sharedPieces(body) {
		whole.WriteString(p.text)
		f, err := parser.ParseFile(token.NewFileSet(), "piece.go", "package p\n\n"+p.text, parser.ParseComments)
		if err != nil {
			t.Errorf("a piece of the shared part is no whole declaration (%v):\n%s", err, p.text)
			continue
		}
		var names []string
		for _, d := range f.Decls {
			names = append(names, declNames(d)...)
		}
		if p.name == "" && len(f.Decls) == 0 {
			continue
		}
		if len(f.Decls) != 1 || len(names) != 1 || names[0] != p.name || seen[p.name] {
			t.Errorf("a piece of the shared part named %q declares %v (want just its name, once; no method, no grouped declaration):\n%s", p.name, names, p.text)
		}
		seen[p.name] = true
	}
	if whole.String() != body {
		t.Errorf("the pieces of the shared part are not the whole of it")
	}
	return seen
}

// TestSharedPartOnlyWhatIsReached: the projections file holds of the
// shared part exactly the declarations the selected projections reach
// (none for tool_output, which uses none of it: no dead code, no empty
// import block), and all of it, as it stands, when every projection is
// selected.
func TestSharedPartOnlyWhatIsReached(t *testing.T) {
	_, sharedBody, err := splitImports(projectShared)
	if err != nil {
		t.Fatal(err)
	}
	all := declared(t, projectShared)
	for _, selected := range [][]string{
		{"tool_output"},
		{"problem"},
		{"grpc"},
		{"mcp", "tool_output"},
		{"problem", "grpc"},
		model.ProjectionNames,
	} {
		src, err := projections(&model.Catalogue{Package: "p", Projections: selected}, "// Code generated by errgen from errors.yaml. DO NOT EDIT.")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, name := range selected {
			for _, d := range sharedReach[name].decls {
				want[d] = true
			}
		}
		got := declared(t, string(src))
		for name := range all {
			if got[name] != want[name] {
				t.Errorf("%v: the file declares %s: %v, want %v", selected, name, got[name], want[name])
			}
		}
		if strings.Contains(string(src), "import (\n)") {
			t.Errorf("%v: an empty import block:\n%s", selected, src)
		}
		if len(selected) == len(model.ProjectionNames) && !strings.Contains(string(src), "\n"+sharedBody) {
			t.Errorf("every projection selected: the file does not hold the shared part whole")
		}
	}
	// The table is no blanket: problem, which reads no model JSON, does
	// not reach appendModelJSON, and reaches something.
	if slices.Contains(sharedReach["problem"].decls, "appendModelJSON") || len(sharedReach["problem"].decls) == 0 {
		t.Errorf("problem reaches %v of the shared part", sharedReach["problem"].decls)
	}
}
