// Package registry checks several catalogues together: the catalogues an
// errgen.registry.yaml lists (each with its owner and the num ranges it
// may use), or those given on the command line. Across catalogues a code
// or a num, reserved ones included, means one error of one service, so it
// is used once; a registry's ranges do not overlap, and each catalogue's
// nums lie in its ranges. Every problem names both positions.
package registry

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/fsafe"
	"github.com/errgen/errgen/gen/model"
)

// FileName is the registry's file name, at a repository's root.
const FileName = "errgen.registry.yaml"

// Catalogue is one catalogue checked with the others.
type Catalogue struct {
	// Entry is the catalogue's registry entry, nil when the catalogue was
	// named on the command line (its ranges, from a registry above it,
	// are then checked as it is loaded: OutOfRange).
	Entry *ast.RegistryEntry
	Model *model.Catalogue
}

// CheckEntries checks a registry on its own, before its catalogues are
// read: its version, each entry's path, owner and ranges, and ranges of
// two entries that overlap.
func CheckEntries(reg *ast.Registry) diag.List {
	var l diag.List
	if reg.Version.Set && reg.Version.Value != 1 {
		l.Errorf(reg.Version.Pos, "unsupported registry version %d; the only registry format is version 1", reg.Version.Value)
	}
	paths := map[string]diag.Pos{}
	type span struct {
		r     ast.NumRange
		entry *ast.RegistryEntry
	}
	var spans []span
	for _, en := range reg.Catalogues {
		switch d := en.Docs; {
		case !d.Set:
		case !localPath(d.Value):
			l.Errorf(d.Pos, "docs %s must be a clean, relative, slash-separated path inside the registry's folder, of letters, digits, '.', '_', '-' and '/', such as tools/ERRORS.md", diag.Quote(d.Value))
		case !markdown(d.Value):
			l.Errorf(d.Pos, "docs %s must name the catalogue's Markdown reference, a .md file such as tools/ERRORS.md (errgen docs -o), which the index links each code to", diag.Quote(d.Value))
		}
		if p := en.Path; p.Set {
			clean := path.Clean(p.Value)
			switch first, dup := paths[clean]; {
			case !localPath(p.Value):
				l.Errorf(p.Pos, "path %s must be a clean, relative, slash-separated path inside the registry's folder, of letters, digits, '.', '_', '-' and '/', such as tools/errors.yaml", diag.Quote(p.Value))
			case dup:
				l.Errorf(p.Pos, "catalogue %s is listed twice (first at %s)", diag.Quote(p.Value), first)
			default:
				paths[clean] = p.Pos
			}
		}
		if o := en.Owner; o.Set && strings.TrimSpace(o.Value) == "" {
			l.Errorf(o.Pos, "owner must name who owns the catalogue")
		}
		for _, r := range en.Nums {
			if !r.Lo.Set || !r.High.Set {
				continue
			}
			switch {
			case r.Lo.Value <= 0:
				l.Errorf(r.Lo.Pos, "a nums range starts at a positive number, not %d", r.Lo.Value)
			case r.Lo.Value > r.High.Value:
				l.Errorf(r.Pos, "nums range [%d, %d] is empty: its first number is above its last", r.Lo.Value, r.High.Value)
			default:
				spans = append(spans, span{r, en})
			}
		}
	}
	for i, a := range spans {
		for _, b := range spans[:i] {
			if a.r.Lo.Value <= b.r.High.Value && b.r.Lo.Value <= a.r.High.Value {
				l.Errorf(a.r.Pos, "nums range [%d, %d] of %s overlaps [%d, %d] of %s (%s)", a.r.Lo.Value, a.r.High.Value, name(a.entry),
					b.r.Lo.Value, b.r.High.Value, name(b.entry), b.r.Pos)
			}
		}
	}
	return l
}

// Listable reports whether p, a slash path from the registry's folder,
// is one an entry's path can take (see CheckEntries).
func Listable(p string) bool { return localPath(p) }

// localPath reports whether p is a clean, relative, slash-separated path
// that stays inside the registry's folder and needs no escaping in a
// Markdown link: the index links to catalogues and their references.
func localPath(p string) bool {
	clean := path.Clean(p)
	return safePath.MatchString(p) && clean == p && !path.IsAbs(p) && clean != ".." && !strings.HasPrefix(clean, "../")
}

var safePath = regexp.MustCompile(`^[A-Za-z0-9._/-]+$`)

// markdown reports whether p names a Markdown file, by its extension.
func markdown(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".md" || ext == ".markdown"
}

// CheckDocs checks, after CheckEntries, that each entry's docs names a
// file below root, the registry's folder: the reference the index links
// to. A missing one is told the Markdown file of its folder it likely
// misspells, or how to write it.
func CheckDocs(root string, reg *ast.Registry) diag.List {
	var l diag.List
	for _, en := range reg.Catalogues {
		d := en.Docs
		if !d.Set || !localPath(d.Value) || !markdown(d.Value) {
			continue // refused by CheckEntries
		}
		if err := fsafe.CheckBelow(root, d.Value); err != nil {
			l.Errorf(d.Pos, "docs %s: %v", diag.Quote(d.Value), err)
			continue
		}
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(d.Value)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if near := nearMarkdown(root, d.Value); near != "" {
				if !localPath(near) {
					// Given as it is, it would be refused at docs.
					l.Errorf(d.Pos, "docs %s does not exist; %s is likely it, but docs is of letters, digits, '.', '_', '-' and '/': rename the file, and give docs its new path", diag.Quote(d.Value), diag.Quote(near))
					continue
				}
				l.Errorf(d.Pos, "docs %s does not exist; did you mean %s?", diag.Quote(d.Value), diag.Quote(near))
				continue
			}
			cat := "CATALOGUE"
			if en.Path.Set {
				cat = en.Path.Value
			}
			l.Errorf(d.Pos, "docs %s does not exist; write the catalogue's reference there: errgen docs -o %s %s", diag.Quote(d.Value), d.Value, cat)
		case err != nil:
			l.Errorf(d.Pos, "docs %s cannot be read: %v", diag.Quote(d.Value), fsafe.PathError(err))
		}
	}
	return l
}

// nearMarkdown is the Markdown file in the folder of docs that docs,
// which does not exist, likely misspells (ERRROS.md, errors.md for
// ERRORS.md), as a path from root; or "".
func nearMarkdown(root, docs string) string {
	dir := path.Dir(docs)
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return ""
	}
	var names, lower []string
	for _, e := range entries {
		if e.Type().IsRegular() && markdown(e.Name()) {
			names = append(names, e.Name())
			lower = append(lower, strings.ToLower(e.Name()))
		}
	}
	base := strings.ToLower(path.Base(docs))
	best := diag.Closest(base, lower, min(2, max(1, len(base)/4)))
	if best == "" {
		return ""
	}
	return path.Join(dir, names[slices.Index(lower, best)])
}

func name(en *ast.RegistryEntry) string {
	if en.Path.Value != "" {
		return diag.Quote(en.Path.Value)
	}
	return "an entry"
}

// use is where a catalogue uses or reserves a code or a num, and how a
// message about a later use describes it.
type use struct {
	what string
	pos  diag.Pos
}

// Check checks catalogues together, in order: a code or a num that an
// earlier catalogue uses or reserves is reported at the later one, with
// the earlier position; a num outside its catalogue's registry ranges is
// reported at the num.
func Check(cats []Catalogue) diag.List {
	var l diag.List
	codes, nums := map[string]use{}, map[int]use{}
	for _, c := range cats {
		m := c.Model
		// Each code and num the catalogue holds, and how the message about
		// a later use describes this one: a code by its num, a num by its
		// code.
		type item struct {
			code, num  string
			n          int
			cpos, npos diag.Pos
		}
		var items []item
		for _, v := range m.Variants {
			cpos, npos := valuePositions(v)
			items = append(items, item{v.Code, fmt.Sprintf("num %d", v.Num), v.Num, cpos, npos})
			for _, sc := range v.Subcodes {
				items = append(items, item{sc.Code, fmt.Sprintf("num %d (a sub-code)", v.Num), 0, sc.Pos, diag.Pos{}})
			}
		}
		for _, f := range m.Families {
			if f.Src == nil {
				continue
			}
			for _, n := range f.Src.ReservedNums {
				items = append(items, item{"", "", int(n.Value), diag.Pos{}, n.Pos})
			}
			for _, s := range f.Src.ReservedCodes {
				items = append(items, item{s.Value, "", 0, s.Pos, diag.Pos{}})
			}
		}
		ownCodes, ownNums := map[string]bool{}, map[int]bool{}
		for _, it := range items {
			if it.code != "" {
				key := strings.ToLower(it.code)
				by := "a reserved code"
				if it.num != "" {
					by = it.num
				}
				switch u, ok := codes[key]; {
				case ok && !ownCodes[key]:
					l.Errorf(it.cpos, "code %s is also used by %s (%s)", diag.Quote(it.code), u.what, u.pos)
				case !ok:
					codes[key] = use{by, it.cpos}
					ownCodes[key] = true
				}
			}
			if it.n != 0 {
				by := "a reserved num"
				if it.code != "" {
					by = "code " + diag.Quote(it.code)
				}
				switch u, ok := nums[it.n]; {
				case ok && !ownNums[it.n]:
					l.Errorf(it.npos, "num %d is also used by %s (%s)", it.n, u.what, u.pos)
				case !ok:
					nums[it.n] = use{by, it.npos}
					ownNums[it.n] = true
				}
			}
		}
		l = append(l, OutOfRange(m, c.Entry)...)
	}
	return l
}

// OutOfRange reports each num of m, reserved ones included, that lies
// outside the ranges its registry entry en gives it; an entry without
// ranges gives every num.
func OutOfRange(m *model.Catalogue, en *ast.RegistryEntry) diag.List {
	var l diag.List
	if en == nil || len(en.Nums) == 0 {
		return l
	}
	out := func(n int, pos diag.Pos) {
		if !ast.InRanges(en.Nums, n) {
			l.Errorf(pos, "num %d is outside the ranges the registry gives %s, %s (%s)", n, diag.Quote(en.Path.Value), rangesText(en.Nums), en.Nums[0].Pos)
		}
	}
	for _, v := range m.Variants {
		_, npos := valuePositions(v)
		out(v.Num, npos)
	}
	for _, f := range m.Families {
		if f.Src != nil {
			for _, n := range f.Src.ReservedNums {
				out(int(n.Value), n.Pos)
			}
		}
	}
	return l
}

// valuePositions returns where v's code and num are written, the values
// a diagnostic about them points at, as the checker's own do; the keys'
// positions when the catalogue as written is not at hand.
func valuePositions(v *model.Variant) (code, num diag.Pos) {
	code, num = v.KeyPos("code"), v.KeyPos("num")
	if v.Src != nil {
		if v.Src.Code.Pos.IsValid() {
			code = v.Src.Code.Pos
		}
		if v.Src.Num.Pos.IsValid() {
			num = v.Src.Num.Pos
		}
	}
	return code, num
}

func rangesText(rs []ast.NumRange) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("[%d, %d]", r.Lo.Value, r.High.Value)
	}
	return strings.Join(parts, ", ")
}

// Meant is the catalogue among unlisted (see Unlisted) that a listed path
// which does not exist is likely a misspelling of (gatway/errors.yaml for
// gateway/errors.yaml), or "": at most one edit in three letters of the
// path's folder, and two in all.
func Meant(missing string, unlisted []string) string {
	edits := min(2, max(1, len(path.Dir(path.Clean(missing)))/3))
	return diag.Closest(path.Clean(missing), unlisted, edits)
}

// skipDirs are folders Unlisted does not look into: version control,
// dependencies, and test fixtures, which hold catalogues on purpose.
var skipDirs = []string{".git", "vendor", "node_modules", "testdata"}

// Skipped reports whether lint's search for catalogues below a registry
// leaves out folders so named (testdata, vendor, node_modules).
func Skipped(name string) bool { return slices.Contains(skipDirs, name) }

// Unlisted returns the catalogues under root, files named errors.yaml,
// that the registry does not list, as slash paths relative to root,
// sorted. It skips hidden folders and those of skipDirs.
func Unlisted(root string, reg *ast.Registry) ([]string, error) {
	listed := map[string]bool{}
	for _, en := range reg.Catalogues {
		listed[path.Clean(en.Path.Value)] = true
	}
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || slices.Contains(skipDirs, d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != "errors.yaml" || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); !listed[rel] {
			out = append(out, rel)
		}
		return nil
	})
	slices.SortFunc(out, cmp.Compare)
	return out, err
}
