package tmpl

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Template
	}{
		{"", nil},
		{"plain text", Template{{Lit: "plain text"}}},
		{"Execution timeout after {seconds}s: {tool}", Template{{Lit: "Execution timeout after "}, {Ref: "seconds", Offset: 24}, {Lit: "s: "}, {Ref: "tool", Offset: 36}}},
		{"{tool}:{code}", Template{{Ref: "tool"}, {Lit: ":"}, {Ref: "code", Offset: 7}}},
		{"{{literal}} and }} {x}", Template{{Lit: "{literal} and } "}, {Ref: "x", Offset: 19}}},
		{"{{{x}}}", Template{{Lit: "{"}, {Ref: "x", Offset: 2}, {Lit: "}"}}},
		{"100% {v} %d", Template{{Lit: "100% "}, {Ref: "v", Offset: 5}, {Lit: " %d"}}},
	} {
		got, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", c.in, diff)
		}
		if again, err := Parse(got.String()); err != nil || !cmp.Equal(again, got) {
			t.Errorf("Parse(%q).String() = %q does not parse back to the same template", c.in, got.String())
		}
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"open {tool":     "at offset 5: unclosed {; write {{ for a literal brace",
		"stray } here":   "at offset 6: unmatched }; write }} for a literal brace",
		"empty {} here":  "at offset 6: empty placeholder {}",
		"nested {a{b}}":  "at offset 7: unclosed {; write {{ for a literal brace",
		"{ok} then {bad": "at offset 10: unclosed {; write {{ for a literal brace",
	} {
		_, err := Parse(in)
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) error = %v, want %q", in, err, want)
		}
	}
}

func TestRefs(t *testing.T) {
	tm, _ := Parse("{a} {b} {a} {code}")
	if diff := cmp.Diff([]string{"a", "b", "code"}, tm.Refs()); diff != "" {
		t.Error(diff)
	}
}
