package compat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/markdown"
	"github.com/errgen/errgen/templates"
)

// The renderers of compat's findings and of diff's report: text for a
// terminal, JSON, GitHub Actions workflow commands and Markdown for a pull
// request. Catalogue text in them is always escaped for where it goes.

// findingText formats a finding as FILE:LINE:COL: RULE: message (base
// POS); a note or a waived break is marked "note:" and a waived one names
// its waiver.
func FindingText(f Finding) string {
	var b strings.Builder
	b.WriteString(f.Pos.String())
	b.WriteString(": ")
	if f.Severity == Note || f.Waiver != nil {
		b.WriteString("note: ")
	}
	b.WriteString(f.Rule)
	b.WriteString(": ")
	b.WriteString(findingMessage(f))
	return b.String()
}

// findingMessage is the finding's message with where it stood in base and,
// when waived, the waiver's reason.
func findingMessage(f Finding) string {
	msg := f.Message
	if f.BasePos.IsValid() {
		msg += " (base " + f.BasePos.String() + ")"
	}
	if w := f.Waiver; w != nil {
		msg += "; waived at " + w.Pos.String() + ": " + diag.Quote(w.Reason)
	}
	return msg
}

// WriteFindingsJSON prints findings as one JSON array, `[]` when there are
// none.
func WriteFindingsJSON(w io.Writer, findings []Finding) error {
	return writeJSON(w, nonNil(findings))
}

// writeJSON prints v, indented, made inert for a terminal or CI log.
func writeJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(diag.InertJSON(data), '\n'))
	return err
}

// writeFindingsGitHub prints findings and waiver problems as GitHub
// Actions workflow commands, which the runner turns into annotations on
// the pull request's files: a break is an error, a note or a waived break
// a notice.
func WriteFindingsGitHub(w io.Writer, findings []Finding, waiverDiags diag.List) error {
	var b bytes.Buffer
	for _, f := range findings {
		kind, title := "error", f.Rule
		if f.Severity == Note || f.Waiver != nil {
			kind = "notice"
		}
		if f.Waiver != nil {
			title += " (waived)"
		}
		b.WriteString(annotation(kind, f.Pos, title, findingMessage(f)))
	}
	writeDiags(&b, waiverDiags, "compat waiver")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteDiagsGitHub prints diagnostics (a catalogue's warnings) as
// workflow commands: an error as ::error, a warning as ::warning.
func WriteDiagsGitHub(w io.Writer, diags diag.List) error {
	var b bytes.Buffer
	writeDiags(&b, diags, "errgen")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteNoteGitHub prints a remark about the run, with no position, as a
// ::notice.
func WriteNoteGitHub(w io.Writer, msg string) error {
	_, err := io.WriteString(w, "::notice title=errgen::"+escapeData(diag.Inert(msg))+"\n")
	return err
}

func writeDiags(b *bytes.Buffer, diags diag.List, title string) {
	for _, d := range diags {
		kind := "error"
		if d.Severity == diag.Warning {
			kind = "warning"
		}
		b.WriteString(annotation(kind, d.Pos, title, d.Message()))
	}
}

// annotation formats one workflow command:
// ::KIND file=F,line=L,col=C,title=T::MESSAGE. Messages quote catalogue
// text, so they hold no line break; escaping them as the runner expects
// (% \r \n, and : , in properties) keeps any text from ending the command
// or starting another.
func annotation(kind string, pos diag.Pos, title, msg string) string {
	props := "file=" + escapeProperty(diag.Inert(annotationPath(pos.File)))
	if pos.IsValid() {
		props += fmt.Sprintf(",line=%d,col=%d", pos.Line, pos.Col)
	}
	props += ",title=" + escapeProperty(title)
	return "::" + kind + " " + props + "::" + escapeData(diag.Inert(msg)) + "\n"
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

// annotationPath names a file for an annotation: relative to the
// repository checkout (GITHUB_WORKSPACE) when errgen runs below it, since
// that is how GitHub finds the file; as displayed otherwise.
func annotationPath(file string) string {
	ws := os.Getenv("GITHUB_WORKSPACE")
	if ws == "" {
		return file
	}
	abs, err := filepath.Abs(filepath.FromSlash(file))
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(ws, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return file
}

// summary is the report's one-line count.
func Summary(r *Report) string {
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
func findingState(f Finding) string {
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
		return mdText(s)
	}
	return markdown.CodeCell(s)
}

// mdText escapes catalogue text for a cell of the Markdown diff, which is
// posted as a pull request comment: it must not mention anyone, reference
// an issue or link anywhere.
func mdText(s string) string { return markdown.Quiet(markdown.Text(s)) }

func mdCompat(fs []Finding) string {
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

func mdChanges(status, code, num string, changes []Change, findings []Finding) []mdRow {
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
		row.Change, row.Before, row.After = mdText(attr), mdValue(ch.Attr, ch.Before), mdValue(ch.Attr, ch.After)
		row.Compat = mdCompat(ch.Findings)
		rows = append(rows, row)
		row = mdRow{}
	}
	return rows
}

func Markdown(r *Report) ([]byte, error) {
	v := mdDiff{Head: markdown.Code(diag.Path(r.Head)), Base: markdown.Code(diag.Path(r.Base)), Summary: Summary(r), Breaking: r.Breaking}
	v.Catalogue = mdChanges("", "", "", r.Catalogue, nil)
	if len(r.Catalogue) == 0 {
		v.Catalogue = nil
	}
	for _, fd := range r.Families {
		mf := mdFamily{Name: mdText(fd.Name), Status: string(fd.Status)}
		if len(fd.Changes) > 0 || len(fd.Findings) > 0 {
			mf.Rows = mdChanges("family", "", "", fd.Changes, fd.Findings)
		}
		for _, vd := range fd.Variants {
			status := string(vd.Status)
			if vd.MovedTo != "" {
				status += ", moved to " + markdown.CodeCell(vd.MovedTo)
			}
			if vd.Status == Removed && vd.Reserved {
				status += ", reserved"
			}
			mf.Rows = append(mf.Rows, mdChanges(status, markdown.CodeCell(vd.Code), strconv.Itoa(vd.Num), vd.Changes, vd.Findings)...)
		}
		v.Families = append(v.Families, mf)
	}
	v.Findings = mdFindings(allFindings(r))
	for _, w := range r.Waivers {
		used := "no"
		switch {
		case !w.Judged:
			used = w.whyNotJudged(r.Tier)
		case w.Used:
			used = "yes"
		}
		subject := markdown.CodeCell(w.Code)
		switch {
		case w.Family != "":
			subject = "family " + markdown.CodeCell(w.Family)
		case w.Code == "":
			subject = "the catalogue"
		}
		v.Waivers = append(v.Waivers, mdWaiver{markdown.CodeCell(w.Rule), subject, mdText(w.Reason), used})
	}
	return executeMarkdown("diff.md.tmpl", v)
}

func mdFindings(fs []Finding) []mdFinding {
	out := make([]mdFinding, 0, len(fs))
	for _, f := range fs {
		out = append(out, mdFinding{Pos: markdown.CodeCell(f.Pos.String()), State: findingState(f),
			Rule: markdown.CodeCell(f.Rule), Message: mdText(findingMessage(f))})
	}
	return out
}

// executeMarkdown renders the named template of the diff's Markdown with
// v, ending in one newline.
func executeMarkdown(name string, v any) ([]byte, error) {
	t, err := templates.Get()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, v); err != nil {
		return nil, err
	}
	return append(bytes.TrimRight(buf.Bytes(), "\n"), '\n'), nil
}

// acrossSummary counts the entries of a registry that changed and the
// findings across its catalogues, as Summary counts a catalogue's.
func acrossSummary(entries []EntryDiff, fs []Finding) (summary string, breaking int) {
	for _, f := range fs {
		if f.Fails() {
			breaking++
		}
	}
	summary = fmt.Sprintf("%d breaking", breaking)
	switch n := len(entries); {
	case n == 1:
		summary = "1 entry changed, " + summary
	case n > 1:
		summary = fmt.Sprintf("%d entries changed, %s", n, summary)
	}
	if notes := len(fs) - breaking; notes > 0 {
		summary += ", " + plural(notes, "note")
	}
	return summary, breaking
}

// entryMark is the mark and colour of an entry's line in the text format,
// as of a variant's.
func entryMark(s Status) (string, string) {
	switch s {
	case Added:
		return "+", ansiGreen
	case Removed:
		return "-", ansiRed
	}
	return "~", ansiYellow
}

// AcrossMarkdown renders what changed across a registry's catalogues, the
// entries of the registry and the findings across them, as a section of
// its own after every catalogue's Markdown; nil when there is nothing.
func AcrossMarkdown(entries []EntryDiff, fs []Finding) ([]byte, error) {
	if len(entries) == 0 && len(fs) == 0 {
		return nil, nil
	}
	summary, breaking := acrossSummary(entries, fs)
	var rows []mdRow
	for _, d := range entries {
		rows = append(rows, mdChanges(string(d.Status), markdown.CodeCell(d.Path), "", d.Changes, nil)...)
	}
	var findings []mdFinding
	if len(fs) > 0 {
		findings = mdFindings(fs)
	}
	return executeMarkdown("across", struct {
		Summary  string
		Breaking int
		Entries  []mdRow
		Findings []mdFinding
	}{summary, breaking, rows, findings})
}

// AcrossText renders what changed across a registry's catalogues after
// every catalogue's Text: each entry of the registry that changed, marked
// as Text marks a variant, then each finding across them, marked as Text
// marks a catalogue's and with its position; nil when there is nothing.
func AcrossText(entries []EntryDiff, fs []Finding, colored bool) []byte {
	if len(entries) == 0 && len(fs) == 0 {
		return nil
	}
	var b bytes.Buffer
	summary, _ := acrossSummary(entries, fs)
	fmt.Fprintf(&b, "Across the registry's catalogues: %s\n", summary)
	paint := painter(colored)
	for _, d := range entries {
		mark, style := entryMark(d.Status)
		fmt.Fprintf(&b, "  %s\n", paint(style, mark+" "+diag.Path(d.Path)))
		for _, ch := range d.Changes {
			fmt.Fprintf(&b, "      %s: %s → %s\n", ch.Attr, textValue(ch.Before), textValue(ch.After))
		}
	}
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s: %s: %s\n", findingLabel(f, paint), f.Pos, findingMessage(f))
	}
	return b.Bytes()
}

// allFindings lists the report's findings in position order, as Compare
// returned them.
func allFindings(r *Report) []Finding {
	var out []Finding
	add := func(fs []Finding) { out = append(out, fs...) }
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
	Sort(out)
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

func Text(r *Report, colored bool) []byte {
	var b bytes.Buffer
	paint := painter(colored)
	fmt.Fprintf(&b, "%s against %s: %s\n", diag.Path(r.Head), diag.Path(r.Base), Summary(r))
	changes := func(indent string, chs []Change) {
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
			case Added:
				mark, style = "+", ansiGreen
			case Removed:
				mark, style = "-", ansiRed
			}
			line := fmt.Sprintf("%s %s (%d)", mark, vd.Code, vd.Num)
			if vd.MovedTo != "" {
				line += ", moved to " + diag.Quote(vd.MovedTo)
			}
			if vd.Status == Removed && vd.Reserved {
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
			switch {
			case !w.Judged:
				used = w.whyNotJudged(r.Tier)
			case w.Used:
				used = "used"
			}
			subject := w.subject()
			fmt.Fprintf(&b, "  %s %s: %s (%s)\n", w.Rule, subject, diag.Quote(w.Reason), used)
		}
	}
	return b.Bytes()
}

// painter returns how Text styles a string: with the ANSI style when
// colored, as it is otherwise.
func painter(colored bool) func(style, s string) string {
	return func(style, s string) string {
		if !colored {
			return s
		}
		return style + s + ansiReset
	}
}

func findingsText(b *bytes.Buffer, indent string, fs []Finding, paint func(style, s string) string) {
	for _, f := range fs {
		fmt.Fprintf(b, "%s%s: %s\n", indent, findingLabel(f, paint), findingMessage(f))
	}
}

// findingLabel is how Text marks a finding: its state and rule.
func findingLabel(f Finding, paint func(style, s string) string) string {
	switch findingState(f) {
	case "breaking":
		return paint(ansiBoldRd, "BREAKING "+f.Rule)
	case "waived":
		return paint(ansiGreen, "waived "+f.Rule)
	}
	return paint(ansiCyan, "note "+f.Rule)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// WriteDiagsJSON prints diagnostics that stopped a run (a catalogue or
// base that fails to load) as --format json prints findings: one array,
// each problem an object with every key a finding has, so a consumer
// reads either with one decoder. A problem's rule, tier, code, family,
// field and attribute are "", its codes [], its base and waiver null;
// its severity is "error" or "warning", which no finding has. A
// diagnostic that stands for problems not kept says how many.
func WriteDiagsJSON(w io.Writer, diags diag.List) error {
	return writeJSON(w, problemsJSON(diags))
}

// WriteProblemsJSON prints diagnostics that stopped errgen diff as its
// --format json prints them: one object, {"problems": [...]}, whose key no
// report has, each problem the object WriteDiagsJSON prints.
func WriteProblemsJSON(w io.Writer, diags diag.List) error {
	return writeJSON(w, struct {
		Problems []findingJSON `json:"problems"`
	}{problemsJSON(diags)})
}

func problemsJSON(diags diag.List) []findingJSON {
	out := make([]findingJSON, 0, len(diags))
	for _, d := range diags {
		out = append(out, problemJSON(d))
	}
	return out
}
