package cli

import (
	"context"
	"errors"
	"io/fs"
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

// catalogueSet is what a command that takes several catalogues works on:
// the registry's catalogues when it runs in a folder with a registry and
// is given none, else the catalogues given (errors.yaml by default).
type catalogueSet struct {
	// reg is the registry, nil when the catalogues were given.
	reg *ast.Registry
	// root is the registry's folder.
	root string
	// paths are the catalogues' files, and entries their registry entries
	// (nil without a registry).
	paths   []string
	entries []*ast.RegistryEntry
	// unsafe are the errors of the entries whose path cannot be read
	// safely (a link, a folder), nil for the others.
	unsafe []error
	// unlisted are the catalogues below root the registry does not list
	// (registry.Unlisted), found on first use; meant those of them a
	// listed path that does not exist was taken for, reported there.
	unlisted    []string
	unlistedErr error
	found       bool
	meant       map[string]bool
	// listedBy are, for catalogues given without their registry, the
	// entries of the nearest registry above each that lists it (nil for
	// one none lists), found by load: their owner and ranges are the
	// catalogue's as they are through the registry.
	listedBy []*ast.RegistryEntry
}

// findUnlisted returns the catalogues below the registry's folder that it
// does not list.
func (s *catalogueSet) findUnlisted() ([]string, error) {
	if !s.found {
		s.found = true
		s.unlisted, s.unlistedErr = registry.Unlisted(s.root, s.reg)
		if errors.Is(s.unlistedErr, fs.ErrNotExist) {
			s.unlistedErr = nil
		}
	}
	return s.unlisted, s.unlistedErr
}

// catalogues finds the set args name: a registry file given alone or, with
// no argument, registry.FileName in the current folder; else the
// catalogues given, or DefaultCatalogue.
func catalogues(e *env, args []string) (*catalogueSet, error) {
	return cataloguesAs(e, args, displayPath)
}

// cataloguesAs is catalogues with nameOf naming the registry file in
// diagnostics and positions, as it names the catalogues (diff names them
// from the repository's root).
func cataloguesAs(e *env, args []string, nameOf func(string) string) (*catalogueSet, error) {
	regPath := ""
	switch {
	case len(args) == 1 && filepath.Base(args[0]) == registry.FileName:
		regPath = args[0]
	case len(args) == 0:
		if _, err := os.Lstat(registry.FileName); err == nil {
			regPath = registry.FileName
		}
	}
	if regPath == "" {
		if len(args) == 0 {
			args = []string{DefaultCatalogue}
		}
		for _, a := range args {
			if filepath.Base(a) == registry.FileName {
				// Not a catalogue: the registry names its own.
				return nil, usagef("%s is a registry; give it alone, or give catalogues", diag.Quote(a))
			}
		}
		if err := givenOnce(args); err != nil {
			return nil, err
		}
		return &catalogueSet{paths: args, entries: make([]*ast.RegistryEntry, len(args))}, nil
	}
	src, err := fsafe.ReadFile(regPath, load.MaxSize+1)
	if err != nil {
		return nil, fsafe.PathError(err)
	}
	reg, diags := load.LoadRegistry(nameOf(regPath), src)
	if reg != nil {
		diags = append(diags, registry.CheckEntries(reg)...)
	}
	if diags.HasErrors() {
		if reg != nil {
			// Reported with the registry's other errors, not one run
			// after them; otherwise with the catalogues' (check).
			diags = append(diags, registry.CheckDocs(filepath.Dir(regPath), reg)...)
		}
		return nil, &diagError{diags.Sort()}
	}
	if twice := sameFileListed(filepath.Dir(regPath), reg); len(twice) > 0 {
		// With the registry's other errors, as above.
		twice = append(twice, registry.CheckDocs(filepath.Dir(regPath), reg)...)
		return nil, &diagError{twice.Sort()}
	}
	e.warn(diags.Sort())
	set := &catalogueSet{reg: reg, root: filepath.Dir(regPath)}
	for _, en := range reg.Catalogues {
		// The registry is in the repository a pull request controls: no
		// folder on the way to a catalogue may be a link out of it.
		// Such an entry is reported at its path, and the others are
		// checked (load).
		set.unsafe = append(set.unsafe, fsafe.CheckBelow(set.root, path.Clean(en.Path.Value)))
		set.paths = append(set.paths, filepath.Join(set.root, filepath.FromSlash(path.Clean(en.Path.Value))))
		set.entries = append(set.entries, en)
	}
	return set, nil
}

// sameFileListed reports each entry of reg whose path names the file an
// earlier entry's does under another spelling (Tools/errors.yaml beside
// tools/errors.yaml where names ignore letter case, or a hard link): the
// catalogue would conflict with itself at each code and num. Entries
// that cannot be read safely are left to load, which reports them.
func sameFileListed(root string, reg *ast.Registry) diag.List {
	var l diag.List
	type seen struct {
		en *ast.RegistryEntry
		st fs.FileInfo
	}
	var files []seen
	for _, en := range reg.Catalogues {
		rel := path.Clean(en.Path.Value)
		if fsafe.CheckBelow(root, rel) != nil {
			continue
		}
		st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if k := slices.IndexFunc(files, func(f seen) bool { return os.SameFile(f.st, st) }); k >= 0 {
			first := files[k].en.Path
			l.Errorf(en.Path.Pos, "catalogue %s is listed twice: it is the file listed as %s (at %s); list it once", diag.Quote(en.Path.Value), diag.Quote(first.Value), first.Pos)
			continue
		}
		files = append(files, seen{en, st})
	}
	return l
}

// notARegistry refuses a registry file where a command reads one
// catalogue (generate's CATALOGUE, explain's --catalogue): it lists
// catalogues and is none, and read as one it would only be told that it
// lacks a catalogue's keys. flag names the flag that gave it, if any.
func notARegistry(flag, p string) error {
	if filepath.Base(p) != registry.FileName {
		return nil
	}
	if flag != "" {
		flag += " "
	}
	return usagef("%s%s is a registry, not a catalogue; give one of the catalogues it lists", flag, diag.Quote(p))
}

// baseNotARegistry refuses a registry file as the --against BASE of one
// catalogue (a file, or the PATH of git:REV:PATH), for the reason
// notARegistry gives: compared as a catalogue, it would only be told that
// it lacks a catalogue's keys. A registry's catalogues are compared with
// the registry as the argument and git:REV.
func baseNotARegistry(against string) error {
	p := against
	if spec, ok := strings.CutPrefix(against, "git:"); ok {
		_, p, _ = strings.Cut(spec, ":")
	}
	if p == "" || path.Base(filepath.ToSlash(p)) != registry.FileName {
		return nil
	}
	return usagef("--against %s is a registry, not a catalogue; give one of the catalogues it lists, or compare them all: --against git:REV %s", diag.Quote(against), registry.FileName)
}

// givenOnce refuses a catalogue given twice (base.yaml ./base.yaml), which
// would be checked against itself and conflict with every code and num it
// has. Paths are compared cleaned and absolute, and as files, so that two
// names of one file (in another letter case on macOS and Windows) count
// as one.
func givenOnce(args []string) error {
	type seen struct {
		arg string
		st  fs.FileInfo
	}
	byPath := map[string]string{}
	var files []seen
	for _, a := range args {
		abs, err := filepath.Abs(a)
		if err != nil {
			abs = filepath.Clean(a)
		}
		if first, dup := byPath[abs]; dup {
			return twice(first, a)
		}
		byPath[abs] = a
		st, err := os.Lstat(a)
		if err != nil {
			continue // reading it says what is wrong
		}
		for _, f := range files {
			if os.SameFile(f.st, st) {
				return twice(f.arg, a)
			}
		}
		files = append(files, seen{a, st})
	}
	return nil
}

// twice is the usage error of a catalogue given as first and again as again.
func twice(first, again string) error {
	if first == again {
		return usagef("catalogue %s is given twice; give each catalogue once", diag.Quote(first))
	}
	return usagef("catalogue %s is given twice, also as %s; give each catalogue once", diag.Quote(first), diag.Quote(again))
}

// check loads every catalogue of the set and checks them together:
// each on its own, then the cross-catalogue rules over those that
// resolved, then (with a registry)
// the references its docs name and the catalogues under its folder that
// it does not list. Diagnostics of
// every catalogue are printed together, sorted.
func (s *catalogueSet) check(ctx context.Context, e *env) ([]registry.Catalogue, error) {
	cats, all, err := s.load(ctx, displayPath)
	if err != nil {
		return nil, err
	}
	// The catalogues that resolved are checked together even when another
	// did not (it does not exist, or has errors of its own): cats holds
	// only those, so nothing is reported of one that failed.
	if len(cats) > 1 || s.reg != nil {
		all = append(all, registry.Check(cats)...)
	}
	if s.reg != nil {
		all = append(all, registry.CheckDocs(s.root, s.reg)...)
		unlisted, err := s.unlistedWarnings()
		if err != nil {
			return nil, err
		}
		all = append(all, unlisted...)
	}
	all = all.Sort()
	if all.HasErrors() {
		return nil, &diagError{all}
	}
	e.warn(all)
	return cats, nil
}

// unlistedWarnings warns, at the registry's catalogues key, of each
// catalogue below its folder that it does not list (but one a listed path
// misspells, which has its own error).
func (s *catalogueSet) unlistedWarnings() (diag.List, error) {
	var l diag.List
	extra, err := s.findUnlisted()
	if err != nil {
		return nil, err
	}
	pos := diag.Pos{File: s.reg.File, Line: 1, Col: 1}
	if p, ok := s.reg.Keys.Pos("catalogues"); ok {
		pos = p
	}
	for _, rel := range extra {
		if s.meant[rel] {
			continue // the did-you-mean of a listed path
		}
		if !registry.Listable(rel) {
			// Adding it as it is would be refused at its path.
			l.Warnf(pos, "%s is a catalogue the registry does not list; an entry's path is of letters, digits, '.', '_', '-' and '/', so rename its folder, then add it under catalogues with its owner and nums, so its codes are checked with the others", diag.Quote(rel))
			continue
		}
		l.Warnf(pos, "%s is a catalogue the registry does not list; add it under catalogues with its owner and nums, so its codes are checked with the others", diag.Quote(rel))
	}
	return l, nil
}

// load reads and resolves every catalogue of the set, each on its own, and
// returns them with the diagnostics of all of them.
func (s *catalogueSet) load(ctx context.Context, nameOf func(string) string) ([]registry.Catalogue, diag.List, error) {
	var all diag.List
	var cats []registry.Catalogue
	// The catalogues of a registry share one importer, so each is read
	// and resolved once however many import it.
	var shared *importer
	if s.reg != nil {
		shared = newImporter(filepath.Join(s.root, registry.FileName))
		shared.nameOf = nameOf
	}
	for i, p := range s.paths {
		if i < len(s.unsafe) && s.unsafe[i] != nil {
			all.Errorf(s.entries[i].Path.Pos, "catalogue %s cannot be read: %v", diag.Quote(s.entries[i].Path.Value), fsafe.PathError(fsafe.Named(s.unsafe[i], nameOf)))
			continue
		}
		imp := shared
		if imp == nil {
			imp = newImporter(p)
			imp.nameOf = nameOf
		}
		m, err := loadCatalogueQuiet(ctx, p, nameOf(p), imp)
		var de *diagError
		var re *readError
		switch {
		case errors.As(err, &de):
			all = append(all, de.list...)
			continue
		case errors.As(err, &re) && s.entries[i] != nil:
			// A catalogue the registry lists and that cannot be read is
			// a problem of the registry's entry, reported there; the
			// other catalogues are still checked.
			en := s.entries[i]
			if errors.Is(err, fs.ErrNotExist) {
				// A catalogue below the registry that it does not list
				// is likely the one the path misspells.
				unlisted, _ := s.findUnlisted()
				if near := registry.Meant(en.Path.Value, unlisted); near != "" {
					if s.meant == nil {
						s.meant = map[string]bool{}
					}
					s.meant[near] = true
					if !registry.Listable(near) {
						// Listed as it is, it would be refused at its
						// path: the folder is to be renamed first.
						all.Errorf(en.Path.Pos, "catalogue %s does not exist; %s is likely it, but an entry's path is of letters, digits, '.', '_', '-' and '/': rename its folder, and list it by its new path", diag.Quote(en.Path.Value), diag.Quote(near))
						continue
					}
					all.Errorf(en.Path.Pos, "catalogue %s does not exist; did you mean %s?", diag.Quote(en.Path.Value), diag.Quote(near))
					continue
				}
				all.Errorf(en.Path.Pos, "catalogue %s does not exist; create it, or remove its entry", diag.Quote(en.Path.Value))
			} else {
				all.Errorf(en.Path.Pos, "catalogue %s cannot be read: %v", diag.Quote(en.Path.Value), fsafe.Named(re.err, nameOf))
			}
			continue
		case err != nil:
			return nil, nil, err
		}
		all = append(all, m.diags...)
		if s.reg == nil {
			// A catalogue given on the command line keeps the ranges
			// of a registry above it that lists it, and its owner.
			en, l := imp.listing(p, m.model)
			if en != nil {
				l = registry.OutOfRange(m.model, en)
			}
			all = append(all, l...)
			if s.listedBy == nil {
				s.listedBy = make([]*ast.RegistryEntry, len(s.paths))
			}
			s.listedBy[i] = en
		}
		cats = append(cats, registry.Catalogue{Entry: s.entries[i], Model: m.model})
	}
	return cats, all, nil
}

// loaded is a catalogue read and resolved, and its warnings.
type loaded struct {
	model *model.Catalogue
	diags diag.List
}

// loadCatalogueQuiet reads and resolves a catalogue without printing:
// its errors come back as a *diagError, its warnings with the model.
func loadCatalogueQuiet(ctx context.Context, p, name string, imp model.Importer) (loaded, error) {
	src, err := readCatalogue(p)
	if err != nil {
		return loaded{}, &readError{err}
	}
	return interruptible(ctx, func() (loaded, error) {
		m, diags := gen.ParseWith(name, src, imp)
		if m == nil {
			return loaded{}, &diagError{diags}
		}
		return loaded{m, diags}, nil
	})
}

// readError is a catalogue's file that could not be read.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }
