package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
)

var compatCmd = &command{
	name:    "compat",
	args:    "--against BASE [--tier TIER] [--format text|json|github] [CATALOGUE]",
	short:   "fail on breaking changes against an older catalogue",
	maxArgs: 1,
	long: `Compat compares the catalogue (default errors.yaml) with an older version of
it, BASE, and reports every breaking change: a num that now identifies
another code, a variant removed without reserving its num and code, a
retryable error that stopped being retryable, a payload field removed, a Go
name changed, and more. Each finding prints as
FILE:LINE:COL: RULE_ID: message, pointing into the catalogue and naming
where the entry stood in BASE. Additions never fail.

BASE is a file, or git:REV[:PATH] to read PATH at revision REV from git
(PATH is relative to the repository root and defaults to the catalogue's
own path), for example git:origin/main or git:HEAD~1.

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
			if *against == "" {
				return usagef("--against BASE is required")
			}
			path := catalogueArg(args)
			e.annotate = format.value == "github"
			head, err := loadCatalogue(ctx, e, path)
			if err != nil {
				return err
			}
			base, err := loadBase(ctx, e, *against, path)
			if err != nil {
				return err
			}
			findings, waiverDiags := compat.Waive(compat.Filter(compat.Compare(base, head), tier.tier), head.Waivers, tier.tier)
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
				them := "them"
				if breaking == 1 {
					them = "it"
				}
				return fmt.Errorf("%s against %s; undo %s, or waive a deliberate one under compat: in %s",
					plural(breaking, "breaking change"), diag.Path(base.File), them, diag.Path(head.File))
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
