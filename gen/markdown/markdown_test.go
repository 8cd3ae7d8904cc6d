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
		"a block\nof two\n\n":    "a block<br>of two",
		// GitHub links web addresses without unescaping them: one with a
		// scheme is an autolink ending where GitHub ends the link; one
		// that an autolink cannot show as written, and one without a
		// scheme, are not linked.
		"see https://example.com/run_book?a=1&b=2.":    "see <https://example.com/run_book?a=1&b=2>.",
		"https://a.example/t#tool_not_found|x_y":       `https\://a.example/t#tool\_not\_found\|x\_y`,
		"at www.example.com/a_b_, or HTTP://X.io/*a*_": `at www\.example.com/a\_b\_, or <HTTP://X.io/*a>\*\_`,
		"not_a_url://x_y <https://e.com/a_b>":          `not\_a\_url://x\_y \<https\://e.com/a\_b\>`,
		"(https://x.io/run_book) \"https://x.io/faq\"": `(<https://x.io/run_book>) "<https://x.io/faq>"`,
		"https://x.io/wiki/A_(b) ftp://f.io/pub_dir":   `<https://x.io/wiki/A_(b)> <ftp://f.io/pub_dir>`,
		"_https://x.io/a_b 1https://x.io/c_d":          `\_<https://x.io/a_b> 1<https://x.io/c_d>`,
		"https://x.io/?a=1&amp;b=2 https://x.io/a&lt;": `https\://x.io/?a=1\&amp;b=2 <https://x.io/a>\&lt;`,
		"https:// and www. alone":                      `https:// and www\. alone`,
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

func TestQuiet(t *testing.T) {
	for in, want := range map[string]string{
		"ask @octocat or @org/team":            "ask @&#8203;octocat or @&#8203;org/team",
		"see #12 and owner/repo#3":             "see #&#8203;12 and owner/repo#&#8203;3",
		"fixed in GH-7, gh-8":                  "fixed in GH-&#8203;7, gh-&#8203;8",
		"at https://evil.example/x":            "at https:&#8203;//evil.example/x",
		"or www.evil.example":                  "or www&#8203;.evil.example",
		"mail ops@example.com":                 "mail ops@&#8203;example.com",
		"plain text, 100% #not-a-ref, @ alone": "plain text, 100% #not-a-ref, @ alone",
		Text("a_b @x"):                         `a\_b @&#8203;x`,
	} {
		if got := Quiet(in); got != want {
			t.Errorf("Quiet(%q) = %q, want %q", in, got, want)
		}
	}
}
