package markdown

import "testing"

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"plain words":            "plain words",
		"a | b":                  `a \| b`,
		"`code` *em* _em_ ~del~": "\\`code\\` \\*em\\* \\_em\\_ \\~del\\~",
		"[link](x) <b>&amp;":     `\[link\](x) \<b\>\&amp;`,
		`back\slash`:             `back\\slash`,
		"two\nlines\r\nthree":    "two<br>lines<br>three",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPara(t *testing.T) {
	for in, want := range map[string]string{
		"one line":                      "one line",
		"# not a heading\n- not a list": "\\# not a heading\n\\- not a list",
		"    indented\n> quote":         "indented\n\\> quote",
		"1. first\n12) twelfth":         "1\\. first\n12\\) twelfth",
		"a | b\n\nnext paragraph\n":     "a \\| b\n\nnext paragraph",
	} {
		if got := Para(in); got != want {
			t.Errorf("Para(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCode(t *testing.T) {
	for _, tc := range []struct{ in, code, cell string }{
		{"tool_timeout", "`tool_timeout`", "`tool_timeout`"},
		{"a | b", "`a | b`", "`a \\| b`"},
		{"uses `x`", "`` uses `x` ``", "`` uses `x` ``"},
		{"``", "``` `` ```", "``` `` ```"},
		{"two\nlines", "`two lines`", "`two lines`"},
		{" padded ", "`  padded  `", "`  padded  `"},
		{"", "`  `", "`  `"},
	} {
		if got := Code(tc.in); got != tc.code {
			t.Errorf("Code(%q) = %q, want %q", tc.in, got, tc.code)
		}
		if got := CodeCell(tc.in); got != tc.cell {
			t.Errorf("CodeCell(%q) = %q, want %q", tc.in, got, tc.cell)
		}
	}
}

func TestFence(t *testing.T) {
	if got, want := Fence(`{"a": 1}`, "json"), "```json\n{\"a\": 1}\n```"; got != want {
		t.Errorf("Fence = %q, want %q", got, want)
	}
	if got, want := Fence("```\nx\n", ""), "````\n```\nx\n````"; got != want {
		t.Errorf("Fence = %q, want %q", got, want)
	}
}
