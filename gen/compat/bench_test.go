package compat_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/compat"
)

// keyCauses writes a catalogue of n errors of a family Inner and n of a
// family Holder, each Holder's suppression key rendering its cause, an
// Inner; reworded rewords one Inner's message, which changes every key.
func keyCauses(n int, reworded bool) string {
	var b strings.Builder
	b.WriteString("version: 1\npackage: kc\nuser_message: Failed ({code}).\ncategories:\n  other: Anything.\nfamilies:\n  - name: Inner\n    variants:\n")
	for i := range n {
		msg := fmt.Sprintf("inner %d {path}", i)
		if reworded && i == n/2 {
			msg = fmt.Sprintf("reworded %d {path}", i)
		}
		fmt.Fprintf(&b, "      - {name: In%d, code: in_%d, num: %d, category: other, message: %q, fields: [{name: path, type: string}]}\n", i, i, i+1, msg)
	}
	b.WriteString("  - name: Holder\n    variants:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - {name: H%d, code: h_%d, num: %d, category: other, message: \"holder %d: {cause}\", suppression_key: \"{cause}\", fields: [{name: cause, type: Inner}]}\n", i, i, 100000+i, i)
	}
	return b.String()
}

// BenchmarkCompareKeyCauses compares catalogues whose every Holder's
// suppression key renders a cause whose family has one message reworded:
// every key changes.
func BenchmarkCompareKeyCauses(b *testing.B) {
	for _, n := range []int{500, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			base, _ := gen.Parse("base.yaml", []byte(keyCauses(n, false)))
			head, _ := gen.Parse("errors.yaml", []byte(keyCauses(n, true)))
			if base == nil || head == nil {
				b.Fatal("catalogue refused")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if fs := compat.Compare(base, head); len(fs) != n+1 {
					b.Fatalf("%d findings, want %d", len(fs), n+1)
				}
			}
		})
	}
}
