package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/markdown"
	"github.com/errgen/errgen/templates"
)

var diffCmd = &command{
	name:  "diff",
	args:  "[--format text|markdown|json] [--color auto|always|never] [--tier TIER] BASE [CATALOGUE]",
	short: "summarise what changed since an older catalogue, for review",
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
	run: runDiff,
}

func runDiff(e *env, c *command, args []string) int {
	fs := flags(c, e)
	format := fs.String("format", "text", "write the summary as `FORMAT`: text, markdown or json")
	color := fs.String("color", "auto", "colour text output `WHEN`: auto, always or never")
	tierName := tierFlag(fs)
	if st := parse(c, e, fs, args, 2); st >= 0 {
		return st
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(e.stderr, "errgen diff: missing BASE\nusage: errgen diff %s\n", c.args)
		return ExitUsage
	}
	tier, ok := parseTier(e, c, *tierName)
	if !ok {
		return ExitUsage
	}
	switch *format {
	case "text", "markdown", "json":
	default:
		return badFormat(e, c, *format, "text", "markdown", "json")
	}
	switch *color {
	case "auto", "always", "never":
	default:
		fmt.Fprintf(e.stderr, "errgen diff: --color must be auto, always or never, got %s\n", diag.Quote(*color))
		return ExitUsage
	}
	path := DefaultCatalogue
	if fs.NArg() > 1 {
		path = fs.Arg(1)
	}
	head := loadCatalogue(e, path)
	if head == nil {
		return ExitProblems
	}
	base := loadBase(e, fs.Arg(0), path)
	if base == nil {
		return ExitProblems
	}
	findings, _ := compat.Waive(compat.Filter(compat.Compare(base, head), tier), head.Waivers, tier)
	report := compat.Diff(base, head, findings, tier)

	var out []byte
	var err error
	switch *format {
	case "markdown":
		out, err = diffMarkdown(report)
	case "json":
		out, err = json.MarshalIndent(report, "", "  ")
		out = append(out, '\n')
	default:
		colored := *color == "always" || *color == "auto" && isTerminal(e.stdout) && os.Getenv("NO_COLOR") == ""
		out = diffText(report, colored)
	}
	if err == nil {
		_, err = e.stdout.Write(out)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "errgen: %v\n", err)
		return ExitProblems
	}
	return ExitOK
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

// summary is the report's one-line count.
func summary(r *compat.Report) string {
	if r.Added+r.Removed+r.Changed+len(r.Catalogue)+len(r.Families)+len(r.Other) == 0 {
		return "no changes"
	}
	s := fmt.Sprintf("%d added, %d removed, %d changed, %d breaking", r.Added, r.Removed, r.Changed, r.Breaking)
	if r.Waived > 0 {
		s += fmt.Sprintf(", %d waived", r.Waived)
	}
	if r.Notes > 0 {
		s += ", " + plural(r.Notes, "note")
	}
	return s
}

// findingState is how a finding counts: breaking, waived or note.
func findingState(f compat.Finding) string {
	switch {
	case f.Fails():
		return "breaking"
	case f.Waiver != nil:
		return "waived"
	}
	return "note"
}

// The Markdown view: every string is escaped for Markdown before the
// template sees it.
type (
	mdDiff struct {
		Head, Base, Summary string
		Breaking            int
		Catalogue           []mdRow
		Families            []mdFamily
		Findings            []mdFinding
		Waivers             []mdWaiver
	}
	mdFamily struct {
		Name, Status string
		Rows         []mdRow
	}
	mdRow struct {
		Status, Code, Num, Change, Before, After, Compat string
	}
	mdFinding struct{ Pos, State, Rule, Message string }
	mdWaiver  struct{ Rule, Code, Reason, Used string }
)

// proseAttrs are the attributes whose values are prose, escaped as text;
// the others (templates, names, types, lists) show as code.
var proseAttrs = map[string]bool{"doc": true, "field doc": true, "suggested_action": true, "usage_hint": true}

func mdValue(attr, s string) string {
	switch {
	case s == "":
		return "—"
	case proseAttrs[attr] || strings.HasPrefix(attr, "category "):
		return markdown.Text(s)
	}
	return markdown.CodeCell(s)
}

func mdCompat(fs []compat.Finding) string {
	var parts []string
	for _, f := range fs {
		switch findingState(f) {
		case "breaking":
			parts = append(parts, "**breaking** "+markdown.CodeCell(f.Rule))
		case "waived":
			parts = append(parts, "waived "+markdown.CodeCell(f.Rule))
		default:
			parts = append(parts, "note "+markdown.CodeCell(f.Rule))
		}
	}
	return strings.Join(parts, "<br>")
}

func mdChanges(status, code, num string, changes []compat.Change, findings []compat.Finding) []mdRow {
	row := mdRow{Status: status, Code: code, Num: num, Compat: mdCompat(findings)}
	var rows []mdRow
	if len(findings) > 0 || len(changes) == 0 {
		rows = append(rows, row)
		row = mdRow{}
	}
	for _, ch := range changes {
		attr := ch.Attr
		if ch.Field != "" {
			attr += " " + ch.Field
		}
		row.Change, row.Before, row.After = markdown.Text(attr), mdValue(ch.Attr, ch.Before), mdValue(ch.Attr, ch.After)
		row.Compat = mdCompat(ch.Findings)
		rows = append(rows, row)
		row = mdRow{}
	}
	return rows
}

func diffMarkdown(r *compat.Report) ([]byte, error) {
	v := mdDiff{Head: markdown.Code(r.Head), Base: markdown.Code(r.Base), Summary: summary(r), Breaking: r.Breaking}
	v.Catalogue = mdChanges("", "", "", r.Catalogue, nil)
	if len(r.Catalogue) == 0 {
		v.Catalogue = nil
	}
	for _, fd := range r.Families {
		mf := mdFamily{Name: markdown.Text(fd.Name), Status: string(fd.Status)}
		if len(fd.Changes) > 0 || len(fd.Findings) > 0 {
			mf.Rows = mdChanges("family", "", "", fd.Changes, fd.Findings)
		}
		for _, vd := range fd.Variants {
			status := string(vd.Status)
			if vd.Status == compat.Removed && vd.Reserved {
				status += ", reserved"
			}
			mf.Rows = append(mf.Rows, mdChanges(status, markdown.CodeCell(vd.Code), strconv.Itoa(vd.Num), vd.Changes, vd.Findings)...)
		}
		v.Families = append(v.Families, mf)
	}
	for _, f := range allFindings(r) {
		v.Findings = append(v.Findings, mdFinding{Pos: markdown.CodeCell(f.Pos.String()), State: findingState(f),
			Rule: markdown.CodeCell(f.Rule), Message: markdown.Text(findingMessage(f))})
	}
	for _, w := range r.Waivers {
		used := "no"
		if w.Used {
			used = "yes"
		}
		v.Waivers = append(v.Waivers, mdWaiver{markdown.CodeCell(w.Rule), markdown.CodeCell(w.Code), markdown.Text(w.Reason), used})
	}
	t, err := templates.Get()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "diff.md.tmpl", v); err != nil {
		return nil, err
	}
	return append(bytes.TrimRight(buf.Bytes(), "\n"), '\n'), nil
}

// allFindings lists the report's findings in position order, as Compare
// returned them.
func allFindings(r *compat.Report) []compat.Finding {
	var out []compat.Finding
	add := func(fs []compat.Finding) { out = append(out, fs...) }
	for _, ch := range r.Catalogue {
		add(ch.Findings)
	}
	for _, fd := range r.Families {
		add(fd.Findings)
		for _, ch := range fd.Changes {
			add(ch.Findings)
		}
		for _, vd := range fd.Variants {
			add(vd.Findings)
			for _, ch := range vd.Changes {
				add(ch.Findings)
			}
		}
	}
	add(r.Other)
	compat.Sort(out)
	return out
}

// ANSI styles of the text format.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiBoldRd = "\x1b[1;31m"
)

// textValue quotes a value for the terminal; catalogue text can hold no
// escape sequence once quoted.
func textValue(s string) string {
	if s == "" {
		return "none"
	}
	return diag.Quote(s)
}

func diffText(r *compat.Report, colored bool) []byte {
	var b bytes.Buffer
	paint := func(style, s string) string {
		if !colored {
			return s
		}
		return style + s + ansiReset
	}
	fmt.Fprintf(&b, "%s against %s: %s\n", r.Head, r.Base, summary(r))
	changes := func(indent string, chs []compat.Change) {
		for _, ch := range chs {
			attr := ch.Attr
			if ch.Field != "" {
				attr += " " + diag.Quote(ch.Field)
			}
			fmt.Fprintf(&b, "%s%s: %s → %s\n", indent, attr, textValue(ch.Before), textValue(ch.After))
			findingsText(&b, indent+"  ", ch.Findings, paint)
		}
	}
	if len(r.Catalogue) > 0 {
		fmt.Fprintf(&b, "\n%s\n", paint(ansiBold, "Catalogue"))
		changes("  ", r.Catalogue)
	}
	for _, fd := range r.Families {
		head := fd.Name
		if fd.Status != "" {
			head += " (" + string(fd.Status) + ")"
		}
		fmt.Fprintf(&b, "\n%s\n", paint(ansiBold, head))
		changes("  ", fd.Changes)
		findingsText(&b, "  ", fd.Findings, paint)
		for _, vd := range fd.Variants {
			mark, style := "~", ansiYellow
			switch vd.Status {
			case compat.Added:
				mark, style = "+", ansiGreen
			case compat.Removed:
				mark, style = "-", ansiRed
			}
			line := fmt.Sprintf("%s %s (%d)", mark, vd.Code, vd.Num)
			if vd.Status == compat.Removed && vd.Reserved {
				line += ", reserved"
			}
			fmt.Fprintf(&b, "  %s\n", paint(style, line))
			findingsText(&b, "      ", vd.Findings, paint)
			changes("      ", vd.Changes)
		}
	}
	if len(r.Other) > 0 {
		fmt.Fprintf(&b, "\n%s\n", paint(ansiBold, "Other"))
		findingsText(&b, "  ", r.Other, paint)
	}
	if len(r.Waivers) > 0 {
		fmt.Fprintf(&b, "\n%s\n", paint(ansiBold, "Waivers"))
		for _, w := range r.Waivers {
			used := "unused"
			if w.Used {
				used = "used"
			}
			fmt.Fprintf(&b, "  %s %s: %s (%s)\n", w.Rule, diag.Quote(w.Code), diag.Quote(w.Reason), used)
		}
	}
	return b.Bytes()
}

func findingsText(b *bytes.Buffer, indent string, fs []compat.Finding, paint func(style, s string) string) {
	for _, f := range fs {
		var label string
		switch findingState(f) {
		case "breaking":
			label = paint(ansiBoldRd, "BREAKING "+f.Rule)
		case "waived":
			label = paint(ansiGreen, "waived "+f.Rule)
		default:
			label = paint(ansiCyan, "note "+f.Rule)
		}
		fmt.Fprintf(b, "%s%s: %s\n", indent, label, findingMessage(f))
	}
}
