package docs

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/oracle"
)

// Explain writes one entry of m for the terminal, as rustc --explain does
// for compiler errors: its family, category, class, retry rule, texts,
// doc, fields and example. Catalogue text goes through diag.Inert line by
// line, so it cannot act on the terminal.
func Explain(w io.Writer, m *model.Catalogue, v *model.Variant) error {
	return explain(w, m, v, v)
}

// explain writes v's entry with the example of ex, v itself or a copy of
// it whose example selects another sub-code (selecting).
func explain(w io.Writer, m *model.Catalogue, v, ex *model.Variant) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d): %s in family %s\n\n", v.Code, v.Num, v.Name, v.Family.Name)
	// A value that spans lines (a category's description may) goes on
	// under its first line, not back at the margin.
	row := func(label, value string) {
		if value = strings.TrimRight(value, "\n"); value != "" {
			first, rest, _ := strings.Cut(termText(value), "\n")
			fmt.Fprintf(&b, "  %-17s %s\n", label, first)
			if rest != "" {
				b.WriteString(indent(rest, strings.Repeat(" ", 20)))
			}
		}
	}
	category := v.Category.Name
	if v.Category.Doc != "" {
		category += ": " + v.Category.Doc
	}
	row("Category", category)
	row("Class", v.ClassRule().String())
	row("Retryable", v.RetryShort())
	row("Suppress retry", yesNo(v.SuppressRetry))
	row("Message", v.Message.Text)
	if u := v.UserMessage; u.Template != nil {
		text := u.Template.Text
		if from := u.Describe(); from != "" {
			text += " (" + from + ")"
		}
		row("User message", text)
	}
	if v.SuppressionKey != nil {
		row("Suppression key", v.SuppressionKey.Text)
	}
	row("Suggested tool", v.SuggestedTool)
	row("Suggested action", v.SuggestedAction)
	row("Usage hint", v.UsageHint)
	row("Required fields", strings.Join(v.RequiredFields, ", "))
	row("Instance hints", v.HintsText())
	row("HTTP status", m.HTTPStatusText(v))
	row("Classify", m.ClassifyText(v))
	if c := v.MapCase(); c != nil {
		row("Converts into", c.To.Code+" ("+v.Family.MapsTo.Func()+")")
	}
	row("Retry policy", v.RetryPolicyText())
	row("Sub-codes", v.SubcodesText())
	row("Attributes", v.AttrsText())
	if v.Family.HasPayload() {
		row("Payload type", v.Family.PayloadType)
	}
	for _, p := range v.ProjectionText(m) {
		row("Projection", p)
	}
	if strings.TrimSpace(v.Doc) != "" {
		b.WriteString("\n")
		b.WriteString(indent(termText(v.Doc), "  "))
	}
	if len(v.Fields) > 0 {
		b.WriteString("\nFields\n")
		var table strings.Builder
		tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', tabwriter.TabIndent|tabwriter.DiscardEmptyColumns)
		for _, f := range v.Fields {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", f.Name, typeText(f), strings.Join(f.Keys(), ", "),
				termText(strings.Join(strings.Fields(f.Doc), " ")))
		}
		tw.Flush()
		// A row whose last cells are empty keeps the padding before them.
		for _, line := range strings.SplitAfter(table.String(), "\n") {
			if body, ok := strings.CutSuffix(line, "\n"); ok {
				b.WriteString(strings.TrimRight(body, " ") + "\n")
			}
		}
	}
	b.WriteString("\nExample\n")
	fmt.Fprintf(&b, "  error: %s\n", termText(oracle.Message(ex)))
	if p := oracle.Payload(ex); p != nil {
		b.WriteString("  payload:\n")
		b.WriteString(indent(termText(IndentJSON(p)), "    "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Retired describes a code or num that a family reserved, for explain to
// say that it is retired; "" when key names no reserved value. A code is
// matched as Find matches one, ignoring letter case.
func Retired(m *model.Catalogue, key string) string {
	num, isNum := parseNum(key)
	for _, f := range m.Families {
		for _, n := range f.ReservedNums {
			if isNum && n == num {
				return fmt.Sprintf("num %d is reserved in family %s of %s: it was retired and is never used again", n, f.Name, diag.Path(m.File))
			}
		}
		for _, s := range f.ReservedCodes {
			if strings.EqualFold(s, key) {
				return fmt.Sprintf("code %s is reserved in family %s of %s: it was retired and is never used again", diag.Quote(s), f.Name, diag.Path(m.File))
			}
		}
	}
	return ""
}

// Find returns the variant of m whose code, sub-code or num is key. A code
// written in another letter case is found too (TOOL_TIMEOUT for
// tool_timeout): one catalogue spells every code in one case, so that
// match is unique. A num is decimal digits only.
func Find(m *model.Catalogue, key string) *model.Variant {
	num, isNum := parseNum(key)
	for _, exact := range []bool{true, false} {
		same := strings.EqualFold
		if exact {
			same = func(a, b string) bool { return a == b }
		}
		for _, v := range m.Variants {
			if same(v.Code, key) || isNum && v.Num == num || slices.ContainsFunc(v.Subcodes, func(s *model.Subcode) bool { return same(s.Code, key) }) {
				return v
			}
		}
	}
	return nil
}

// FindSubcode returns the sub-code of m that key names, in any letter
// case as Find, or nil.
func FindSubcode(m *model.Catalogue, key string) *model.Subcode {
	for _, exact := range []bool{true, false} {
		for _, v := range m.Variants {
			for _, s := range v.Subcodes {
				if s.Code == key || !exact && strings.EqualFold(s.Code, key) {
					return s
				}
			}
		}
	}
	return nil
}

// ExplainSubcode writes the entry of a sub-code: which variant's it is, its
// doc, then that variant's entry (Explain), whose rules an instance that
// selects the sub-code follows, with an example that selects it.
func ExplainSubcode(w io.Writer, m *model.Catalogue, sc *model.Subcode) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: a sub-code of %s; an instance that selects it reports it from Code()\n", sc.Code, sc.Variant.Code)
	if doc := strings.TrimSpace(sc.Doc); doc != "" {
		b.WriteString(indent(termText(doc), "  "))
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return explain(w, m, sc.Variant, selecting(sc))
}

// selecting returns a copy of sc's variant whose example selects sc: a
// variant's example selects its first sub-code (model.ExampleCode).
func selecting(sc *model.Subcode) *model.Variant {
	v := *sc.Variant
	v.Subcodes = append([]*model.Subcode{sc}, slices.DeleteFunc(slices.Clone(v.Subcodes), func(s *model.Subcode) bool { return s == sc })...)
	return &v
}

// Suggest is a did-you-mean hint for a key that names no code of m: the
// nearest code, sub-code or reserved code within a few edits, as
// ` (did you mean "tool_timeout"?)`; failing that, the codes the key is
// part of or that are part of it; or "".
func Suggest(m *model.Catalogue, key string) string {
	if _, isNum := parseNum(key); isNum {
		return ""
	}
	var codes []string
	for _, v := range m.Variants {
		codes = append(codes, v.Code)
		for _, s := range v.Subcodes {
			codes = append(codes, s.Code)
		}
	}
	for _, f := range m.Families {
		codes = append(codes, f.ReservedCodes...)
	}
	lower := make([]string, len(codes))
	for i, c := range codes {
		lower[i] = strings.ToLower(c)
	}
	k := strings.ToLower(key)
	if best := diag.Closest(k, lower, min(3, max(1, len(key)/3))); best != "" {
		return fmt.Sprintf(" (did you mean %s?)", diag.Quote(codes[slices.Index(lower, best)]))
	}
	// Too far apart to be a typo: a key that is part of codes ("timeout"),
	// or a code with more around it ("shop_internal"), names the codes
	// meant, the first few of them.
	var part []string
	for i, c := range lower {
		if len(k) >= 3 && strings.Contains(c, k) || len(c) >= 3 && strings.Contains(k, c) {
			part = append(part, diag.Quote(codes[i]))
		}
	}
	switch n := len(part); {
	case n == 0:
		return ""
	case n == 1:
		return fmt.Sprintf(" (did you mean %s?)", part[0])
	case n > 5:
		part = append(part[:5], fmt.Sprintf("and %d more", n-5))
	}
	return fmt.Sprintf(" (did you mean one of %s?)", strings.Join(part, ", "))
}

// parseNum reads key as a num: decimal digits only, so "+1004" or " 1004"
// is not one.
func parseNum(key string) (int, bool) {
	if key == "" || strings.TrimLeft(key, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(key)
	return n, err == nil
}

// termText makes catalogue text safe to print on a terminal, line by line
// (diag.Inert), keeping its line breaks.
func termText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = diag.Inert(l)
	}
	return strings.Join(lines, "\n")
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// typeText is a field's type as the catalogue writes it, with the unit of
// a duration: "duration (ms)".
func typeText(f *model.Field) string {
	if f.Type.Kind == model.Duration {
		return f.Type.Name + " (" + f.Unit.Name + ")"
	}
	return f.Type.Name
}
