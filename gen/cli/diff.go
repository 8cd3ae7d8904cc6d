package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
)

var diffCmd = &command{
	name:    "diff",
	args:    "--against BASE [--format text|markdown|json] [--color auto|always|never] [--tier TIER] [CATALOGUE | errgen.registry.yaml]",
	short:   "summarise what changed since an older catalogue, for review",
	maxArgs: 1,
	long: `Diff summarises what changed between BASE and the catalogue (default
errors.yaml): variants added, removed and changed, grouped by family, each
changed attribute as before → after. Breaking changes are flagged with the
rule errgen compat reports them under, and the catalogue's waivers are
listed. BASE is a file or git:REV[:PATH], as for errgen compat.

--format markdown writes a summary to paste into a pull request (or post
with gh pr comment --body-file); every catalogue text is escaped, so a | in
a message cannot break a table. --format text is for a terminal, coloured
when standard output is one and NO_COLOR is not set (--color overrides).
--format json writes the whole report, or {"problems": [...]}, in the
shape of compat --format json's, when a catalogue cannot be read.

With no argument in a folder that holds errgen.registry.yaml (or given that
file), diff summarises every catalogue the registry lists against the same
path at git:REV, one after another, and then what changed across them
(CODE_MOVED, NUM_REASSIGNED, RANGE_SHRUNK, OWNER_CHANGED,
CATALOGUE_REMOVED, CATALOGUE_MOVED) and each entry of the registry listed,
no longer listed, or changed (its path, owner, docs or nums), whether or
not it breaks anything; --format json then writes
{"catalogues": [...], "across": [...], "entries": [...]}.

Diff only reports: it exits 0 whatever changed, 1 when a catalogue cannot
be read, 2 on a usage error. Use errgen compat to fail a build.`,
	flags: func(fs *pflag.FlagSet) runFunc {
		against := fs.String("against", "", "compare with `BASE`: a file, or git:REV[:PATH]")
		format := choiceFlag(fs, "format", "write the summary as `FORMAT`", "text", "markdown", "json")
		color := choiceFlag(fs, "color", "colour text output `WHEN`", "auto", "always", "never")
		tier := tierFlag(fs)
		return func(ctx context.Context, e *env, args []string) error {
			if err := checkAgainst(*against); err != nil {
				return err
			}
			if format.value == "json" {
				e.jsonProblems = compat.WriteProblemsJSON
			}
			// A review names files as the repository does, whatever folder
			// the command ran in: two catalogues changed by one pull request
			// give two sections that say which is which.
			var pairs []catalogueRevision
			var across []compat.Finding
			var entries []compat.EntryDiff
			if regPath := registryArg(args); regPath != "" {
				rr, err := readRegistryRevision(ctx, e, *against, regPath, reviewName)
				if err != nil {
					return err
				}
				pairs, across, entries = rr.pairs, rr.across(tier.tier), compat.DiffEntries(rr.entries)
			} else {
				path := catalogueArg(args)
				if err := baseNotARegistry(*against); err != nil {
					return err
				}
				head, err := loadCatalogueAs(ctx, e, path, reviewName)
				if err != nil {
					return err
				}
				base, err := loadBaseAs(ctx, e, *against, path, reviewName, true)
				if err != nil {
					return err
				}
				pairs = []catalogueRevision{{base: base, head: head}}
			}
			// From here on stdout holds the summary.
			e.jsonProblems = nil
			colored := color.value == "always" || color.value == "auto" && isTerminal(e.stdout) && os.Getenv("NO_COLOR") == ""
			var reports []*compat.Report
			var out []byte
			// section appends one section in the chosen format, after a
			// blank line when it is not the first; JSON is written whole
			// below.
			section := func(md func() ([]byte, error), text func() []byte) error {
				if format.value == "json" {
					return nil
				}
				if len(out) > 0 {
					out = append(out, '\n')
				}
				if format.value == "text" {
					out = append(out, text()...)
					return nil
				}
				b, err := md()
				out = append(out, b...)
				return err
			}
			for _, p := range pairs {
				findings, _ := p.findings(tier.tier)
				report := compat.DiffIn(p.base, p.head, findings, tier.tier, p.others)
				reports = append(reports, report)
				if err := section(func() ([]byte, error) { return compat.Markdown(report) }, func() []byte { return compat.Text(report, colored) }); err != nil {
					return err
				}
			}
			if len(across) > 0 || len(entries) > 0 {
				if err := section(func() ([]byte, error) { return compat.AcrossMarkdown(entries, across) }, func() []byte { return compat.AcrossText(entries, across, colored) }); err != nil {
					return err
				}
			}
			if format.value == "json" {
				var data []byte
				var err error
				if registryArg(args) == "" {
					data, err = json.MarshalIndent(reports[0], "", "  ")
				} else {
					data, err = json.MarshalIndent(struct {
						Catalogues []*compat.Report   `json:"catalogues"`
						Across     []compat.Finding   `json:"across"`
						Entries    []compat.EntryDiff `json:"entries"`
					}{reports, append([]compat.Finding{}, across...), append([]compat.EntryDiff{}, entries...)}, "", "  ")
				}
				if err != nil {
					return err
				}
				out = append(diag.InertJSON(data), '\n')
			}
			_, err := e.stdout.Write(out)
			return err
		}
	},
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// reviewName names a file in a review: relative to the root of its git
// work tree, or as the Go toolchain would outside one.
func reviewName(file string) string {
	if rel, ok := repoPath(file); ok {
		return rel
	}
	return displayPath(file)
}

// repoPath returns the path of file relative to the root of the git work
// tree it is in, slash-separated, and false outside a work tree (or
// without git).
func repoPath(file string) (string, bool) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	// A file of base alone (a catalogue no longer listed, its folder
	// gone) is named from the nearest folder that is still there.
	dir, rest := filepath.Dir(abs), filepath.Base(abs)
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir, rest = parent, filepath.Join(filepath.Base(dir), rest)
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", false
	}
	root := strings.TrimSpace(string(top))
	// Compare real paths: the work tree's root as git prints it has its
	// links resolved (a temporary folder on macOS is under /private).
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	rel, err := filepath.Rel(root, filepath.Join(dir, rest))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
