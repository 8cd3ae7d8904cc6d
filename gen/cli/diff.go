package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
)

var diffCmd = &command{
	name:    "diff",
	args:    "--against BASE [--format text|markdown|json] [--color auto|always|never] [--tier TIER] [CATALOGUE]",
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
--format json writes the whole report.

Diff only reports: it exits 0 whatever changed, 1 when a catalogue cannot
be read, 2 on a usage error. Use errgen compat to fail a build.`,
	flags: func(fs *pflag.FlagSet) runFunc {
		against := fs.String("against", "", "compare with `BASE`: a file, or git:REV[:PATH]")
		format := choiceFlag(fs, "format", "write the summary as `FORMAT`", "text", "markdown", "json")
		color := choiceFlag(fs, "color", "colour text output `WHEN`", "auto", "always", "never")
		tier := tierFlag(fs)
		return func(ctx context.Context, e *env, args []string) error {
			if *against == "" {
				return usagef("--against BASE is required")
			}
			path := catalogueArg(args)
			head, err := loadCatalogue(ctx, e, path)
			if err != nil {
				return err
			}
			base, err := loadBase(ctx, e, *against, path)
			if err != nil {
				return err
			}
			findings, _ := compat.Waive(compat.Filter(compat.Compare(base, head), tier.tier), head.Waivers, tier.tier)
			report := compat.Diff(base, head, findings, tier.tier)
			var out []byte
			switch format.value {
			case "markdown":
				out, err = compat.Markdown(report)
			case "json":
				out, err = json.MarshalIndent(report, "", "  ")
				out = append(diag.InertJSON(out), '\n')
			default:
				colored := color.value == "always" || color.value == "auto" && isTerminal(e.stdout) && os.Getenv("NO_COLOR") == ""
				out = compat.Text(report, colored)
			}
			if err == nil {
				_, err = e.stdout.Write(out)
			}
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
