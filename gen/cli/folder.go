package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/fsafe"
	"github.com/errgen/errgen/gen/golang"
	"github.com/errgen/errgen/gen/model"
)

// What generate finds in its output folder beyond the files it writes: the
// golden files of codes the catalogue no longer has, and Go files of
// another package.

// goldenSuffix ends the name of every golden file, in testdata.
const goldenSuffix = model.GoldenSuffix

// orphans lists the golden files in dir's testdata (slash paths relative
// to dir, sorted) that files does not hold: what codes left behind. A
// testdata that is a link or missing has none; a link inside it is not a
// golden file, and neither is a file that does not hold what errgen's
// golden files hold (isGolden): testdata/NAME.golden.json is a common name
// for the package's own tests' golden files, which are the user's.
func orphans(dir string, files []gen.File) ([]string, error) {
	st, err := os.Lstat(filepath.Join(dir, "testdata"))
	if errors.Is(err, fs.ErrNotExist) || err == nil && !st.IsDir() {
		return nil, nil // nothing, or a link or a file that writing refuses
	}
	if err != nil {
		return nil, fsafe.PathError(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "testdata"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fsafe.PathError(err)
	}
	var out []string
	for _, e := range entries {
		rel := "testdata/" + e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), goldenSuffix) {
			continue
		}
		if slices.ContainsFunc(files, func(f gen.File) bool { return f.Path == rel }) {
			continue
		}
		if isGolden(filepath.Join(dir, "testdata", e.Name()), strings.TrimSuffix(e.Name(), goldenSuffix)) {
			out = append(out, rel)
		}
	}
	return out, nil
}

// maxGolden bounds how much of a file in testdata errgen reads to decide
// whether it is one of its golden files.
const maxGolden = 16 << 20

// isGolden reports whether the file at path is a golden file errgen wrote
// (or the generated test rewrote with -update) for code: a JSON object
// whose "code" is code, with a "code_num" and a "wire" form. Anything else
// is not errgen's, whatever its name.
func isGolden(path, code string) bool {
	data, err := fsafe.ReadFile(path, maxGolden)
	if err != nil {
		return false
	}
	var g struct {
		Code    *string          `json:"code"`
		CodeNum *json.Number     `json:"code_num"`
		Wire    *json.RawMessage `json:"wire"`
	}
	if json.Unmarshal(data, &g) != nil {
		return false
	}
	return g.Code != nil && *g.Code == code && g.CodeNum != nil && g.Wire != nil
}

// orphanText says what an orphan golden file is: of a code the catalogue
// no longer has, or of one whose variant's example now selects another
// code (a sub-code added, or the first one changed), as examples says.
func orphanText(dir, rel string, examples map[string]string) string {
	path := diag.Path(displayPath(filepath.Join(dir, filepath.FromSlash(rel))))
	code := strings.TrimSuffix(strings.TrimPrefix(rel, "testdata/"), goldenSuffix)
	if ex, ok := examples[code]; ok && ex != code {
		return fmt.Sprintf("%s is the golden file of %s, which no example selects now: its variant's example selects %s (testdata/%s%s)", path, diag.Quote(code), diag.Quote(ex), ex, goldenSuffix)
	}
	return fmt.Sprintf("%s is the golden file of a code the catalogue no longer has", path)
}

// exampleCodes maps each code and sub-code of m to the code of its
// variant's example (orphanText).
func exampleCodes(m *model.Catalogue) map[string]string {
	out := map[string]string{}
	for _, v := range m.Variants {
		out[v.Code] = v.ExampleCode()
		for _, sc := range v.Subcodes {
			out[sc.Code] = v.ExampleCode()
		}
	}
	return out
}

// prune deletes the orphan golden files, each only while it is still a
// regular file below dir, and returns how many it deleted. One that is
// already gone counts as deleted: what --prune asks for holds.
func prune(e *env, dir string, rels []string, verbose bool) (int, error) {
	for n, rel := range rels {
		if err := fsafe.CheckBelow(dir, rel); err != nil {
			return n, err
		}
		target := filepath.Join(dir, filepath.FromSlash(rel))
		var err error
		if e.writeHook != nil {
			err = e.writeHook(fsafe.OpRemove, target)
		}
		if err == nil {
			err = os.Remove(target)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return n, fmt.Errorf("cannot delete %s: %w", diag.Path(displayPath(target)), err)
		}
		if verbose {
			fmt.Fprintf(e.stdout, "%s (deleted)\n", diag.Path(displayPath(target)))
		}
	}
	return len(rels), nil
}

// checkPackage refuses to generate package m.Package into a folder whose
// other Go files are of another package: the folder would not build, and
// the catalogue's package: line is what to fix (or -o). errgen's own
// files, files excluded from every build (//go:build ignore, or a name
// the go command ignores, starting with _ or .) and a test file's external
// package (name_test) do not count.
//
// It returns the files of the package that errgen does not write (its
// own, and its external tests'), whose names checkNames compares with
// the generated ones'.
func checkPackage(m *model.Catalogue, dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil // a missing folder holds no other package
	}
	var same []string
	for _, e := range entries {
		name := e.Name()
		// The go command ignores a file whose name starts with _ or .
		if !e.Type().IsRegular() || filepath.Ext(name) != ".go" || slices.Contains(golang.Files, name) || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
			continue
		}
		head, _, err := fsafe.ReadHead(filepath.Join(dir, name), headSize)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, head, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil || ignored(f.Comments) {
			continue
		}
		pkg := f.Name.Name
		if pkg == m.Package {
			same = append(same, filepath.Join(dir, name))
			continue
		}
		if strings.HasSuffix(name, "_test.go") && pkg == m.Package+"_test" {
			continue
		}
		where := diag.Path(displayPath(dir))
		if where == "." {
			// Run in the folder, as go generate runs errgen.
			where = "this folder"
		}
		var l diag.List
		l.Errorf(m.KeyPos("package"), "package %s does not match the Go files already in %s: %s is package %s; change package: or write elsewhere with -o",
			diag.Quote(m.Package), where, diag.Path(name), diag.Quote(pkg))
		return nil, &diagError{l}
	}
	return same, nil
}

// checkNames refuses to write the generated files into a package whose
// other files (own, from checkPackage) declare a name the generated files
// declare too at package level or take for an import, a method of the
// same name as a generated method or field of the same type, or import a
// package under a name the generated files declare, or with a dot (any
// dot import, see below): the package would not build. Each is reported
// at the other file's declaration or import, which is what to change.
// Only read when there are such files.
func checkNames(own []string, files []gen.File) error {
	if len(own) == 0 {
		return nil
	}
	// generated holds what the generated files declare, methods as
	// "Type.Method"; genFields the fields of their structs, as
	// "Type.Field"; genImports the names their imports take in their
	// files.
	generated, genFields, genImports := map[string]string{}, map[string]string{}, map[string]string{}
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".go") {
			continue
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, f.Path, f.Data, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for name, pos := range declared(af) {
			if _, dup := generated[name]; !dup {
				generated[name] = fset.Position(pos).String()
			}
		}
		for name, pos := range fields(af) {
			if _, dup := genFields[name]; !dup {
				genFields[name] = fset.Position(pos).String()
			}
		}
		for name, pos := range importNames(af) {
			if _, dup := genImports[name]; !dup {
				genImports[name] = fset.Position(pos).String()
			}
		}
	}
	var l diag.List
	for _, p := range own {
		src, err := fsafe.ReadFile(p, maxGolden)
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			continue // the go command reports it
		}
		at := func(pos token.Pos) diag.Pos {
			where := fset.Position(pos)
			return diag.Pos{File: displayPath(p), Line: where.Line, Col: where.Column}
		}
		for name, pos := range declared(af) {
			if gen, ok := generated[name]; ok {
				what := "the name " + diag.Quote(name)
				if typ, method, ok := strings.Cut(name, "."); ok {
					what = "the method " + diag.Quote(method) + " of " + diag.Quote(typ)
				}
				l.Errorf(at(pos), "%s is declared by the generated package too (%s), so the package would not build; rename it here", what, gen)
			} else if gen, ok := genFields[name]; ok {
				typ, field, _ := strings.Cut(name, ".")
				l.Errorf(at(pos), "the method %s of %s has the name of a field the generated %s has (%s), so the package would not build; rename it here", diag.Quote(field), diag.Quote(typ), diag.Quote(typ), gen)
			} else if gen, ok := genImports[name]; ok {
				l.Errorf(at(pos), "the name %s is a package a generated file imports (%s), so the package would not build; rename it here", diag.Quote(name), gen)
			}
		}
		for name, pos := range importNames(af) {
			if gen, ok := generated[name]; ok {
				l.Errorf(at(pos), "this file imports a package as %s, a name the generated package declares (%s), so the package would not build; import it under another name", diag.Quote(name), gen)
			}
		}
		// A dot import puts every name the imported package exports in
		// the file's scope, where one the package declares too does not
		// build: a variant's name, a name of the runtime (Lookup, with
		// os/user). The generated names grow with the catalogue, so any
		// dot import is refused, not only one that clashes today.
		for _, im := range af.Imports {
			if im.Name == nil || im.Name.Name != "." {
				continue
			}
			p, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				continue
			}
			l.Errorf(at(im.Pos()), "this file dot-imports %s, which puts every name that package exports beside the names the generated package declares (one per variant, and more as the catalogue grows), so a name in both would not build; import it without the dot, as import %s, and write %s.Name for its names",
				diag.Quote(p), diag.Quote(p), importName(p))
		}
	}
	if len(l) > 0 {
		return &diagError{l.Sort()}
	}
	return nil
}

// declared returns the names f declares at package level, with where:
// functions, types, variables and constants by name, methods as
// "Type.Method". init and _ may be declared more than once.
func declared(f *ast.File) map[string]token.Pos {
	out := map[string]token.Pos{}
	add := func(id *ast.Ident) {
		if id != nil && id.Name != "_" && id.Name != "init" {
			out[id.Name] = id.Pos()
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				add(d.Name)
				continue
			}
			if recv := receiverName(d.Recv.List[0].Type); recv != "" {
				out[recv+"."+d.Name.Name] = d.Name.Pos()
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					add(sp.Name)
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						add(id)
					}
				}
			}
		}
	}
	return out
}

// fields returns the fields of the struct types f declares, as
// "Type.Field", with where: a method of that name would not build.
func fields(f *ast.File) map[string]token.Pos {
	out := map[string]token.Pos{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, sp := range g.Specs {
			ts, ok := sp.(*ast.TypeSpec)
			if !ok {
				continue
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, fd := range st.Fields.List {
				for _, id := range fd.Names {
					out[ts.Name.Name+"."+id.Name] = id.Pos()
				}
				if len(fd.Names) == 0 {
					// An embedded field is named by its type.
					if name := receiverName(fd.Type); name != "" {
						out[ts.Name.Name+"."+name] = fd.Type.Pos()
					}
				}
			}
		}
	}
	return out
}

// importNames returns the names f's imports take in it, with where: the
// name given, or the last element of the path (a /vN suffix skipped).
// Imports named _ or . declare no name.
func importNames(f *ast.File) map[string]token.Pos {
	out := map[string]token.Pos{}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := importName(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		if name != "_" && name != "." {
			out[name] = im.Pos()
		}
	}
	return out
}

// importName is the name an import of path p takes when it names none,
// as goimports assumes it without reading the package: the last element
// of the path, a /vN suffix skipped, a go- prefix dropped, cut at the
// first character an identifier cannot hold (yaml for gopkg.in/yaml.v3,
// sqlite3 for go-sqlite3).
func importName(p string) string {
	name := path.Base(p)
	if strings.HasPrefix(name, "v") && strings.Trim(name[1:], "0123456789") == "" && len(name) > 1 && strings.Contains(p, "/") {
		name = path.Base(path.Dir(p))
	}
	name = strings.TrimPrefix(name, "go-")
	if i := strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }); i >= 0 {
		name = name[:i]
	}
	return name
}

// receiverName is the name of a method's receiver type: T of T, *T, T[P]
// and *T[P].
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// ignored reports whether the comments before a package clause hold a
// build constraint that none of the common platforms satisfies, such as
// //go:build ignore: such a file is in no build of the package.
func ignored(groups []*ast.CommentGroup) bool {
	platforms := [][]string{{"linux", "amd64", "unix"}, {"darwin", "arm64", "unix"}, {"windows", "amd64"}}
	for _, g := range groups {
		for _, c := range g.List {
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				continue
			}
			built := false
			for _, tags := range platforms {
				built = built || expr.Eval(func(tag string) bool {
					return slices.Contains(tags, tag) || tag == "gc" || tag == "cgo" || strings.HasPrefix(tag, "go1.")
				})
			}
			if !built {
				return true
			}
		}
	}
	return false
}
