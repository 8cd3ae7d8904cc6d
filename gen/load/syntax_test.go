package load

import (
	"strings"
	"testing"
)

// A syntax error caused by a token inside a line's value is placed at that
// token, not at the line's first character: a second ": " or a trailing
// ":" in a plain value, text after a quoted value or a closed [ list or
// { mapping, a value that starts with a character no plain value may start
// with (@, `, %) or with * or & not followed by an alias or anchor name.
func TestSyntaxErrorAtStrayToken(t *testing.T) {
	head := "version: 1\npackage: p\ncategories: {c: C.}\nfamilies:\n  - name: F\n    variants:\n      - name: V\n        code: v\n"
	for _, tc := range []struct {
		line string // the ninth line, with the error
		want string // the position and the start of the message
	}{
		{"        message: bad: input", "errors.yaml:9:21: YAML syntax error: mapping values"},
		{"        message: bad input:", "errors.yaml:9:27: YAML syntax error: mapping values"},
		{"        message: \"bad\": input", "errors.yaml:9:23: YAML syntax error: mapping values"},
		{"        message: bad input # see: notes", ""},
		{"        message: {bad} input", "errors.yaml:9:24: YAML syntax error: did not find expected key"},
		{"        message: [bad] input", "errors.yaml:9:24: YAML syntax error: did not find expected key"},
		{"        message: \"{bad}\" input", "errors.yaml:9:26: YAML syntax error: did not find expected key"},
		{"        message: 'it''s' here", "errors.yaml:9:26: YAML syntax error: did not find expected key"},
		{"          message: indented too far", "errors.yaml:9:11: YAML syntax error: mapping values"},
		{"        message: @tool failed", "errors.yaml:9:18: YAML syntax error: found character that cannot start any token (quote a value that starts with \"@\")"},
		{"        message: `tool` failed # see @notes", "errors.yaml:9:18: YAML syntax error: found character that cannot start any token (quote a value that starts with \"`\")"},
		{"        message: [x, \"@y\", @z]", "errors.yaml:9:28: YAML syntax error: found character that cannot start any token (quote a value that starts with \"@\")"},
		{"        message: &a* x", "errors.yaml:9:18: YAML syntax error: did not find expected alphabetic or numeric character (quote a value that starts with \"&\", which YAML reads as an anchor)"},
		{"        message: * failed", "errors.yaml:9:18: YAML syntax error: did not find expected alphabetic or numeric character (quote a value that starts with \"*\", which YAML reads as an alias)"},
		{"        message: the @tool failed", ""},
	} {
		src := head + tc.line + "\n        num: 1\n        category: c\n"
		_, diags, _ := load("errors.yaml", []byte(src))
		got := ""
		for _, d := range diags {
			if strings.Contains(d.String(), "YAML syntax error") {
				got = d.String()
			}
		}
		if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s:\n got %s\nwant %s...", tc.line, got, tc.want)
		}
	}
}

// An alias to no anchor, which the parser refuses without a position, is
// reported at the alias like any other alias: as a value, as a key, in a
// flow collection, after a line of a block scalar that looks like one, on
// line 1 after a byte order mark.
func TestUnknownAliasAtAlias(t *testing.T) {
	const refused = ": anchors and aliases are not allowed; write the value out"
	for _, tc := range []struct{ src, want string }{
		{"a: 1\nb: *c\n", "errors.yaml:2:4: alias *c" + refused},
		{"a: 1\n*cat: 2\n", "errors.yaml:2:1: alias *cat" + refused},
		{"a: [x, *y]\n", "errors.yaml:1:8: alias *y" + refused},
		{"a: {b: \"*y\", c: *y}\n", "errors.yaml:1:17: alias *y" + refused},
		{"a: |\n  *y is text\nb: *y\n", "errors.yaml:3:4: alias *y" + refused},
		{"a: '*y' # *y\nb: *y\n", "errors.yaml:2:4: alias *y" + refused},
		{"\ufeff*y\n", "errors.yaml:1:4: alias *y" + refused},
		{"a: *y-z\n", "errors.yaml:1:4: alias *y-z" + refused},
	} {
		wantOneDiagnostic(t, tc.src, tc.want)
	}
}

// A syntax error the parser names only the line of is placed at the token
// it is about, in bytes, whatever stands before it on the line (a byte
// order mark, text of several bytes a character, a CR of a CRLF line
// ending): the quote that opens a value that never closes, on whichever
// line it opens; the [ or { of a list or mapping that does not close, or
// whose items lack a comma; the quote that opens a key whose value took
// the lines after it; the character the scanner stops at.
func TestSyntaxErrorColumn(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// A quoted value that never closes.
		{"version: 1\npackage: \"démo\n", "errors.yaml:2:10: YAML syntax error: found unexpected end of stream"},
		{"version: 1\npackage: 'it''s\n", "errors.yaml:2:10: YAML syntax error: found unexpected end of stream"},
		{"version: 1\npackage: \"é\" \"b\n", "errors.yaml:2:15: YAML syntax error: found unexpected end of stream"},
		{"a: 1\nb:\n  - [\"a\", \"b]\n", "errors.yaml:3:11: YAML syntax error: found unexpected end of stream"},
		{"version: 1\r\npackage: \"demo\r\ncategories: {}\r\n", "errors.yaml:2:10: YAML syntax error: found unexpected end of stream"},
		{"version: \"1\npackage: demo\ncategories: {}\n", "errors.yaml:1:10: YAML syntax error: found unexpected end of stream"},
		{"\ufeffversion: \"1\npackage: demo\n", "errors.yaml:1:13: YAML syntax error: found unexpected end of stream"},
		{"version: 1\n--- \"x: 1\n", "errors.yaml:2:5: YAML syntax error: found unexpected end of stream"},
		// A list or mapping that does not close, or lacks a comma.
		{"version: 1\nnums: [1000, 1099\nname: x\n", "errors.yaml:2:7: YAML syntax error: did not find expected ',' or ']'"},
		{"version: 1\nnums: [[1, 2], [é, 4\n", "errors.yaml:2:16: YAML syntax error: did not find expected ',' or ']'"},
		{"version: 1\nnums: [1000,\n  1099\nname: x\n", "errors.yaml:2:7: YAML syntax error: did not find expected ',' or ']'"},
		{"version: 1\nf: {name: é, type: string\n", "errors.yaml:2:4: YAML syntax error: did not find expected ',' or '}'"},
		{"version: 1\nf: {name: é type: string}\n", "errors.yaml:2:4: YAML syntax error: did not find expected ',' or '}'"},
		{"version: 1\nf: {name: a, doc: \"b}\ng: \"c\"\n", "errors.yaml:2:4: YAML syntax error: did not find expected ',' or '}'"},
		{"[1,\nb: 2\n", "errors.yaml:1:1: YAML syntax error: did not find expected ',' or ']'"},
		// Of several on the line, the one the parser refuses read alone,
		// not one before it that closes as it should.
		{"version: 1\nfields: [{name: a, type: string}, {name: b type: string}]\n", "errors.yaml:2:35: YAML syntax error: did not find expected ',' or '}'"},
		{"version: 1\nfields: [{name: a, type: string}, {name: b, type: string]\n", "errors.yaml:2:35: YAML syntax error: did not find expected ',' or '}'"},
		{"version: 1\nnums: [[1, 2], [[3] [4]]]\n", "errors.yaml:2:16: YAML syntax error: did not find expected ',' or ']'"},
		{"version: 1\nnums: [[1, 2], [3, 4] [5, 6]]\n", "errors.yaml:2:7: YAML syntax error: did not find expected ',' or ']'"},
		// Opened on line 1, where the line the parser names holds a list
		// that closes as it should.
		{"nums: [1,\n  [2, 3]\n  [4]\n", "errors.yaml:1:7: YAML syntax error: did not find expected ',' or ']'"},
		// A key whose quote does not close where it should.
		{"version: 1\n\"package: demo\ncategories: \"x\"\n", "errors.yaml:2:1: YAML syntax error: could not find expected ':'"},
		// A character that starts no token where it stands.
		{"version: 1\npackage: [é, >]\n", "errors.yaml:2:15: YAML syntax error: found character that cannot start any token"},
		{"version: 1\npackage: {a: |}\n", "errors.yaml:2:14: YAML syntax error: found character that cannot start any token"},
		{"version: 1\npàckage: ? x\n", "errors.yaml:2:11: YAML syntax error: mapping keys are not allowed in this context"},
		{"version: 1\npàckage: - x\n", "errors.yaml:2:11: YAML syntax error: block sequence entries are not allowed in this context"},
		{"version: 1\npackage: |é\n  x\n", "errors.yaml:2:11: YAML syntax error: did not find expected comment or line break"},
		{"version: 1\npackage: >:\n  x\n", "errors.yaml:2:11: YAML syntax error: did not find expected comment or line break"},
	} {
		_, diags, _ := load("errors.yaml", []byte(tc.src))
		got := ""
		if len(diags) > 0 {
			got = diags[0].String()
		}
		if len(diags) != 1 || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %s...", tc.src, got, tc.want)
		}
	}
}

// A quoted value left open takes the lines after it up to the next quote,
// and the parser fails on the line where it ends, lines below the
// mistake: the error names where the value opens, and stands at what the
// parser refused after it, or at the value itself when that is what the
// parser refused.
func TestSyntaxErrorAfterQuoteLeftOpen(t *testing.T) {
	const open = " (a quoted value opens at "
	const takes = " and takes the lines up to this one: close it where it should end)"
	for _, tc := range []struct{ src, want string }{
		{"version: 1\npackage: \"démo\ncategories:\n  t: x\nfamilies:\n  - name: \"a: b\"\n",
			"errors.yaml:6:13: YAML syntax error: mapping values are not allowed in this context" + open + "2:10" + takes},
		{"version: 1\nfamilies:\n  - name: é\n    doc: \"x\n    message: \"it's\" here\n",
			"errors.yaml:5:15: YAML syntax error: did not find expected key" + open + "4:10" + takes},
		{"a: \"x\nb: \"y\" z\n",
			"errors.yaml:2:5: YAML syntax error: did not find expected key" + open + "1:4" + takes},
		{"version: 1\nfamilies:\n  - name: A\n   '  doc: x\n    message: \"it's\"\n",
			"errors.yaml:4:4: YAML syntax error: did not find expected '-' indicator (this quoted value takes the lines up to line 5: close it where it should end)"},
		// The quote closes inside a line of the value below; the text after
		// it is a plain value that the parser reads on into the next line,
		// where it fails.
		{"version: 1\nfamilies:\n  - name: A\n    doc: \"é€ x\n    variants:\n      - message: \"it's\" here\n        fields: []\n",
			"errors.yaml:6:19: YAML syntax error: mapping values are not allowed in this context" + open + "4:10" + takes},
		{"version: 1\nfamilies:\n  - name: A\n    doc: 'x\n    variants:\n      - message: 'it''s' here\n        fields: []\n",
			"errors.yaml:6:19: YAML syntax error: mapping values are not allowed in this context" + open + "4:10" + takes},
		// A quoted value over two lines of a flow collection closes where
		// it should, and the collection goes on after it: the error below
		// is the next line's own.
		{"version: 1\npackage: tools\ncategories: {input: \"The caller\n  sent it wrong.\", timeout: The tool ran long.}\n  families: []\n",
			"errors.yaml:5:3: YAML syntax error: did not find expected key (check this line's indentation against the keys above it)"},
		{"version: 1\npackage: tools\ntags: [\"a\n  b\", c]\n   families: x\n",
			"errors.yaml:5:4: YAML syntax error: did not find expected key (check this line's indentation against the keys above it)"},
	} {
		wantOneDiagnostic(t, tc.src, tc.want)
	}
}

// wantOneDiagnostic fails unless loading src gives exactly the one
// diagnostic want.
func wantOneDiagnostic(t *testing.T, src, want string) {
	t.Helper()
	_, diags, _ := load("errors.yaml", []byte(src))
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	if len(got) != 1 || got[0] != want {
		t.Errorf("%q:\n got %q\nwant %q", src, got, want)
	}
}
