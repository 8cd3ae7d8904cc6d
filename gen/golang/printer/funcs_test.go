package printer_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/golang/printer"
)

// header returns a function header of exactly n bytes, "func Fxxx()".
func header(n int) string {
	return "func F" + strings.Repeat("x", n-len("func F()")) + "()"
}

// methodHeader returns a method header of exactly n bytes.
func methodHeader(n int) string {
	const pre, post = "func (e *T) M", "() int"
	return pre + strings.Repeat("x", n-len(pre)-len(post)) + post
}

// TestFits pins gofmt's size rule for a function on one line: the header's
// length plus the statement's, in bytes, is at most 99. Each case checks
// the printer's layout, the length of the resulting line, and that gofmt
// makes the same layout from the function written on one line (so the
// split at the limit is gofmt's doing, not only a layout it keeps).
func TestFits(t *testing.T) {
	nonASCII := `return "` + strings.Repeat("é", 40) + `"` // 89 bytes, 49 runes
	tests := []struct {
		name    string
		fn      printer.Func
		fits    bool
		lineLen int // bytes of the one line, when it fits
	}{
		{"statement, 99 bytes", printer.Func{Header: header(87), Body: "return 12345"}, true, 104},
		{"statement, 100 bytes", printer.Func{Header: header(88), Body: "return 12345"}, false, 0},
		{"short statement, 99 bytes", printer.Func{Header: header(96), Body: "x()"}, true, 104},
		{"short statement, 100 bytes", printer.Func{Header: header(97), Body: "x()"}, false, 0},
		{"empty body, 99 bytes", printer.Func{Header: header(99)}, true, 102},
		{"empty body, 100 bytes", printer.Func{Header: header(100)}, false, 0},
		{"method, 99 bytes", printer.Func{Header: methodHeader(82), Body: "return 1234567890"}, true, 104},
		{"method, 100 bytes", printer.Func{Header: methodHeader(83), Body: "return 1234567890"}, false, 0},
		// Bytes, not characters: 99 bytes are 59 characters here.
		{"non-ASCII statement, 99 bytes", printer.Func{Header: header(10), Body: nonASCII}, true, 104},
		{"non-ASCII statement, 100 bytes", printer.Func{Header: header(11), Body: nonASCII}, false, 0},
		{"non-ASCII header, 99 bytes", printer.Func{Header: "func Ü" + strings.Repeat("é", 41) + "()", Body: "return 1"}, true, 104},
		{"non-ASCII header, 100 bytes", printer.Func{Header: "func Üx" + strings.Repeat("é", 41) + "()", Body: "return 1"}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.fn.Fits(); got != tt.fits {
				t.Fatalf("Fits() = %v, want %v (%d+%d bytes)", got, tt.fits, len(tt.fn.Header), len(tt.fn.Body))
			}
			oneLine := tt.fn.Header + " { " + tt.fn.Body + " }\n"
			if tt.fn.Body == "" {
				oneLine = tt.fn.Header + " {}\n"
			}
			want := oneLine
			if !tt.fits {
				want = tt.fn.Header + " {\n\t" + tt.fn.Body + "\n}\n"
				if tt.fn.Body == "" {
					want = tt.fn.Header + " {\n}\n"
				}
			} else if n := len(oneLine) - 1; n != tt.lineLen {
				t.Errorf("the line is %d bytes, want %d", n, tt.lineLen)
			}
			got := decls(t, func(f *printer.File) { f.Funcs([]printer.Func{tt.fn}) })
			diff(t, want, got)
			diff(t, "package p\n\n"+want, gofmt(t, "package p\n\n"+oneLine))
		})
	}
}

// TestFuncs pins how a run of functions with at most one statement is
// separated and aligned.
func TestFuncs(t *testing.T) {
	long := "func (*T) " + strings.Repeat("c", 84) + "() int" // 100 bytes: never fits
	tests := []struct {
		name string
		fns  []printer.Func
		want string
	}{{
		name: "one",
		fns:  []printer.Func{{Header: "func (*T) A() int", Body: "return 1"}},
		want: "func (*T) A() int { return 1 }\n",
	}, {
		name: "run of three aligned past the longest header",
		fns: []printer.Func{
			{Header: "func (*T) A() int", Body: "return 1"},
			{Header: "func (e *T) Bbbbbb() string", Body: `return "x"`},
			{Header: "func (*T) c()"},
		},
		want: `func (*T) A() int           { return 1 }
func (e *T) Bbbbbb() string { return "x" }
func (*T) c()               {}
`,
	}, {
		name: "a doc comment ends the run and starts a new one after it",
		fns: []printer.Func{
			{Header: "func (*T) A() int", Body: "return 1"},
			{Header: "func (e *T) Bbbbbb() string", Body: `return "x"`},
			{Doc: []string{"C does nothing."}, Header: "func (*T) C()"},
			{Header: "func (*T) dd()"},
			{Header: "func (*T) eeee()"},
		},
		want: `func (*T) A() int           { return 1 }
func (e *T) Bbbbbb() string { return "x" }

// C does nothing.
func (*T) C() {}

func (*T) dd()   {}
func (*T) eeee() {}
`,
	}, {
		name: "a function that does not fit ends the run",
		fns: []printer.Func{
			{Header: "func (*T) A() int", Body: "return 1"},
			{Header: "func (e *T) Bbbbbb() string", Body: `return "x"`},
			{Header: long, Body: "return 1"},
			{Header: "func (*T) dd()"},
			{Header: long},
		},
		want: `func (*T) A() int           { return 1 }
func (e *T) Bbbbbb() string { return "x" }

` + long + ` {
	return 1
}

func (*T) dd() {}

` + long + ` {
}
`,
	}, {
		name: "alignment counts runes, the size rule bytes",
		fns: []printer.Func{
			{Header: "func (*Ü) Aé() int", Body: "return 1"},
			{Header: "func (e *T) Bbbbbb() string", Body: `return "é"`},
		},
		want: `func (*Ü) Aé() int          { return 1 }
func (e *T) Bbbbbb() string { return "é" }
`,
	}, {
		// The size rule looks at each function alone, before padding: a
		// line of a run can be much longer than 104 bytes.
		name: "padding does not count",
		fns: []printer.Func{
			{Header: "func A() int", Body: "return 1234567890"},
			{Header: header(95), Body: "x()"},
		},
		want: "func A() int" + strings.Repeat(" ", 84) + "{ return 1234567890 }\n" +
			header(95) + " { x() }\n",
	}, {
		// No size-ratio heuristic breaks a run of functions, unlike the
		// keys of a composite literal.
		name: "no size-ratio heuristic",
		fns: []printer.Func{
			{Header: "func (*T) A()"},
			{Header: "func (*T) " + strings.Repeat("B", 80) + "()"},
			{Header: "func (*T) C()"},
		},
		want: "func (*T) A()" + strings.Repeat(" ", 80) + "{}\n" +
			"func (*T) " + strings.Repeat("B", 80) + "() {}\n" +
			"func (*T) C()" + strings.Repeat(" ", 80) + "{}\n",
	}, {
		name: "documented functions stand alone",
		fns: []printer.Func{
			{Doc: []string{"A is one."}, Header: "func (*T) A() int", Body: "return 1"},
			{Doc: []string{"B is two."}, Header: "func (*T) Bbbb() int", Body: "return 2"},
		},
		want: `// A is one.
func (*T) A() int { return 1 }

// B is two.
func (*T) Bbbb() int { return 2 }
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decls(t, func(f *printer.File) {
				f.Type("T", "struct{}")
				f.Funcs(tt.fns)
			})
			diff(t, "type T struct{}\n\n"+tt.want, got)
			diff(t, "package p\n\n"+tt.want, gofmt(t, collapse("package p\n\n"+tt.want)))
		})
	}
}

// TestGofmtFuncSections pins what gofmt does with layouts of functions the
// printer does not write, which decided the printer's rules: a doc comment
// forces a blank line before its function but the documented function
// still aligns with the adjacent ones after it; a function spanning lines
// starts a new section; a blank line ends one.
func TestGofmtFuncSections(t *testing.T) {
	tests := []struct{ name, in, want string }{{
		name: "doc comment: blank line before, aligned with the functions after",
		in: `func (*T) A() int { return 1 }
func (e *T) Bbbbbb() string { return "x" }
// Doc.
func (*T) c() {}
func (*T) dd() {}
`,
		want: `func (*T) A() int           { return 1 }
func (e *T) Bbbbbb() string { return "x" }

// Doc.
func (*T) c()  {}
func (*T) dd() {}
`,
	}, {
		name: "a function spanning lines ends the section",
		in: `func (*T) A() int { return 1 }
func (e *T) Bbbbbb() string { return "x" }
func (*T) c() {
	x()
}
func (*T) dd() {}
func (*T) eeeeeeeeee() {}
`,
		want: `func (*T) A() int           { return 1 }
func (e *T) Bbbbbb() string { return "x" }
func (*T) c() {
	x()
}
func (*T) dd()         {}
func (*T) eeeeeeeeee() {}
`,
	}, {
		name: "a blank line ends the section",
		in: `func (*T) A() int { return 1 }

func (e *T) Bbbbbb() string { return "x" }
`,
		want: `func (*T) A() int { return 1 }

func (e *T) Bbbbbb() string { return "x" }
`,
	}, {
		name: "braces on different lines are never joined",
		in: `func (*T) A() int {
	return 1
}
func (*T) B() {
}
`,
		want: `func (*T) A() int {
	return 1
}
func (*T) B() {
}
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff(t, "package p\n\n"+tt.want, gofmt(t, "package p\n\n"+tt.in))
		})
	}
}

// TestBody pins the layout of functions whose bodies span lines.
func TestBody(t *testing.T) {
	tests := []struct {
		name  string
		build func(f *printer.File)
		want  string
	}{{
		name: "switch",
		build: func(f *printer.File) {
			b := f.Func([]string{"field returns the address of field i."}, "func (e *T) field(i int) any")
			b.Open("switch i")
			b.Case("case 0:")
			b.Line("return &e.Tool")
			b.Case("case 1:")
			b.Line("return &e.Seconds")
			b.Close()
			b.Line("return nil")
			b.End()
		},
		want: `// field returns the address of field i.
func (e *T) field(i int) any {
	switch i {
	case 0:
		return &e.Tool
	case 1:
		return &e.Seconds
	}
	return nil
}
`,
	}, {
		name: "one statement stays on its own line",
		build: func(f *printer.File) {
			b := f.Func(nil, "func f() int")
			b.Line("return 1")
			b.End()
		},
		want: "func f() int {\n\treturn 1\n}\n",
	}, {
		name: "empty",
		build: func(f *printer.File) {
			f.Func(nil, "func f()").End()
		},
		want: "func f() {\n}\n",
	}, {
		name: "else and else if",
		build: func(f *printer.File) {
			b := f.Func(nil, "func f(x, z bool)")
			b.Open("if x")
			b.Line("y()")
			b.Else("else if z")
			b.Line("w()")
			b.Else("else")
			b.Line("v()")
			b.Close()
			b.End()
		},
		want: `func f(x, z bool) {
	if x {
		y()
	} else if z {
		w()
	} else {
		v()
	}
}
`,
	}, {
		name: "blank lines: one between statements, none at the ends of a block",
		build: func(f *printer.File) {
			b := f.Func(nil, "func f()")
			b.Blank()
			b.Line("a()")
			b.Blank()
			b.Blank()
			b.Line("b()")
			b.Open("for")
			b.Blank()
			b.Line("c()")
			b.Blank()
			b.Close()
			b.Blank()
			b.Open("switch")
			b.Case("default:")
			b.Blank()
			b.Line("d()")
			b.Blank()
			b.Case("case x:")
			b.Close()
			b.Blank()
			b.End()
		},
		want: `func f() {
	a()

	b()
	for {
		c()
	}

	switch {
	default:
		d()

	case x:
	}
}
`,
	}, {
		name: "comments: at the statement's indentation, the clause's before a case",
		build: func(f *printer.File) {
			b := f.Func(nil, "func f(i int) int")
			b.Comment("Which one?")
			b.Open("switch i")
			b.Comment("Zero.", "+build x")
			b.Case("case 0:")
			b.Comment("in case")
			b.Line("return 1")
			b.Blank()
			b.Comment("One.")
			b.Case("case 1:")
			b.Line("return 2")
			b.Comment("before close")
			b.Close()
			b.Comment("last")
			b.End()
		},
		want: `func f(i int) int {
	// Which one?
	switch i {
	// Zero.
	// \+build x
	case 0:
		// in case
		return 1

	// One.
	case 1:
		return 2
		// before close
	}
	// last
}
`,
	}, {
		name: "nested blocks and a label",
		build: func(f *printer.File) {
			b := f.Func(nil, "func f(xs []int)")
			b.Comment("Over xs.")
			b.Label("loop")
			b.Open("for _, x := range xs")
			b.Open("select")
			b.Case("case <-ch:")
			b.Open("if x > 0")
			b.Line("break loop")
			b.Close()
			b.Close()
			b.Comment("Inner.")
			b.Label("inner")
			b.Open("for")
			b.Open("select")
			b.Close()
			b.Close()
			b.Close()
			b.End()
		},
		want: `func f(xs []int) {
	// Over xs.
loop:
	for _, x := range xs {
		select {
		case <-ch:
			if x > 0 {
				break loop
			}
		}
		// Inner.
	inner:
		for {
			select {}
		}
	}
}
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff(t, tt.want, decls(t, tt.build))
		})
	}
}

// TestFuncsWidthIsRunes checks the claim in Funcs' doc: alignment is in
// runes (tabwriter), the size rule in bytes (go/printer's columns).
func TestFuncsWidthIsRunes(t *testing.T) {
	got := decls(t, func(f *printer.File) {
		f.Funcs([]printer.Func{{Header: "func 世界() int", Body: "return 1"}, {Header: "func abcdefgh() int", Body: "return 2"}})
	})
	lines := strings.Split(got, "\n")
	if a, b := utf8.RuneCountInString(lines[0]), utf8.RuneCountInString(lines[1]); a != b {
		t.Errorf("lines of %d and %d runes:\n%s", a, b, got)
	}
}
