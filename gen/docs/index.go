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
// page ("" when the registry names none), both relative to the registry's
// folder.
type IndexEntry struct {
	Model  *model.Catalogue
	Path   string
	Owner  string
	Ranges [][2]int
	Docs   string
	// Dir is the registry's folder as a link from the index's folder,
	// escaped and ending in a slash (../, svc/), which links put before
	// Path and Docs; "" when the index is in the registry's folder.
	Dir string
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
		total += en.Model.CodeCount()
	}
	fmt.Fprintf(&b, "%s\n\n# Error codes of every service\n\n", Marker(file))
	// Only a catalogue whose entry names its reference (docs:) has
	// entries to link to.
	links := "Each code links to its entry in its catalogue's reference."
	if slices.ContainsFunc(entries, func(en IndexEntry) bool { return en.Docs == "" }) {
		links = "Each code of a catalogue with a reference (the registry's docs:) links to its entry there."
	}
	fmt.Fprintf(&b, "%s in %s. %s\n\n", counted(total, "code"), counted(len(entries), "catalogue"), links)
	b.WriteString("| Catalogue | Owner | Nums | Package | Codes |\n|---|---|---|---|---|\n")
	for _, en := range entries {
		ranges := make([]string, len(en.Ranges))
		for i, r := range en.Ranges {
			ranges[i] = fmt.Sprintf("%d–%d", r[0], r[1])
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d |\n", link(en, "", ""), markdown.Text(en.Owner), strings.Join(ranges, ", "),
			markdown.Code(en.Model.Package), en.Model.CodeCount())
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
		cells := func(code, message string) {
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s |\n", code, r.v.Num, markdown.Text(r.en.Path),
				markdown.Text(r.en.Owner), markdown.Code(r.v.Category.Name), markdown.Text(r.v.RetryShort()), message)
		}
		cells(link(r.en, r.v.Code, r.v.Code), markdown.CodeCell(r.v.Message.Text))
		// A sub-code is the code its instances send, with the variant's
		// num: a code of the catalogue like any other, at its variant's
		// entry.
		for _, sc := range r.v.Subcodes {
			cells(link(r.en, sc.Code, r.v.Code), "sub-code of "+markdown.Code(r.v.Code)+": "+markdown.Text(sc.Doc))
		}
	}
	return []byte(b.String())
}

// counted is n things, the thing in the plural unless n is 1.
func counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// link is a Markdown link to code at the entry of the variant whose code
// is entry in en's reference (anchored by that code), or to the reference itself;
// without a reference, to the catalogue file, and for a code, the code as
// plain text.
func link(en IndexEntry, code, entry string) string {
	switch {
	case code == "" && en.Docs == "":
		return "[" + markdown.Text(en.Path) + "](" + en.Dir + en.Path + ")"
	case code == "":
		return "[" + markdown.Text(en.Path) + "](" + en.Dir + en.Docs + ")"
	case en.Docs == "":
		return markdown.Code(code)
	}
	return "[" + markdown.Code(code) + "](" + en.Dir + en.Docs + "#" + entry + ")"
}
