package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
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
// the registry. With rev set, the registry and the catalogues are read as
// they were at that git revision (for compat and diff's base).
type importer struct {
	// start is the folder of the catalogue being resolved.
	start string
	rev   string
	// The registry, found on first use; err says why there is none.
	found bool
	err   error
	root  string
	reg   *ast.Registry
	// index holds the catalogue files of each package, built on the first
	// import; unread the registry entries that could not be read, and
	// broken those the loader refused, so that their package is unknown;
	// brokenFiles are the files of broken, as diagnostics name them.
	index       map[string][]string
	unread      []string
	broken      []string
	brokenFiles []string
	done        map[string]imported
	// stack is the chain of packages being resolved, for cycles.
	stack []string
	// toplevel is the repository's root, for reading at rev.
	toplevel string
	// nameOf names a registry file in diagnostics, when not as the
	// working folder sees it (displayPath).
	nameOf func(string) string
}

type imported struct {
	m    *model.Catalogue
	path string
	err  error
}

func newImporter(catalogue string) *importer {
	return &importer{start: filepath.Dir(catalogue), done: map[string]imported{}}
}

// newRevImporter is newImporter for a base at a git revision, spec being
// REV or REV:PATH; for any other base the catalogues as they are now.
func newRevImporter(catalogue, against string) *importer {
	im := newImporter(catalogue)
	if spec, ok := strings.CutPrefix(against, "git:"); ok {
		im.rev, _, _ = strings.Cut(spec, ":")
	}
	return im
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
	if i := slices.Index(im.stack, pkg); i >= 0 {
		return nil, "", fmt.Errorf("import cycle: %s → %s", strings.Join(im.stack[i:], " → "), pkg)
	}
	if d, ok := im.done[pkg]; ok {
		return d.m, d.path, d.err
	}
	if im.index == nil {
		im.buildIndex()
	}
	files := im.index[pkg]
	regName := im.name(filepath.Join(im.root, registry.FileName))
	switch {
	case len(files) > 1:
		return nil, "", fmt.Errorf("%s and %s both have package %s; errgen cannot tell which one the field means", diag.Quote(im.rel(files[0])), diag.Quote(im.rel(files[1])), pkg)
	case len(files) == 0 && im.nearPackage(from, pkg) != "":
		// A misspelt package: the one meant is readable and named.
		return nil, "", fmt.Errorf("no catalogue the registry %s lists has package %s; did you mean %s?", regName, pkg, diag.Quote(im.nearPackage(from, pkg)))
	case len(files) == 0 && len(im.broken) > 0:
		// The package is most likely one of these: say what is wrong
		// with them rather than that it is missing.
		return nil, "", im.echo(fmt.Errorf("no catalogue the registry %s lists has package %s that errgen could read: %s", regName, pkg, strings.Join(slices.Concat(im.broken, im.unread), "; ")))
	case len(files) == 0 && len(im.unread) > 0:
		return nil, "", im.echo(fmt.Errorf("no catalogue the registry %s lists has package %s (unreadable: %s)", regName, pkg, strings.Join(im.unread, "; ")))
	case len(files) == 0:
		return nil, "", fmt.Errorf("no catalogue the registry %s lists has package %s", regName, pkg)
	}
	im.stack = append(im.stack, pkg)
	m, ipath, err := im.resolve(pkg, files[0])
	im.stack = im.stack[:len(im.stack)-1]
	im.done[pkg] = imported{m, ipath, err}
	return m, ipath, err
}

// echo marks err, that no listed catalogue has a package, as repeating
// the one entry that could not be read or loaded, where it is reported:
// at its entry in the registry, or in the catalogue. With several such
// entries, which one the field means is unknown, and err stands alone.
func (im *importer) echo(err error) error {
	switch {
	case len(im.broken) == 1 && len(im.unread) == 0:
		return &model.EchoError{File: im.brokenFiles[0], Err: err}
	case len(im.broken) == 0 && len(im.unread) == 1:
		return &model.EchoError{File: im.name(filepath.Join(im.root, registry.FileName)), Err: err}
	}
	return err
}

// nearPackage is the package of a listed catalogue other than from that
// pkg, which none has, is likely a misspelling of (gatewy for gateway),
// or "": one edit in three letters, at most two; none in a name too short
// to tell a misspelling from another name.
func (im *importer) nearPackage(from, pkg string) string {
	pkgs := make([]string, 0, len(im.index))
	for p := range im.index {
		if p != from {
			pkgs = append(pkgs, p)
		}
	}
	slices.Sort(pkgs)
	if edits := min(2, len(pkg)/3); edits > 0 {
		return diag.Closest(pkg, pkgs, edits)
	}
	return ""
}

// rel names a file of the registry by its path from the registry's folder.
func (im *importer) rel(file string) string {
	if r, err := filepath.Rel(im.root, file); err == nil {
		return filepath.ToSlash(r)
	}
	return file
}

// errNoRegistry is find's error when no folder from the catalogue's up
// holds a registry.
var errNoRegistry = errors.New("no " + registry.FileName + " in this catalogue's folder or above it lists the other catalogue")

// brokenRegistry is find's error for a registry that lint would refuse.
type brokenRegistry struct{ file string }

func (e brokenRegistry) Error() string {
	return "the registry " + diag.Path(e.file) + " has errors; run errgen lint there"
}

// find finds the registry in the catalogue's folder or above it and checks
// it as lint does.
func (im *importer) find() error {
	dir, err := filepath.Abs(im.start)
	if err != nil {
		return err
	}
	im.reg, im.root, err = im.findFrom(dir)
	return err
}

// findFrom finds the registry in dir or above it, and returns it with its
// folder (set also when the registry cannot be read or has errors).
func (im *importer) findFrom(dir string) (*ast.Registry, string, error) {
	for {
		if _, _, err := fsafe.ReadHead(filepath.Join(dir, registry.FileName), 1); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, "", errNoRegistry
		}
		dir = parent
	}
	regFile := filepath.Join(dir, registry.FileName)
	src, err := im.read(regFile)
	if err != nil {
		return nil, dir, err
	}
	name := im.name(regFile)
	reg, diags := load.LoadRegistry(name, src)
	if reg != nil {
		diags = append(diags, registry.CheckEntries(reg)...)
	}
	if reg == nil || diags.HasErrors() {
		return nil, dir, brokenRegistry{name}
	}
	return reg, dir, nil
}

// name names a file in diagnostics: as nameOf does, else as the working
// folder sees it.
func (im *importer) name(file string) string {
	if im.nameOf != nil {
		return im.nameOf(file)
	}
	return displayPath(file)
}

// outOfRange reports the nums of m, the catalogue in file, that lie
// outside the ranges the nearest registry in its folder or above that
// lists it gives it, as lint of that registry does, so that generate
// refuses what lint refuses. A catalogue no registry lists has no ranges.
// A registry on the way that cannot be read or has errors of its own is
// lint's to report: here it is a warning that the ranges went unchecked.
func (im *importer) outOfRange(file string, m *model.Catalogue) diag.List {
	en, l := im.listing(file, m)
	if en == nil {
		return l
	}
	return registry.OutOfRange(m, en)
}

// listing returns the entry of the nearest registry in the folder of file,
// the catalogue m, or above it that lists it: nil when none does, or when
// a registry on the way cannot be read or has errors of its own, which is
// then a warning (lint of that registry reports its errors).
func (im *importer) listing(file string, m *model.Catalogue) (*ast.RegistryEntry, diag.List) {
	if !im.found {
		im.found = true
		im.err = im.find()
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, nil
	}
	st, statErr := os.Stat(abs)
	reg, root, err := im.reg, im.root, im.err
	for {
		var l diag.List
		switch b := (brokenRegistry{}); {
		case errors.Is(err, errNoRegistry):
			return nil, nil
		case errors.As(err, &b):
			l.Warnf(diag.Pos{File: b.file}, "the registry has errors, so the nums of %s were not checked against its ranges; run errgen lint there", diag.Path(m.File))
			return nil, l
		case err != nil:
			l.Warnf(diag.Pos{File: m.File}, "%v; its nums were not checked against the ranges of a registry", err)
			return nil, l
		}
		for _, en := range reg.Catalogues {
			rel := path.Clean(en.Path.Value)
			listed := filepath.Join(root, filepath.FromSlash(rel))
			if listed == abs {
				return en, nil
			}
			if statErr == nil && fsafe.CheckBelow(root, rel) == nil {
				if lst, err := os.Stat(listed); err == nil && os.SameFile(st, lst) {
					return en, nil
				}
			}
		}
		// Not listed there: a registry further up may list it.
		parent := filepath.Dir(root)
		if parent == root {
			return nil, nil
		}
		reg, root, err = im.findFrom(parent)
	}
}

// buildIndex reads every catalogue the registry lists far enough to know
// its package. An entry that cannot be read, or whose package the loader
// cannot tell (a YAML error, an anchor), is remembered with its first
// error, not fatal: it matters only to a field that names a package no
// other catalogue has.
func (im *importer) buildIndex() {
	im.index = map[string][]string{}
	for _, en := range im.reg.Catalogues {
		rel := path.Clean(en.Path.Value)
		file := filepath.Join(im.root, filepath.FromSlash(rel))
		var src []byte
		// Named as diagnostics name files, as is an element refused.
		err := fsafe.CheckBelow(im.root, rel)
		if err == nil {
			src, err = im.read(file)
		}
		if err != nil {
			im.unread = append(im.unread, diag.Quote(rel)+" "+unreadable(err, im.name))
			continue
		}
		cat, diags := load.Load(im.name(file), src)
		if cat == nil || !cat.Package.Set || cat.Package.Value == "" {
			im.broken = append(im.broken, fmt.Sprintf("%s has errors%s", diag.Quote(rel), firstError(diags)))
			im.brokenFiles = append(im.brokenFiles, im.name(file))
			continue
		}
		im.index[cat.Package.Value] = append(im.index[cat.Package.Value], file)
	}
}

// unreadable says why a listed catalogue could not be read, naming a
// file as name does, as diagnostics name files.
func unreadable(err error, name func(string) string) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "does not exist"
	}
	return "cannot be read: " + fsafe.PathError(fsafe.Named(err, name)).Error()
}

// read reads a file of the work tree, or at the revision. A file of the
// work tree is read by the path diagnostics name it by, relative to the
// working folder, so that an error reading it (a folder, a link, a file
// too large) names it so too rather than by its absolute path.
func (im *importer) read(file string) ([]byte, error) {
	if im.rev == "" {
		return readCatalogue(displayPath(file))
	}
	if im.toplevel == "" {
		out, err := git(im.start, "rev-parse", "--show-toplevel")
		if err != nil {
			return nil, err
		}
		im.toplevel = strings.TrimSpace(string(out))
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(im.toplevel, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("%s is outside the repository", file)
	}
	_, src, err := gitShow(im.rev+":"+filepath.ToSlash(rel), filepath.Join(im.toplevel, registry.FileName))
	if errors.Is(err, errNotInRevision) {
		return nil, fmt.Errorf("%s does not exist at %s", filepath.ToSlash(rel), im.rev)
	}
	return src, err
}

// resolve resolves the catalogue of package pkg, in file, and derives the
// import path of its generated package.
func (im *importer) resolve(pkg, file string) (*model.Catalogue, string, error) {
	src, err := im.read(file)
	if err != nil {
		return nil, "", err
	}
	// Named as the catalogue's own diagnostics name it, so that an error
	// that echoes them is recognised as such (model.EchoError).
	m, diags := gen.ParseWith(im.name(file), src, im)
	if m == nil {
		return nil, "", &model.EchoError{File: im.name(file), Err: fmt.Errorf("the catalogue of package %s has errors%s", pkg, firstError(diags))}
	}
	ipath, err := importPath(filepath.Dir(file), pkg, im.name)
	return m, ipath, err
}

// firstError is ": " and the first error of diags, in the order they
// were found, or "" when there is none.
func firstError(diags diag.List) string {
	for _, d := range diags {
		if d.Severity == diag.Error {
			return ": " + d.String()
		}
	}
	return ""
}

// importPath is the Go import path of the package generated into dir:
// the module path of the nearest go.mod at dir or above it, joined with
// dir's path from that go.mod's folder. Its last element (a /vN major
// version aside) must be the package's name, as Go's convention wants,
// so that a reader of the import knows the package: the folder's name,
// or for a package at a module's root, the module path's. name names a
// file or folder in an error, as diagnostics name files.
func importPath(dir, pkg string, name func(string) string) (string, error) {
	p, root, err := modulePathOf(dir, pkg, name)
	if err != nil {
		return "", err
	}
	if importName(p) != pkg {
		fix := "name its folder " + pkg
		if root {
			fix = "end its module's path in " + pkg
		}
		return "", fmt.Errorf("package %s has import path %s, which ends in %s; %s, like the package", pkg, diag.Quote(p), diag.Quote(path.Base(p)), fix)
	}
	return p, nil
}

// modulePathOf is importPath without the check of its last element, and
// whether dir is its module's root.
func modulePathOf(dir, pkg string, name func(string) string) (string, bool, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false, err
	}
	for d := abs; ; d = filepath.Dir(d) {
		gomod := filepath.Join(d, "go.mod")
		data, err := fsafe.ReadFile(gomod, 1<<20)
		switch {
		case err == nil:
			mod, err := modulePath(data)
			if err != nil {
				return "", false, fmt.Errorf("%s: %w", diag.Path(name(gomod)), err)
			}
			rel, err := filepath.Rel(d, abs)
			if err != nil {
				return "", false, err
			}
			if rel == "." {
				return mod, true, nil
			}
			return mod + "/" + filepath.ToSlash(rel), false, nil
		case !errors.Is(err, fs.ErrNotExist):
			return "", false, readErrorOf(gomod, err, name)
		}
		if filepath.Dir(d) == d {
			return "", false, fmt.Errorf("no go.mod in %s or above it gives the import path of package %s", diag.Path(name(dir)), pkg)
		}
	}
}

// modulePath reads the module path of a go.mod file: the module
// directive's path, quoted or not, without a trailing comment, on the
// directive's line or as the one line of a block (module ( ... )).
func modulePath(data []byte) (string, error) {
	lines := strings.Split(string(data), "\n")
	for n, line := range lines {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"' && rest[0] != '`' && rest[0] != '(') {
			continue
		}
		rest = strings.TrimSpace(rest)
		if block, _, _ := strings.Cut(rest, "//"); strings.TrimSpace(block) == "(" {
			rest = ""
			for _, l := range lines[n+1:] {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
					rest = l
					break
				}
			}
			if rest == "" || rest == ")" {
				return "", errors.New("no module path in the module block")
			}
		}
		var mod string
		switch {
		case strings.HasPrefix(rest, `"`) || strings.HasPrefix(rest, "`"):
			end := strings.IndexByte(rest[1:], rest[0])
			if end < 0 {
				return "", errors.New("unterminated module path")
			}
			unq, err := strconv.Unquote(rest[:end+2])
			if err != nil {
				return "", err
			}
			mod = unq
		default:
			mod, _, _ = strings.Cut(rest, "//")
			mod = strings.TrimSpace(mod)
		}
		if mod == "" || strings.ContainsAny(mod, " \t") {
			return "", fmt.Errorf("module path %s is not one errgen can use", strconv.Quote(mod))
		}
		return mod, nil
	}
	return "", errors.New("no module directive")
}

var _ model.Importer = (*importer)(nil)

// readErrorOf is err, an error reading file, with file named as name
// names it: as the error's own path when it has one, else before it.
func readErrorOf(file string, err error, name func(string) string) error {
	named := fsafe.PathError(fsafe.Named(err, name))
	if strings.Contains(named.Error(), diag.Path(name(file))) {
		return named
	}
	return fmt.Errorf("%s: %w", diag.Path(name(file)), named)
}
