package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/registry"
)

var compatCmd = &command{
	name:    "compat",
	args:    "--against BASE [--tier TIER] [--format text|json|github] [CATALOGUE | errgen.registry.yaml]",
	short:   "fail on breaking changes against an older catalogue",
	maxArgs: 1,
	long: `Compat compares the catalogue (default errors.yaml) with an older version of
it, BASE, and reports every breaking change: a num that now identifies
another code, a variant removed without reserving its num and code, a
retryable error that stopped being retryable, a payload field removed, a Go
name changed, and more. Each finding prints as
FILE:LINE:COL: RULE_ID: message, pointing into the catalogue and naming
where the entry stood in BASE. Additions do not fail, unless they take
what a variant stood for: a match rule that Classify now tries before
another variant's, an http_status more specific than another variant's.

BASE is a file, or git:REV[:PATH] to read PATH at revision REV from git
(PATH is relative to the repository root, or to the working directory when
it starts with ./ or ../, and defaults to the catalogue's own path), for
example git:origin/main or git:HEAD~1. Without PATH, a catalogue that git
finds renamed since REV is compared with itself at its old path. A
revision without the file is the base of a new catalogue: every entry is
new. But a PATH given that exists neither at REV nor in the working tree is
a typo, an error, with the paths of REV close to it.

With no argument in a folder that holds errgen.registry.yaml (or given that
file), compat checks every catalogue the registry lists against the same
catalogue at git:REV, and the registry across catalogues: a code that
moved from one catalogue to another, a num another catalogue gave to
another code, a range shrunk under a num its catalogue used, an owner that
changed, a catalogue listed under a new path (compared with itself at its
old one). The catalogues must pass lint together first. BASE is then git:REV, without a
path; a catalogue that did not exist at REV is new.

A deliberate break is waived in the catalogue itself, so reviewers see the
waiver in the diff:

  compat:
    - rule: RETRYABLE_CHANGED
      code: tool_timeout
      reason: Timeouts are retried by the gateway now.

A waived break prints as a note and does not fail. A waiver naming an
unknown rule is an error; one that matches nothing is a warning.

The rules are grouped in tiers, each including the ones before it:
wire (nums and codes), json (the payload's shape), semantics (what an
error means), go (the generated Go API). --tier checks a tier and those
below it.

Rules (a note never fails):
` + ruleList() + `
Exit status 0 when nothing breaks, 1 on a breaking change or a problem
reading either catalogue, 2 on a usage error.`,
	flags: func(fs *pflag.FlagSet) runFunc {
		against := fs.String("against", "", "compare with `BASE`: a file, or git:REV[:PATH]")
		tier := tierFlag(fs)
		format := choiceFlag(fs, "format", "print findings as `FORMAT`", "text", "json", "github")
		return func(ctx context.Context, e *env, args []string) error {
			if err := checkAgainst(*against); err != nil {
				return err
			}
			e.annotate = format.value == "github"
			if format.value == "json" {
				e.jsonProblems = compat.WriteDiagsJSON
			}
			var findings []compat.Finding
			var waiverDiags diag.List
			var baseName string
			// waiveIn names the catalogues whose breaks a waiver of their
			// own can accept; a break across a registry's catalogues has
			// none.
			var waiveIn []string
			across := 0
			if regPath := registryArg(args); regPath != "" {
				var err error
				if findings, waiverDiags, waiveIn, across, err = compatRegistry(ctx, e, *against, regPath, tier.tier); err != nil {
					return err
				}
				baseName = *against
			} else {
				path := catalogueArg(args)
				if err := baseNotARegistry(*against); err != nil {
					return err
				}
				head, err := loadCatalogue(ctx, e, path)
				if err != nil {
					return err
				}
				base, err := loadBase(ctx, e, *against, path)
				if err != nil {
					return err
				}
				findings, waiverDiags = catalogueRevision{base: base, head: head}.findings(tier.tier)
				baseName, waiveIn = diag.Path(base.File), []string{diag.Path(head.File)}
			}
			var err error
			// From here on stdout holds the findings.
			e.jsonProblems = nil
			switch format.value {
			case "json":
				err = compat.WriteFindingsJSON(e.stdout, findings)
				printDiags(e.stderr, waiverDiags)
			case "github":
				err = compat.WriteFindingsGitHub(e.stdout, findings, waiverDiags)
			default:
				for _, f := range findings {
					if _, err = fmt.Fprintln(e.stdout, compat.FindingText(f)); err != nil {
						break
					}
				}
				printDiags(e.stderr, waiverDiags)
			}
			if err != nil {
				return err
			}
			breaking := 0
			for _, f := range findings {
				if f.Fails() {
					breaking++
				}
			}
			if breaking > 0 {
				return fmt.Errorf("%s against %s; %s", plural(breaking, "breaking change"), baseName, breakingAdvice(breaking, across, waiveIn))
			}
			if waiverDiags.HasErrors() {
				return fmt.Errorf("the catalogue's compat waivers have errors")
			}
			return nil
		}
	},
}

// ruleList lists the rules for the help text, one a line.
func ruleList() string {
	var b strings.Builder
	for _, r := range compat.Rules {
		tier := r.Tier.String()
		if r.Severity == compat.Note {
			tier = "note"
		}
		fmt.Fprintf(&b, "  %-28s  %-9s  %s\n", r.ID, tier, r.Doc)
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// registryArg returns the registry compat and diff work through: the
// argument when it is a registry file, else registry.FileName in the
// current folder when there is no argument and the file exists; "" for
// none.
func registryArg(args []string) string {
	switch {
	case len(args) == 1 && filepath.Base(args[0]) == registry.FileName:
		return args[0]
	case len(args) == 0:
		if _, err := os.Lstat(registry.FileName); err == nil {
			return registry.FileName
		}
	}
	return ""
}

// registryRevision is a registry's catalogues now and at a git revision:
// the pairs of each catalogue listed now, and the catalogues of both
// registries for the rules across them.
type registryRevision struct {
	pairs           []catalogueRevision
	baseCats, heads []compat.RegistryCatalogue
	// listed is where the registry lists its catalogues (its catalogues
	// key), where one no longer listed is reported.
	listed diag.Pos
	// entries pairs each catalogue's registry entry in base and in head,
	// nil where the registry did not list it.
	entries []compat.EntryPair
}

// across compares the registry across its catalogues at tier t.
func (rr *registryRevision) across(t compat.Tier) []compat.Finding {
	return compat.Filter(compat.CompareRegistry(rr.baseCats, rr.heads, rr.listed), t)
}

// catalogueRevision is a catalogue at the base and now; others is what
// its comparison knows of the registry's other catalogues (nothing
// without a registry).
type catalogueRevision struct {
	base, head *model.Catalogue
	others     compat.Others
	// arrived maps the codes the registry's other catalogues held in base
	// to where (nil without a registry).
	arrived map[string]compat.Origin
}

// findings compares the pair, and the codes that moved into head from
// another catalogue with what they were there, and applies the head's
// waivers at tier t.
func (p catalogueRevision) findings(t compat.Tier) ([]compat.Finding, diag.List) {
	all := compat.CompareIn(p.base, p.head, p.others)
	if moved := compat.CompareArrived(p.base, p.head, p.arrived); len(moved) > 0 {
		all = append(all, moved...)
		compat.Sort(all)
	}
	return compat.Waive(compat.Filter(all, t), p.head.Waivers, t)
}

// readRegistryRevision reads every catalogue of the registry at regPath,
// and the same at the git revision of against (git:REV, without a path).
// Each catalogue must resolve on its own, and together they must pass
// lint's rules across catalogues: a code two catalogues hold, or a num
// outside its catalogue's ranges, is an error as it is for lint.
func readRegistryRevision(ctx context.Context, e *env, against, regPath string, nameOf func(string) string) (*registryRevision, error) {
	spec, ok := strings.CutPrefix(against, "git:")
	if !ok || strings.Contains(spec, ":") {
		return nil, usagef("with a registry, --against is git:REV, without a path: each catalogue is compared with its own path at REV")
	}
	set, err := cataloguesAs(e, []string{regPath}, nameOf)
	if err != nil {
		return nil, err
	}
	heads, diags, err := set.load(ctx, nameOf)
	if err != nil {
		return nil, err
	}
	if !diags.HasErrors() {
		diags = append(diags, registry.Check(heads)...)
	}
	// A catalogue the registry does not list is compared with nothing:
	// say so, as lint does.
	notListed, err := set.unlistedWarnings()
	if err != nil {
		return nil, err
	}
	diags = append(diags, notListed...)
	if diags = diags.Sort(); diags.HasErrors() {
		return nil, &diagError{diags}
	}
	e.warn(diags)
	baseReg, err := baseRegistry(spec, regPath)
	if err != nil {
		return nil, err
	}
	rr := &registryRevision{listed: diag.Pos{File: set.reg.File, Line: 1, Col: 1}}
	if p, ok := set.reg.Keys.Pos("catalogues"); ok {
		rr.listed = p
	}
	// unlisted are the heads the base registry does not list: new, or
	// listed there under another path. Their bases are read last.
	var unlisted []int
	for i, h := range heads {
		rr.pairs = append(rr.pairs, catalogueRevision{head: h.Model})
		rr.heads = append(rr.heads, compat.RegistryCatalogue{Entry: h.Entry, Model: h.Model, Name: nameOf(set.paths[i])})
		var en *ast.RegistryEntry
		if baseReg != nil {
			if k := slices.IndexFunc(baseReg.Catalogues, func(en *ast.RegistryEntry) bool { return samePath(en, h.Entry) }); k >= 0 {
				en = baseReg.Catalogues[k]
			} else {
				unlisted = append(unlisted, i)
				continue
			}
		}
		// No registry in base: every entry is new.
		rr.entries = append(rr.entries, compat.EntryPair{Base: en, Head: h.Entry, Name: nameOf(set.paths[i])})
		base, err := loadBaseAs(ctx, e, against, set.paths[i], nameOf, false)
		if err != nil {
			return nil, err
		}
		rr.pairs[i].base = base
		if en == nil {
			// No registry in base: each catalogue that existed is compared
			// across the registry under the entry it has now.
			en = h.Entry
		}
		if existed(base) {
			rr.baseCats = append(rr.baseCats, compat.RegistryCatalogue{Entry: en, Model: base, Name: nameOf(set.paths[i])})
		}
	}
	// The catalogues the base registry lists that head no longer does:
	// read by their path from the repository's root, since their folder
	// may be gone.
	var gone []compat.RegistryCatalogue
	if baseReg != nil {
		prefix, err := git(set.root, "rev-parse", "--show-prefix")
		if err != nil {
			return nil, err
		}
		for _, en := range baseReg.Catalogues {
			if slices.ContainsFunc(heads, func(h registry.Catalogue) bool { return samePath(en, h.Entry) }) {
				continue
			}
			at := against + ":" + strings.TrimSpace(string(prefix)) + path.Clean(en.Path.Value)
			// Named as the command names files, though git reads it
			// from the registry's folder.
			goneName := nameOf(filepath.Join(set.root, filepath.FromSlash(path.Clean(en.Path.Value))))
			name := func(f string) string {
				if f == regPath {
					return goneName
				}
				return nameOf(f)
			}
			base, err := loadBaseAs(ctx, e, at, regPath, name, false)
			if err != nil {
				return nil, err
			}
			gone = append(gone, compat.RegistryCatalogue{Entry: en, Model: base, Name: goneName})
		}
	}
	// A head the base registry listed under another path is compared
	// with itself there; any other is new.
	for _, i := range unlisted {
		if k := compat.Moved(gone, rr.heads[i].Model); k >= 0 {
			g := gone[k]
			g.MovedTo = path.Clean(heads[i].Entry.Path.Value)
			rr.entries = append(rr.entries, compat.EntryPair{Base: g.Entry, Head: heads[i].Entry, Name: nameOf(set.paths[i])})
			rr.pairs[i].base = g.Model
			rr.baseCats = append(rr.baseCats, g)
			gone = slices.Delete(gone, k, k+1)
			continue
		}
		base, err := loadBaseAs(ctx, e, against, set.paths[i], nameOf, false)
		if err != nil {
			return nil, err
		}
		rr.pairs[i].base = base
		rr.entries = append(rr.entries, compat.EntryPair{Head: heads[i].Entry, Name: nameOf(set.paths[i])})
		// A catalogue the base registry did not list yet: what it held in
		// base counts across the registry too, under its entry now.
		if existed(base) {
			rr.baseCats = append(rr.baseCats, compat.RegistryCatalogue{Entry: heads[i].Entry, Model: base, Name: nameOf(set.paths[i])})
		}
	}
	rr.baseCats = append(rr.baseCats, gone...)
	for _, g := range gone {
		rr.entries = append(rr.entries, compat.EntryPair{Base: g.Entry, Name: g.Name})
	}
	var pairs [][2]*model.Catalogue
	for _, p := range rr.pairs {
		pairs = append(pairs, [2]*model.Catalogue{p.base, p.head})
	}
	renamed, rendered := compat.RenamedFamilies(pairs), compat.RenderedOtherwise(pairs)
	for i := range rr.pairs {
		rr.pairs[i].others = compat.OthersOf(rr.heads, i, renamed)
		rr.pairs[i].others.Rendered = rendered
		rr.pairs[i].arrived = compat.Arrived(rr.baseCats, rr.heads, i)
	}
	return rr, nil
}

// existed reports whether base, a catalogue read at the base revision, was
// there: one that was not is empty.
func existed(base *model.Catalogue) bool {
	return len(base.Families) > 0
}

// samePath reports whether two registry entries list the same file.
func samePath(a, b *ast.RegistryEntry) bool {
	return path.Clean(a.Path.Value) == path.Clean(b.Path.Value)
}

// compatRegistry compares every catalogue of the registry at regPath with
// itself at the git revision of against, and the registry across
// catalogues.
func compatRegistry(ctx context.Context, e *env, against, regPath string, tier compat.Tier) (findings []compat.Finding, waiverDiags diag.List, waiveIn []string, across int, err error) {
	rr, err := readRegistryRevision(ctx, e, against, regPath, displayPath)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	for _, p := range rr.pairs {
		f, w := p.findings(tier)
		findings, waiverDiags = append(findings, f...), append(waiverDiags, w...)
		if slices.ContainsFunc(f, compat.Finding.Fails) {
			waiveIn = append(waiveIn, diag.Path(p.head.File))
		}
	}
	for _, f := range rr.across(tier) {
		findings = append(findings, f)
		if f.Fails() {
			across++
		}
	}
	return findings, waiverDiags, waiveIn, across, nil
}

// breakingAdvice says what to do about breaking changes: undo them, or
// waive them in the catalogues of waiveIn; the across of them that are
// across a registry's catalogues no waiver accepts.
func breakingAdvice(breaking, across int, waiveIn []string) string {
	undo := "undo them"
	if breaking == 1 {
		undo = "undo it"
	}
	if len(waiveIn) == 0 {
		return undo + ": a change across the registry's catalogues cannot be waived"
	}
	where := waiveIn[0]
	if len(waiveIn) > 1 {
		where = "its catalogue (" + strings.Join(waiveIn, ", ") + ")"
	}
	advice := undo + ", or waive a deliberate one under compat: in " + where
	if across > 0 {
		advice += "; " + plural(across, "change") + " across the registry's catalogues cannot be waived"
	}
	return advice
}

// baseRegistry reads the registry at the git revision spec; nil when the
// revision has none.
func baseRegistry(spec, regPath string) (*ast.Registry, error) {
	name, src, err := gitShow(spec, regPath)
	if errors.Is(err, errNotInRevision) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	reg, diags := load.LoadRegistry(name, src)
	if reg == nil || diags.HasErrors() {
		return nil, fmt.Errorf("the base registry %s has errors; compare with a base that errgen accepts", diag.Path(name))
	}
	return reg, nil
}
