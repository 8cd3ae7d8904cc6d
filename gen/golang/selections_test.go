package golang_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/golang"
	"github.com/errgen/errgen/gen/model"
)

// selectionCatalogue is a small catalogue, to which a selection of
// projections and the sections they need are added.
const selectionCatalogue = `version: 1
package: toolerr
categories:
  resolution: The tool name did not resolve.
  timeout: The tool ran past its time limit.
families:
  - name: ToolError
    doc: Errors from tool calls.
    payload_type: tool_error
    nums: [1000, 1099]
    variants:
      - name: ToolNotFound
        code: tool_not_found
        num: 1001
        category: resolution
        doc: The model called a tool that is not registered.
        message: "Unknown tool: {name}"
        fields:
          - {name: name, type: string, payload: true, example: web.search2}
      - name: ToolTimeout
        code: tool_timeout
        num: 1004
        category: timeout
        doc: The tool did not answer in time.
        message: "Execution timeout after {seconds}s: {tool}"
        retryable: true
        fields:
          - {name: tool, type: string, payload: true, example: terminal}
          - {name: seconds, type: uint64, example: 30}
`

// TestEverySelectionTypeChecks generates the Go package of a catalogue for
// every selection of projections and type-checks its errgen.go,
// errgen_runtime.go and errgen_projections.go together: what the
// projections file keeps of the shared part is all the selected parts
// need, with the imports it uses and no other. And every declaration of
// the shared part it keeps is reached, through the file's declarations,
// from a selected projection's part: none is dead code.
func TestEverySelectionTypeChecks(t *testing.T) {
	sharedSrc, err := os.ReadFile("runtime/project.go")
	if err != nil {
		t.Fatal(err)
	}
	sharedFile, err := parser.ParseFile(token.NewFileSet(), "project.go", sharedSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	shared := map[string]bool{}
	for _, d := range sharedFile.Decls {
		for _, n := range golang.DeclNames(d) {
			shared[n] = true
		}
	}
	imp := importer.Default()
	// errgen_runtime.go is the same in every package: parsed once.
	fset := token.NewFileSet()
	var runtimeFile *ast.File
	names := model.ProjectionNames
	for mask := 0; mask < 1<<len(names); mask++ {
		var selected []string
		for i, name := range names {
			if mask&(1<<i) != 0 {
				selected = append(selected, name)
			}
		}
		src := strings.Replace(selectionCatalogue, "package: toolerr\n", "package: toolerr\nprojections: ["+strings.Join(selected, ", ")+"]\n", 1)
		if slices.Contains(selected, "problem") {
			src += "problem: {type_base: \"https://errors.example.com/\"}\n"
		}
		if slices.Contains(selected, "grpc") {
			src += "grpc: {domain: errors.example.com}\n"
		}
		m, diags := gen.Parse("errors.yaml", []byte(src))
		if m == nil {
			t.Fatalf("%v: %v", selected, diags)
		}
		files, err := golang.Emit(m)
		if err != nil {
			t.Fatalf("%v: %v", selected, err)
		}
		if runtimeFile == nil {
			if runtimeFile, err = parser.ParseFile(fset, golang.RuntimeFile, files[golang.RuntimeFile], 0); err != nil {
				t.Fatal(err)
			}
		}
		code, err := parser.ParseFile(fset, golang.CodeFile, files[golang.CodeFile], 0)
		if err != nil {
			t.Fatalf("%v: %v", selected, err)
		}
		projected, err := parser.ParseFile(fset, golang.ProjectionsFile, files[golang.ProjectionsFile], 0)
		if err != nil {
			t.Fatalf("%v: %v", selected, err)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp}
		pkg, err := conf.Check("toolerr", fset, []*ast.File{code, runtimeFile, projected}, info)
		if err != nil {
			t.Errorf("%v: the generated package does not type-check: %v", selected, err)
			continue
		}
		// The projections file's declarations, by the objects they
		// declare; the roots are those of the selected parts.
		declOf := map[types.Object]ast.Decl{}
		var roots []ast.Decl
		kept := map[ast.Decl]string{}
		for _, d := range projected.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			root := true
			for _, n := range golang.DeclNames(d) {
				if obj := pkg.Scope().Lookup(n); obj != nil {
					declOf[obj] = d
				}
				if shared[n] {
					kept[d], root = n, false
				}
			}
			if root {
				roots = append(roots, d)
			}
		}
		reached := map[ast.Decl]bool{}
		for len(roots) > 0 {
			d := roots[len(roots)-1]
			roots = roots[:len(roots)-1]
			if reached[d] {
				continue
			}
			reached[d] = true
			ast.Inspect(d, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if to, ok := declOf[info.Uses[id]]; ok {
						roots = append(roots, to)
					}
				}
				return true
			})
		}
		for d, name := range kept {
			if !reached[d] {
				t.Errorf("%v: the projections file keeps %s of the shared part, which no selected projection reaches", selected, name)
			}
		}
	}
}
