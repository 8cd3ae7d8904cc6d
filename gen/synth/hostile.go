package synth

import (
	"bytes"
	"fmt"
)

// Input is a named catalogue.
type Input struct {
	Name string
	Src  []byte
	// Valid says whether errgen accepts it.
	Valid bool
}

// Hostile returns catalogues just under errgen's caps (values at most
// maxValues, bytes at most 16 MiB) in the shapes that cost errgen most
// per value, for the bounds test and the hostile-input benchmarks:
//
//   - categories: half the values are categories, each a key and a
//     description, which the model keeps a map of twice;
//   - statuses: one line listing a status again and again, each a value,
//     each a diagnostic (capped), the line too long to re-read per value;
//   - broken-variants: variants that each break four rules, as many as
//     the cap allows, so that diagnostics are capped;
//   - variants: the largest valid synthetic catalogue under the cap.
func Hostile(maxValues int) []Input {
	n := maxValues - 100
	var categories, statuses, broken bytes.Buffer
	categories.WriteString("version: 1\npackage: hostile\ncategories:\n")
	for i := range n / 2 {
		fmt.Fprintf(&categories, "  c%d: Category é %d.\n", i, i)
	}
	categories.WriteString("families:\n  - name: F\n    variants:\n      - {name: V, code: v, num: 1, category: c0, message: m}\n")

	const head = "version: 1\npackage: hostile\nuser_message: x ({code}).\ncategories:\n  c: C.\nfamilies:\n  - name: F\n    variants:\n"
	statuses.WriteString(head + "      - name: V\n        code: v\n        num: 1\n        category: c\n        message: m\n        http_status: [")
	for i := range n {
		fmt.Fprintf(&statuses, "%d,", 400+i%200)
	}
	statuses.WriteString("400]\n")

	broken.WriteString(head)
	for i := range n / 17 { // the loader's count reads 16 values a line
		fmt.Fprintf(&broken, "      - {name: V%d, code: dup, num: 1, category: nope, message: \"m {zz}\"}\n", i)
	}
	// synth.Catalogue holds about 47 values a variant by the loader's
	// count.
	return []Input{
		{"categories", categories.Bytes(), true},
		{"statuses", statuses.Bytes(), false},
		{"broken-variants", broken.Bytes(), false},
		{"variants", Catalogue(n / 50), true},
	}
}
