package docs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/markdown"
	"github.com/errgen/errgen/gen/model"
)

// IndexEntry is one catalogue of a registry's index page: its model, its
// path, owner and ranges as the registry gives them, and its reference
// page ("" when the registry names none), both relative to the index.
type IndexEntry struct {
	Model  *model.Catalogue
	Path   string
	Owner  string
	Ranges [][2]int
	Docs   string
}

// RenderIndex returns the Markdown index of a registry's catalogues: a
// table of the catalogues with their owners and ranges, then every code of
// every catalogue in num order, each linking to its entry in its
// catalogue's reference (or to the catalogue file when the registry names
// no reference). file names the registry in the generated-file line.
func RenderIndex(file string, entries []IndexEntry) []byte {
	var b strings.Builder
	total := 0
	for _, en := range entries {
		total += len(en.Model.Variants)
	}
	fmt.Fprintf(&b, "%s\n\n# Error codes of every service\n\n", Marker(file))
	fmt.Fprintf(&b, "%d codes in %d catalogues. Each code links to its entry in its catalogue's reference.\n\n", total, len(entries))
	b.WriteString("| Catalogue | Owner | Nums | Package | Codes |\n|---|---|---|---|---|\n")
	for _, en := range entries {
		ranges := make([]string, len(en.Ranges))
		for i, r := range en.Ranges {
			ranges[i] = fmt.Sprintf("%d–%d", r[0], r[1])
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d |\n", link(en, ""), markdown.Text(en.Owner), strings.Join(ranges, ", "),
			markdown.Code(en.Model.Package), len(en.Model.Variants))
	}
	type row struct {
		v  *model.Variant
		en IndexEntry
	}
	var rows []row
	for _, en := range entries {
		for _, v := range en.Model.ByNum {
			rows = append(rows, row{v, en})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return a.v.Num - b.v.Num })
	b.WriteString("\n| Code | Num | Catalogue | Owner | Category | Retryable | Message |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s |\n", link(r.en, r.v.Code), r.v.Num, markdown.Text(r.en.Path),
			markdown.Text(r.en.Owner), markdown.Code(r.v.Category.Name), r.v.Retry.Short(), markdown.CodeCell(r.v.Message.Text))
	}
	return []byte(b.String())
}

// link is a Markdown link to a code's entry in en's reference (anchor is
// the code), or to the reference itself; without a reference, to the
// catalogue file, and for a code, the code as plain text.
func link(en IndexEntry, code string) string {
	switch {
	case code == "" && en.Docs == "":
		return "[" + markdown.Text(en.Path) + "](" + en.Path + ")"
	case code == "":
		return "[" + markdown.Text(en.Path) + "](" + en.Docs + ")"
	case en.Docs == "":
		return markdown.Code(code)
	}
	return "[" + markdown.Code(code) + "](" + en.Docs + "#" + code + ")"
}
