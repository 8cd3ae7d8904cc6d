package cli

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/fsafe"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/registry"
)

// importer gives a catalogue the families of the other catalogues of the
// registry above it (model.Importer), resolving them on demand: a
// catalogue without a field of another catalogue's family never looks for
// the registry.
type importer struct {
	// start is the folder of the catalogue being resolved.
	start string
	// The registry, found on first use; err says why there is none.
	found bool
	err   error
	root  string
	paths map[string]string // catalogue file by package
	done  map[string]imported
	// stack is the chain of packages being resolved, for cycles.
	stack []string
}

type imported struct {
	m    *model.Catalogue
	path string
	err  error
}

func newImporter(catalogue string) *importer {
	return &importer{start: filepath.Dir(catalogue), done: map[string]imported{}}
}

// Import implements model.Importer.
func (im *importer) Import(from, pkg string) (*model.Catalogue, string, error) {
	if !im.found {
		im.found = true
		im.err = im.find()
	}
	if im.err != nil {
		return nil, "", im.err
	}
	if len(im.stack) == 0 {
		im.stack = []string{from}
		defer func() { im.stack = nil }()
	}
	if slices.Contains(im.stack, pkg) {
		return nil, "", fmt.Errorf("import cycle: %s → %s", strings.Join(im.stack, " → "), pkg)
	}
	if d, ok := im.done[pkg]; ok {
		return d.m, d.path, d.err
	}
	file, ok := im.paths[pkg]
	if !ok {
		return nil, "", fmt.Errorf("no catalogue of the registry %s has package %s", filepath.ToSlash(filepath.Join(im.root, registry.FileName)), pkg)
	}
	im.stack = append(im.stack, pkg)
	m, ipath, err := im.resolve(pkg, file)
	im.stack = im.stack[:len(im.stack)-1]
	im.done[pkg] = imported{m, ipath, err}
	return m, ipath, err
}

// find finds the registry in the catalogue's folder or above it, and the
// package of every catalogue it lists.
func (im *importer) find() error {
	dir, err := filepath.Abs(im.start)
	if err != nil {
		return err
	}
	for {
		if st, err := os.Lstat(filepath.Join(dir, registry.FileName)); err == nil && st.Mode().IsRegular() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return errors.New("no " + registry.FileName + " in this catalogue's folder or above it lists the other catalogue")
		}
		dir = parent
	}
	im.root = dir
	src, err := fsafe.ReadFile(filepath.Join(dir, registry.FileName), load.MaxSize+1)
	if err != nil {
		return fsafe.PathError(err)
	}
	reg, diags := load.LoadRegistry(registry.FileName, src)
	if reg == nil || diags.HasErrors() {
		return errors.New("the registry " + filepath.ToSlash(filepath.Join(dir, registry.FileName)) + " has errors; run errgen lint there")
	}
	im.paths = map[string]string{}
	for _, en := range reg.Catalogues {
		if err := im.add(en); err != nil {
			return err
		}
	}
	return nil
}

// add reads an entry's catalogue far enough to know its package.
func (im *importer) add(en *ast.RegistryEntry) error {
	rel := path.Clean(en.Path.Value)
	if err := fsafe.CheckBelow(im.root, rel); err != nil {
		return fsafe.PathError(err)
	}
	file := filepath.Join(im.root, filepath.FromSlash(rel))
	src, err := readCatalogue(file)
	if err != nil {
		return err
	}
	if cat, _ := load.Load(file, src); cat != nil && cat.Package.Value != "" {
		if _, dup := im.paths[cat.Package.Value]; !dup {
			im.paths[cat.Package.Value] = file
		}
	}
	return nil
}

// resolve resolves the catalogue of package pkg, in file, and derives the
// import path of its generated package.
func (im *importer) resolve(pkg, file string) (*model.Catalogue, string, error) {
	src, err := readCatalogue(file)
	if err != nil {
		return nil, "", err
	}
	m, diags := gen.ParseWith(displayPath(file), src, im)
	if m == nil {
		first := ""
		for _, d := range diags {
			if d.Severity == diag.Error {
				first = ": " + d.String()
				break
			}
		}
		return nil, "", fmt.Errorf("the catalogue of package %s has errors%s", pkg, first)
	}
	ipath, err := importPath(filepath.Dir(file), pkg)
	return m, ipath, err
}

// importPath is the Go import path of the package generated into dir:
// the module path of the nearest go.mod at dir or above it, joined with
// dir's path from that go.mod's folder. errgen imports the package by its
// folder's name, so that must be the package's name.
func importPath(dir, pkg string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if filepath.Base(abs) != pkg {
		return "", fmt.Errorf("package %s is generated into folder %s; errgen imports a package by its folder's name, so name the folder %s", pkg, filepath.Base(abs), pkg)
	}
	for d := abs; ; d = filepath.Dir(d) {
		data, err := fsafe.ReadFile(filepath.Join(d, "go.mod"), 1<<20)
		if err == nil {
			mod := modulePath(data)
			if mod == "" {
				return "", fmt.Errorf("%s has no module line", filepath.Join(d, "go.mod"))
			}
			rel, err := filepath.Rel(d, abs)
			if err != nil {
				return "", err
			}
			if rel == "." {
				return mod, nil
			}
			return mod + "/" + filepath.ToSlash(rel), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod in %s or above it gives the import path of package %s", dir, pkg)
		}
	}
}

// modulePath reads the module path from a go.mod file.
func modulePath(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

var _ model.Importer = (*importer)(nil)
