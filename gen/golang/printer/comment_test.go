package printer_test

import (
	"go/build/constraint"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/golang/printer"
)

func TestInertLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain text", "plain text"},
		{"+build linux", `\+build linux`},
		{"  +build x", `  \+build x`},
		{"\t+build x", "\t\\+build x"},
		{"+", `\+`},
		{"+1 for this", `\+1 for this`},
		{"a +build b", "a +build b"},
		{`\+build x`, `\+build x`},
		{"\u00a0+build x", "\u00a0\\+build x"}, // constraint trims any Unicode space
		{"\u3000 +build x", "\u3000 \\+build x"},
		{"go:build linux", "go:build linux"},
		{"//go:generate x", "//go:generate x"},
	}
	for _, tt := range tests {
		got := printer.InertLine(tt.in)
		if got != tt.want {
			t.Errorf("InertLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
		for _, prefix := range []string{"// ", "//\t", "\t// "} {
			if line := prefix + got; constraint.IsPlusBuild(line) || constraint.IsGoBuild(line) {
				t.Errorf("%q is a build constraint", line)
			}
		}
	}
}

// TestDoc pins doc comments of top-level declarations: the printer writes
// them as go/doc/comment prints them, which is how gofmt rewrites them.
func TestDoc(t *testing.T) {
	tests := []struct {
		name string
		doc  []string
		want string // the comment lines
	}{{
		name: "one line",
		doc:  []string{"T is a type."},
		want: "// T is a type.\n",
	}, {
		name: "paragraphs",
		doc:  []string{"T is a type.", "", "Second paragraph", "from the catalogue."},
		want: "// T is a type.\n//\n// Second paragraph\n// from the catalogue.\n",
	}, {
		name: "blank lines at the ends and doubled are dropped",
		doc:  []string{"", "T is a type.", "", "", "More.", ""},
		want: "// T is a type.\n//\n// More.\n",
	}, {
		name: "trailing white space is cut; a line of spaces is blank",
		doc:  []string{"T is a type.   ", "   ", "More.\t"},
		want: "// T is a type.\n//\n// More.\n",
	}, {
		name: "an indented list gets its blank lines and indentation",
		doc:  []string{"T has:", " - first item", "* second item", "    continued", "Then text."},
		want: "// T has:\n//   - first item\n//   - second item\n//     continued\n//\n// Then text.\n",
	}, {
		name: "unindented list items are text",
		doc:  []string{"T has:", "- first item", "- second item"},
		want: "// T has:\n// - first item\n// - second item\n",
	}, {
		name: "a numbered list",
		doc:  []string{"T has:", "", " 1. one", " 2. two"},
		want: "// T has:\n//\n//  1. one\n//  2. two\n",
	}, {
		name: "a heading",
		doc:  []string{"T is a type.", "", "# Details", "", "More."},
		want: "// T is a type.\n//\n// # Details\n//\n// More.\n",
	}, {
		name: "an old-style heading becomes a heading",
		doc:  []string{"T is a type.", "", "Details Here", "", "More."},
		want: "// T is a type.\n//\n// # Details Here\n//\n// More.\n",
	}, {
		name: "a code block is indented with a tab",
		doc:  []string{"T is used so:", "", "    x := T{}", "        y()", "", "Done."},
		want: "// T is used so:\n//\n//\tx := T{}\n//\t    y()\n//\n// Done.\n",
	}, {
		name: "code right after text gets a blank line",
		doc:  []string{"T is used so:", "  x := T{}"},
		want: "// T is used so:\n//\n//\tx := T{}\n",
	}, {
		name: "links and URLs",
		doc:  []string{"T is like [fmt.Stringer] and [the spec].", "See https://go.dev/ref/spec.", "", "[the spec]: https://go.dev/ref/spec"},
		want: "// T is like [fmt.Stringer] and [the spec].\n// See https://go.dev/ref/spec.\n//\n// [the spec]: https://go.dev/ref/spec\n",
	}, {
		name: "link definitions move to the end",
		doc:  []string{"T is [the spec].", "", "[the spec]: https://go.dev/ref/spec", "", "More."},
		want: "// T is [the spec].\n//\n// More.\n//\n// [the spec]: https://go.dev/ref/spec\n",
	}, {
		name: "typographic quotes",
		doc:  []string{"T is ``quoted''."},
		want: "// T is “quoted”.\n",
	}, {
		name: "+build lines are inert, in text and in code",
		doc:  []string{"+build linux", "", "  +build x", "", "List:", "  - +build y", "    +build z", "", "\u00a0+build z"},
		want: "// \\+build linux\n//\n//\t\\+build x\n//\n// List:\n//   - +build y\n//     \\+build z\n//\n// \u00a0\\+build z\n",
	}, {
		name: "directives stay text",
		doc:  []string{"//go:generate rm -rf /", "go:generate x", "line 1 x.go:1", "export F"},
		want: "// //go:generate rm -rf /\n// go:generate x\n// line 1 x.go:1\n// export F\n",
	}, {
		name: "line breaks inside an argument are line breaks",
		doc:  []string{"T is a type.\nfunc init() { panic(1) }\r\nx\ry"},
		want: "// T is a type.\n// func init() { panic(1) }\n// x\n// y\n",
	}, {
		name: "characters the scanner rejects are replaced",
		doc:  []string{"nul \x00, bom \ufeff, bad \xff, bell \a, tab\tok"},
		want: "// nul \ufffd, bom \ufffd, bad \ufffd, bell \ufffd, tab\tok\n",
	}, {
		name: "non-ASCII",
		doc:  []string{"T grüßt 世界.", "", "  ünïcode code"},
		want: "// T grüßt 世界.\n//\n//\tünïcode code\n",
	}, {
		name: "all blank: no comment, as gofmt drops it",
		doc:  []string{"", "  ", ""},
		want: "",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decls(t, func(f *printer.File) {
				f.Doc(tt.doc...)
				f.Type("T", "int")
			})
			diff(t, tt.want+"type T int\n", got)
		})
	}
}

// TestMemberComments pins comments inside declarations: gofmt does not
// reformat them, so they are written line for line, but cleaned and inert.
func TestMemberComments(t *testing.T) {
	doc := []string{"- not a list  ", "", "  +build x", "# not a heading", "a\nb", "\x00", "c\r\n", "d\n\n", "e\x7f"}
	want := "\t// - not a list\n\t//\n\t//   \\+build x\n\t// # not a heading\n\t// a\n\t// b\n\t// \ufffd\n\t// c\n\t// d\n\t//\n\t// e\x7f\n"
	got := decls(t, func(f *printer.File) {
		f.Interface("I", []printer.Member{{Doc: doc, Text: "M()"}})
		f.Struct("S", []printer.Field{{Doc: doc, Name: "A", Type: "int"}, {Name: "B", Type: "int"}})
		f.Consts([]printer.Spec{{Doc: doc, Name: "A", Value: "1"}, {Name: "B", Value: "2"}})
		b := f.Func(nil, "func f()")
		b.Comment(doc...)
		b.Line("g()")
		b.End()
	})
	diff(t, "type I interface {\n"+want+"\tM()\n}\n\n"+
		"type S struct {\n"+want+"\tA int\n\tB int\n}\n\n"+
		"const (\n"+want+"\tA = 1\n\tB = 2\n)\n\n"+
		"func f() {\n"+want+"\tg()\n}\n", got)
}

// TestPlainDoc checks the fast path of doc comments against the general
// one on the lines that decide it.
func TestPlainDoc(t *testing.T) {
	tests := []struct {
		lines []string
		plain bool
	}{
		{[]string{"T is a type."}, true},
		{[]string{"T is a type.", "More text", "", "Second."}, true},
		{[]string{"T is a type.", "", "Middle.", "", "Last"}, true},
		{[]string{"T is a type.", "", "Middle Heading", "", "Last."}, false},
		{[]string{"T is a type.", "", "Last Line"}, true},
		{[]string{"- a", "- b"}, true},
		{[]string{"T:", "  code"}, false},
		{[]string{"# Heading"}, false},
		{[]string{"See [x]."}, false},
		{[]string{"``x''"}, false},
		{[]string{"", "x"}, false},
		{[]string{"x", "", "", "y"}, false},
		{[]string{"x", ""}, false},
		{[]string{"Ünïcode ends in a letter", "", "Éé", "", "x."}, false},
	}
	for _, tt := range tests {
		if got := printer.PlainDoc(tt.lines); got != tt.plain {
			t.Errorf("PlainDoc(%q) = %v, want %v", tt.lines, got, tt.plain)
		}
		if tt.plain {
			want := make([]string, len(tt.lines))
			for i, l := range tt.lines {
				want[i] = strings.TrimSuffix("// "+l, " ")
			}
			diff(t, strings.Join(want, "\n"), strings.Join(printer.FormatDoc(tt.lines), "\n"))
		}
	}
}
