// Package synth builds synthetic catalogues of any size, deterministically,
// for benchmarks and for tests that need a large or varied catalogue
// without storing one.
package synth

import (
	"fmt"
	"strings"
)

// types cycles through every scalar field type and both cause kinds.
var types = []string{"string", "uint64", "bool", "int", "duration", "strings", "float64", "int64"}

// Catalogue returns the YAML text of a valid catalogue with n variants
// spread over families of at most 100 variants each. Each variant has one to
// four fields of mixed types, a message template using them, and (in
// payload families) payload fields; every fifth variant after the first
// family wraps a cause from the first family; some carry suppression keys,
// user messages, HTTP statuses and retry-after fields.
func Catalogue(n int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\npackage: synth\nuser_message: The request failed ({code}).\ncategories:\n")
	for c := range min(n, 8) {
		fmt.Fprintf(&b, "  cat%d: Synthetic category %d.\n", c, c)
	}
	b.WriteString("families:\n")
	families := (n + 99) / 100
	status := 100
	for f := range families {
		first := f * 100
		last := min(first+100, n)
		fmt.Fprintf(&b, "  - name: Family%d\n", f)
		fmt.Fprintf(&b, "    doc: Synthetic family %d.\n", f)
		if f%2 == 0 {
			fmt.Fprintf(&b, "    payload_type: family%d_error\n", f)
		}
		fmt.Fprintf(&b, "    nums: [%d, %d]\n", 1000+first*10, 1000+(first+99)*10)
		b.WriteString("    variants:\n")
		for i := first; i < last; i++ {
			writeVariant(&b, f, i, &status)
		}
	}
	return []byte(b.String())
}

func writeVariant(b *strings.Builder, family, i int, status *int) {
	fmt.Fprintf(b, "      - name: Variant%d\n", i)
	fmt.Fprintf(b, "        code: variant_%d\n", i)
	fmt.Fprintf(b, "        num: %d\n", 1000+i*10)
	fmt.Fprintf(b, "        category: cat%d\n", i%8)
	fmt.Fprintf(b, "        doc: Synthetic variant %d.\n", i)
	nfields := 1 + i%4
	var msg []string
	var fields []string
	retryAfter := false
	for k := range nfields {
		t := types[(i+k)%len(types)]
		name := fmt.Sprintf("field_%d", k)
		line := fmt.Sprintf("          - {name: %s, type: %s", name, t)
		if family%2 == 0 && k%2 == 0 {
			line += ", payload: true"
		}
		if t == "duration" && !retryAfter && i%3 == 0 {
			line += ", retry_after: true"
			retryAfter = true
		}
		fields = append(fields, line+"}")
		msg = append(msg, fmt.Sprintf("%s={%s}", name, name))
	}
	if family > 0 && i%5 == 0 {
		fields = append(fields, "          - {name: cause, type: Family0}")
		msg = append(msg, "cause: {cause}")
	}
	fmt.Fprintf(b, "        message: \"variant %d failed: %s\"\n", i, strings.Join(msg, ", "))
	switch i % 4 {
	case 0:
		b.WriteString("        retryable: true\n")
	case 1:
		b.WriteString("        suppress_retry: true\n        suppression_key: \"{field_0}:{code}\"\n")
	case 2:
		b.WriteString("        non_fatal: true\n        user_message: \"Something went wrong ({code}).\"\n")
	}
	if i%7 == 0 && *status < 600 {
		fmt.Fprintf(b, "        http_status: [%d]\n", *status)
		*status++
	}
	b.WriteString("        fields:\n")
	for _, f := range fields {
		b.WriteString(f + "\n")
	}
}
