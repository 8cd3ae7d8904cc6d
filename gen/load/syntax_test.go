package load

import (
	"strings"
	"testing"
)

// A syntax error caused by a token inside a line's value is placed at that
// token, not at the line's first character: a second ": " or a trailing
// ":" in a plain value, text after a quoted value or a closed [ list or
// { mapping.
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
