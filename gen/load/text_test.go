package load

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/errgen/errgen/gen/diag"
)

// lines are the diagnostics of l, one string each.
func lines(l diag.List) []string {
	var out []string
	for _, d := range l {
		out = append(out, d.String())
	}
	return out
}

// A file that is not UTF-8 text with LF or CRLF line endings is one error
// for the whole file, not one at every character or line break; a file
// that only holds such a character here and there is reported at each.
func TestWholeFileIsOneError(t *testing.T) {
	const cat = "version: 1\npackage: p\ncategories:\n  c: C.\n"
	le16 := func(s string) string {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	be16 := func(s string) string {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return string(b)
	}
	le32 := func(s string) string {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
		return string(b)
	}
	be32 := func(s string) string {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
		}
		return string(b)
	}
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"UTF-16LE", le16(cat), []string{"f.yaml:1:1: the file is UTF-16; save it as UTF-8"}},
		{"UTF-16BE", be16(cat), []string{"f.yaml:1:1: the file is UTF-16; save it as UTF-8"}},
		{"UTF-16LE with BOM", le16("\ufeff" + cat), []string{"f.yaml:1:1: the file is UTF-16; save it as UTF-8"}},
		{"UTF-16BE with BOM", be16("\ufeff" + cat), []string{"f.yaml:1:1: the file is UTF-16; save it as UTF-8"}},
		{"UTF-16 of non-ASCII text", le16("# ошибки, записанные по-русски\n" + cat), []string{"f.yaml:1:1: the file is UTF-16; save it as UTF-8"}},
		{"UTF-32LE", le32(cat), []string{"f.yaml:1:1: the file is UTF-32; save it as UTF-8"}},
		{"UTF-32BE with BOM", be32("\ufeff" + cat), []string{"f.yaml:1:1: the file is UTF-32; save it as UTF-8"}},
		{"one NUL", "a\x00b: 1\n", []string{"f.yaml:1:2: control character '\\x00' is not allowed in a catalogue"}},
		{"CR line endings", strings.ReplaceAll(cat, "\n", "\r"), []string{"f.yaml:1:11: the file uses CR line endings; use LF (or CRLF)"}},
		{"CR line endings after LF ones", "a: 1\nb: 2\rc: 3\rd: 4\r", []string{"f.yaml:2:5: the file uses CR line endings; use LF (or CRLF)"}},
		{"CRLF line endings", strings.ReplaceAll(cat, "\n", "\r\n"), nil},
		{"a stray CR", "a: 1\r\nb: 2\r\r\n", []string{"f.yaml:2:5: control character '\\r' is not allowed in a catalogue"}},
	} {
		var l diag.List
		scanText("f.yaml", []byte(tc.src), &l)
		if got := lines(l); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// Tabs in indentation are one error, at the line YAML refused, counting
// the later lines indented with tabs.
func TestTabsAreOneError(t *testing.T) {
	for src, want := range map[string]string{
		"a:\n\tb: 1\n":                   "f.yaml:2:1: tab in indentation; YAML indents with spaces",
		"a:\n\tb: 1\n\tc: 2\n":           "f.yaml:2:1: tab in indentation; YAML indents with spaces (1 other line is indented with a tab too)",
		"a:\n  \tb: 1\n\t\tc: 2\n\td:\n": "f.yaml:2:3: tab in indentation; YAML indents with spaces (2 other lines are indented with tabs too)",
	} {
		var l diag.List
		if !scanTabs("f.yaml", []byte(src), 2, &l) {
			t.Errorf("%q: no tab found", src)
		}
		if got := lines(l); len(got) != 1 || got[0] != want {
			t.Errorf("%q:\n got %q\nwant %q", src, got, want)
		}
	}
}

// TestEveryProblemCounted: past diag.MaxProblems, the problems of a file
// are still counted, so the count of those not reported is right; in the
// raw text and in the node tree alike.
func TestEveryProblemCounted(t *testing.T) {
	const n = 1500
	for what, src := range map[string]string{
		"invisible characters": "version: 1\n" + strings.Repeat("# z\u200bz\n", n),
		"aliases":              "version: 1\na: &x 1\nb: [" + strings.Repeat("*x, ", n-1) + "*x]\n",
	} {
		_, l := Load("f.yaml", []byte(src))
		errs := n
		if what == "aliases" {
			errs++ // the anchor
		}
		if got := len(l) - 1 + l.Dropped(); len(l) != diag.MaxProblems+1 || got != errs {
			t.Errorf("%s: %d diagnostics kept, %d problems in all; want %d kept and %d in all", what, len(l), got, diag.MaxProblems+1, errs)
		}
	}
}

// TestSpaceAtTheStartOfALine: a Unicode space other than U+0020 before a
// line's first character, where the line starts a key or cannot be parsed,
// is one error at the first such line, naming the character; inside a
// value, and on a line that goes on a value, it is text like any other.
func TestSpaceAtTheStartOfALine(t *testing.T) {
	for src, want := range map[string]string{
		"a:\n\u00a0 b: 1\n":                           "f.yaml:2:1: no-break space U+00A0 at the start of a line; YAML indents with spaces (U+0020) only",
		"\ufeff\u3000a: 1\n":                          "f.yaml:1:4: ideographic space U+3000 at the start of a line; YAML indents with spaces (U+0020) only",
		"a:\n  \t\u202fb: 1\n\u00a0\u00a0c: 2\n":      "f.yaml:2:4: narrow no-break space U+202F at the start of a line; YAML indents with spaces (U+0020) only (1 other line starts with one too)",
		"a:\n\u2003b: 1\n\u00a0c:\n\u00a0d:\n":        "f.yaml:2:1: space character U+2003 at the start of a line; YAML indents with spaces (U+0020) only (2 other lines start with one too)",
		"a:\n  b: 1\n  \u00a0c: 2\nd: |\n  \u00a0x\n": "f.yaml:3:3: no-break space U+00A0 at the start of a line; YAML indents with spaces (U+0020) only",
		"a: x\u00a0y\nb: |\n  z\u00a0\n":              "",
		// A line that goes on a value: a literal or folded block's, a
		// quoted value's, a plain value's. The space is its text.
		"a: |\n  x\n  \u00a0\u00a0y\nb: 1\n":       "",
		"a: >-\n  \u00a0x\n":                       "",
		"a: \"x\n  \u00a0y\"\nb: 'x\n  \u3000y'\n": "",
		"a: x\n  \u00a0y\nb:\n  \u00a0z\n":         "",
		// A text that cannot be parsed above the space: the parser's
		// error is the one reported.
		"a: [\nb: |\n  \u00a0x\n": "",
	} {
		_, l := Load("f.yaml", []byte(src))
		var got []string
		for _, d := range l {
			if strings.Contains(d.Message(), "at the start of a line") {
				got = append(got, d.String())
			}
		}
		if strings.Join(got, "\n") != want {
			t.Errorf("%q:\n got %q\nwant %q", src, got, want)
		}
	}
}
