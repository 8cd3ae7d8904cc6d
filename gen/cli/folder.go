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
	"path/filepath"
	"slices"
	"strings"

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
const goldenSuffix = ".golden.json"

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

// orphanText says what an orphan golden file is.
func orphanText(dir, rel string) string {
	return fmt.Sprintf("%s is the golden file of a code the catalogue no longer has", diag.Path(displayPath(filepath.Join(dir, filepath.FromSlash(rel)))))
}

// prune deletes the orphan golden files, each only while it is still a
// regular file below dir.
func prune(e *env, dir string, rels []string, verbose bool) error {
	for _, rel := range rels {
		if err := fsafe.CheckBelow(dir, rel); err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.Remove(target); err != nil {
			return fsafe.PathError(err)
		}
		if verbose {
			fmt.Fprintf(e.stdout, "%s (deleted)\n", diag.Path(displayPath(target)))
		}
	}
	return nil
}

// checkPackage refuses to generate package m.Package into a folder whose
// other Go files are of another package: the folder would not build, and
// the catalogue's package: line is what to fix (or -o). errgen's own
// files, files excluded from every build (//go:build ignore, or a name
// the go command ignores, starting with _ or .) and a test file's external
// package (name_test) do not count.
func checkPackage(m *model.Catalogue, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // a missing folder holds no other package
	}
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
		if pkg == m.Package || strings.HasSuffix(name, "_test.go") && pkg == m.Package+"_test" {
			continue
		}
		var l diag.List
		l.Errorf(m.KeyPos("package"), "package %s does not match the Go files already in %s: %s is package %s; change package: or write elsewhere with -o",
			diag.Quote(m.Package), diag.Path(displayPath(dir)), diag.Path(name), diag.Quote(pkg))
		return &diagError{l}
	}
	return nil
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
