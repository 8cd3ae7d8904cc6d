package gen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/synth"
)

// TestReservedNamesAreComplete holds the checker's lists of taken names to
// the generated code: every exported package-level name the generated
// files (the test file included) declare is a family, a variant, an
// As<Family> helper or in model.PackageScope, and every exported method of a
// variant is in model.Methods. A name missing from these lists is one a
// catalogue could reuse, and the generated package would not compile.
func TestReservedNamesAreComplete(t *testing.T) {
	sources := map[string][]byte{"synthetic": synth.Catalogue(120)}
	ref, err := os.ReadFile(filepath.Join("..", "errors.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sources["reference"] = ref
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "gen", "*.txtar"))
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "errors.yaml" {
				sources[filepath.Base(p)] = f.Data
			}
		}
	}

	declared := map[string]bool{}
	for name, src := range sources {
		m, diags := gen.Parse("errors.yaml", src)
		if m == nil {
			t.Fatalf("%s: %v", name, diags)
		}
		files, err := gen.Generate(m)
		if err != nil {
			t.Fatal(err)
		}
		if m.Selects("grpc") {
			// The opt-in file of generate --grpc declares names too.
			f, err := gen.GenerateGRPC(m)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		own := map[string]bool{}
		// The families' unexported As functions are named from the
		// catalogue; nothing else may take a name of their form.
		asFuncs := map[string]bool{}
		for _, v := range m.Variants {
			own[v.Name] = true
			own[v.CodeConst()] = true
			own[v.Family.Name] = true
			own[v.Family.AsHelper()] = true
			asFuncs[v.Family.AsFunc()] = true
			if mp := v.Family.MapsTo; mp != nil {
				own[mp.Func()] = true
			}
		}
		for _, c := range m.Categories {
			own[c.GoName] = true
		}
		for _, v := range m.Variants {
			for _, sc := range v.Subcodes {
				own[sc.GoName] = true
			}
		}
		for _, a := range m.Attributes {
			own[a.Lookup()] = true
			if a.Type == model.AttrEnum {
				own[a.GoName] = true
				for _, val := range a.Values {
					own[a.ValueConst(val)] = true
				}
			}
		}
		variants := map[string]bool{}
		for _, v := range m.Variants {
			variants[v.Name] = true
		}
		for _, f := range files {
			if !strings.HasSuffix(f.Path, ".go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Data, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range af.Decls {
				for _, id := range declaredNames(d) {
					if asFuncForm.MatchString(id.Name) && !asFuncs[id.Name] {
						t.Errorf("%s: %s declares %s, a name of the form of a family's As function", name, f.Path, id.Name)
					}
					if !id.IsExported() || own[id.Name] {
						continue
					}
					declared[id.Name] = true
					if !slices.Contains(model.PackageScope, id.Name) {
						t.Errorf("%s: %s declares %s, which model.PackageScope does not reserve", name, f.Path, id.Name)
					}
				}
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || !fd.Name.IsExported() || !variants[recvType(fd)] {
					continue
				}
				if !slices.Contains(model.Methods, fd.Name.Name) {
					t.Errorf("%s: %s declares method %s.%s, which model.Methods does not reserve", name, f.Path, recvType(fd), fd.Name.Name)
				}
			}
		}
	}
	for _, n := range model.PackageScope {
		if !declared[n] {
			t.Errorf("model.PackageScope reserves %s, which no generated package declares", n)
		}
	}
}

// asFuncForm is the form of model.Family.AsFunc's names.
var asFuncForm = regexp.MustCompile(`^as[A-Z]`)

// declaredNames returns the package-level names a declaration introduces
// (methods introduce none).
func declaredNames(d ast.Decl) []*ast.Ident {
	var out []*ast.Ident
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				out = append(out, s.Name)
			case *ast.ValueSpec:
				out = append(out, s.Names...)
			}
		}
	}
	return out
}

// recvType is the name of a method's receiver type.
func recvType(fd *ast.FuncDecl) string {
	x := fd.Recv.List[0].Type
	if star, ok := x.(*ast.StarExpr); ok {
		x = star.X
	}
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestREADMEListsTheGeneratedAPI: the README's list of every exported
// name gives each name of model.PackageScope and each method of
// model.Methods (which TestReservedNamesAreComplete holds to the generated
// code), so the list cannot fall behind the package.
func TestREADMEListsTheGeneratedAPI(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### Every exported name\n")
	if !ok {
		t.Fatal(`README.md has no "### Every exported name" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, name := range slices.Concat(model.PackageScope, model.Methods) {
		if !strings.Contains(section, "`"+name+"`") && !strings.Contains(section, "`"+name+"(") {
			t.Errorf("README.md's list of exported names does not give %s", name)
		}
	}
}
