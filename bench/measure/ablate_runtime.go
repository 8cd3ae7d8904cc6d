package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// runtimeFile is the generated package's copy of the runtime.
const runtimeFile = "errgen_runtime.go"

// runAblateRuntime writes, for each function of the generated package's
// runtime file whose body spans more than two lines, DIR/NAME (NAME is
// the function's name, Type.Method for a method): a copy of the
// package's Go files (tests left out) with that body replaced by a
// return of zero values. What the function costs the compiler is the
// package's count less its copy's; that includes the copies the compiler
// inlines into callers, and the code of callers the zero results make
// dead. An import the stubbed file no longer uses is kept as a blank
// import, so every copy reads the same export data as the package.
func runAblateRuntime(args []string) error {
	fs := flag.NewFlagSet("ablate-runtime", flag.ContinueOnError)
	dir := fs.String("o", "", "output folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() != 1 {
		return fmt.Errorf("ablate-runtime needs -o DIR and the folder of a generated package")
	}
	files, err := filepath.Glob(filepath.Join(fs.Arg(0), "*.go"))
	if err != nil {
		return err
	}
	srcs := map[string][]byte{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if srcs[filepath.Base(f)], err = os.ReadFile(f); err != nil {
			return err
		}
	}
	src, ok := srcs[runtimeFile]
	if !ok {
		return fmt.Errorf("%s has no %s", fs.Arg(0), runtimeFile)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, runtimeFile, src, 0)
	if err != nil {
		return err
	}
	n := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		lbrace, rbrace := fset.Position(fd.Body.Lbrace), fset.Position(fd.Body.Rbrace)
		if rbrace.Line-lbrace.Line < 3 {
			continue
		}
		stubbed := slices.Concat(src[:lbrace.Offset], []byte(zeroReturn(fset, fd.Type)), src[rbrace.Offset+1:])
		if stubbed, err = blankUnused(stubbed); err != nil {
			return fmt.Errorf("ablate-runtime %s: %v", funcName(fset, fd), err)
		}
		sub := filepath.Join(*dir, funcName(fset, fd))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		for name, data := range srcs {
			if name == runtimeFile {
				data = stubbed
			}
			if err := os.WriteFile(filepath.Join(sub, name), data, 0o644); err != nil {
				return err
			}
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("ablate-runtime: no function in %s; the generated code changed", runtimeFile)
	}
	fmt.Printf("%d runtime functions\n", n)
	return nil
}

// funcName is a function's name, or Type.Method for a method.
func funcName(fset *token.FileSet, fd *ast.FuncDecl) string {
	if fd.Recv == nil {
		return fd.Name.Name
	}
	recv := fd.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = star.X
	}
	return nodeText(fset, recv) + "." + fd.Name.Name
}

// zeroReturn is a body returning the zero value of each result:
// *new(T) is the zero value of any type T.
func zeroReturn(fset *token.FileSet, t *ast.FuncType) string {
	if t.Results == nil || len(t.Results.List) == 0 || len(t.Results.List[0].Names) > 0 {
		return "{ return }"
	}
	var zeros []string
	for _, r := range t.Results.List {
		zeros = append(zeros, "*new("+nodeText(fset, r.Type)+")")
	}
	return "{ return " + strings.Join(zeros, ", ") + " }"
}

func nodeText(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		panic(err)
	}
	return b.String()
}

// blankUnused turns each import src no longer refers to into a blank
// import of the same path.
func blankUnused(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, runtimeFile, src, 0)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	// Edit from the last import back, so earlier offsets stay valid.
	out := src
	for k := len(f.Imports) - 1; k >= 0; k-- {
		imp := f.Imports[k]
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, err
		}
		name := filepath.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if used[name] || name == "_" {
			continue
		}
		at := fset.Position(imp.Pos()).Offset
		out = slices.Concat(out[:at], []byte("_ "), out[at:])
	}
	return out, nil
}
