package printer_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/golang/printer"
)

// TestRandomFiles holds random files to gofmt: whatever mixture of
// declarations, names, docs and statements the printer is given, its
// output is exactly what gofmt makes of it, and no comment line in it is a
// build constraint. The names are sometimes long, so that one-line
// functions sometimes do not fit; the doc text has lists, headings, code,
// links, "+build" lines, non-ASCII text and bytes the scanner rejects.
func TestRandomFiles(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		g := &gen{r: r}
		f := printer.NewFile(genHeader, "p")
		g.file(f)
		out := f.Bytes()
		if msg := gofmtDiff(out); msg != "" {
			t.Fatalf("file %d: %s", i, msg)
		}
		if line := constraintLine(out); line != "" {
			t.Fatalf("file %d: comment line %q is a build constraint", i, line)
		}
	}
}

// TestRandomDocs checks the fast path of doc comments against
// go/doc/comment on random text: whenever PlainDoc says the lines print as
// they are, FormatDoc prints them so.
func TestRandomDocs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := &gen{r: r}
	plain := 0
	for range 20000 {
		doc := g.doc()
		lines := make([]string, 0, len(doc))
		for _, l := range doc {
			for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '\n' || r == '\r' }) {
				lines = append(lines, printer.CleanLine(part))
			}
		}
		if !printer.PlainDoc(lines) {
			continue
		}
		plain++
		got := printer.FormatDoc(lines)
		if len(got) != len(lines) {
			t.Fatalf("PlainDoc(%q) but go/doc/comment prints\n%s", lines, strings.Join(got, "\n"))
		}
		for i, l := range lines {
			want := "// " + l
			if l == "" {
				want = "//"
			}
			if got[i] != want {
				t.Fatalf("PlainDoc(%q) but go/doc/comment prints\n%s", lines, strings.Join(got, "\n"))
			}
		}
	}
	if plain < 1000 {
		t.Errorf("only %d of the random docs took the fast path", plain)
	}
}

// gen makes random declarations.
type gen struct {
	r *rand.Rand
}

func (g *gen) n(n int) int            { return g.r.IntN(n) }
func (g *gen) chance(p int) bool      { return g.r.IntN(100) < p }
func (g *gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

// ident returns an identifier, usually short, sometimes long, sometimes
// with non-ASCII letters. Its letters cannot spell a Go keyword.
func (g *gen) ident() string {
	n := 1 + g.n(10)
	switch {
	case g.chance(15):
		n = 20 + g.n(70)
	case g.chance(5):
		n = 90 + g.n(20)
	}
	letters := []string{"a", "b", "c", "d", "e", "X", "Y", "Z", "_", "0", "7"}
	if g.chance(20) {
		letters = append(letters, "é", "Ü", "π", "世")
	}
	var b strings.Builder
	b.WriteString(g.pick([]string{"a", "b", "X", "Z", "é"}))
	for b.Len() < n {
		b.WriteString(g.pick(letters))
	}
	return b.String()
}

// text returns a string of random words, sometimes with non-ASCII.
func (g *gen) text() string {
	words := []string{"tool", "timed", "out", "after", "the", "deadline", "grüße", "世界", "x", "ünïcode", "a\tb", `"quoted"`, "50%", "{", "}"}
	var b strings.Builder
	for i := range 1 + g.n(8) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.pick(words))
	}
	return b.String()
}

var docFragments = []string{
	"T is a type.", "It does things.", "Second paragraph", "Details Here", "ÉTÉ Heading",
	"# Heading", "#NotHeading", "# ", "#",
	"+build linux", "  +build x", "\t+build y", "+", "+1 for this", "\u00a0+build z", "\u3000+build w",
	"go:generate x", "//go:build linux", "//go:generate rm", "line 1 x.go:1", "export F", "extern f",
	"  - item one", "  - +build item", "- unindented item", "* star", "+ plus item", "  + plus item",
	"1. first", "  2) second", "  3. third",
	"    code := 1", "\tcode()", "  +build in code", "}", "func x() {", `a \`,
	"[fmt.Stringer] is a link", "[x]: https://example.com", "[x]", "see https://go.dev/x.", "http://a.b/c?d=e",
	"``quoted''", "''", "``", "```go", "grüße 世界", "trailing   ", "   ", "\t", "", "", "",
	"a\tb", "nul \x00 byte", "bad \xff byte", "crlf\r\nline", "lone\rcr", "bom\ufeff", "\u2028sep", "nel\u0085",
	"*/ not a close", "/* open", "// nested", "\\+build escaped", "del\x7f", "end\n", "crlf end\r\n", "\ud7ff\ue000\U0010ffff",
}

// doc returns random doc comment lines.
func (g *gen) doc() []string {
	if g.chance(30) {
		return nil
	}
	lines := make([]string, 1+g.n(6))
	for i := range lines {
		if g.chance(40) {
			lines[i] = g.text()
			if g.chance(20) {
				lines[i] = strings.Repeat(" ", 1+g.n(4)) + lines[i]
			}
			if g.chance(10) {
				lines[i] += "."
			}
		} else {
			lines[i] = g.pick(docFragments)
		}
	}
	return lines
}

func (g *gen) typ() string {
	return g.pick([]string{"int", "string", "[]byte", "map[string]int", "*T", "time.Duration", "func() error",
		"chan<- int", "[4]uint8", "error", "any", "interface{}", "struct{}", "Ünï", g.ident(), "*" + g.ident()})
}

func (g *gen) expr() string {
	switch g.n(7) {
	case 0:
		return strconv.Itoa(g.n(100000))
	case 1:
		return strconv.Quote(g.text())
	case 2:
		return g.ident()
	case 3:
		return "&T{A: 1, B: " + strconv.Quote(g.text()) + "}"
	case 4:
		return g.ident() + "(a, b)"
	case 5:
		return "a + b"
	default:
		return "iota"
	}
}

func (g *gen) stmt() string {
	switch g.n(6) {
	case 0:
		return "return"
	case 1:
		return "x = " + g.expr()
	case 2:
		return g.ident() + "()"
	case 3:
		return "e.n++"
	default:
		return "return " + g.expr()
	}
}

func (g *gen) header() string {
	var b strings.Builder
	b.WriteString("func ")
	if g.chance(80) {
		b.WriteString(g.pick([]string{"(e *", "(", "(*", "(v "}))
		b.WriteString(g.ident())
		b.WriteString(") ")
	}
	b.WriteString(g.ident())
	b.WriteString(g.pick([]string{"()", "(i int)", "(a, b string)", "(" + g.ident() + " " + g.typ() + ")"}))
	b.WriteString(g.pick([]string{"", " int", " error", " (string, error)", " " + g.typ()}))
	return b.String()
}

func (g *gen) file(f *printer.File) {
	for range g.n(4) {
		f.Import(g.pick([]string{"time", "fmt", "errors", "math/rand/v2", "encoding/json", "strconv", "io"}))
	}
	for range g.n(25) {
		g.decl(f)
	}
}

func (g *gen) decl(f *printer.File) {
	docFirst := func() {
		if d := g.doc(); d != nil {
			f.Doc(d...)
		}
	}
	switch g.n(13) {
	case 0:
		docFirst()
		f.Type(g.ident(), g.typ())
	case 1:
		docFirst()
		var ms []printer.Member
		for range g.n(5) {
			text := g.ident() + "() " + g.typ()
			if g.chance(20) {
				text = g.ident()
			}
			ms = append(ms, printer.Member{Doc: g.doc(), Text: text})
		}
		f.Interface(g.ident(), ms)
	case 2, 3:
		docFirst()
		var fs []printer.Field
		for range g.n(7) {
			fd := printer.Field{Name: g.ident(), Type: g.typ()}
			if g.chance(20) {
				fd.Name = g.ident() + ", " + g.ident()
			}
			if g.chance(15) {
				fd.Name = ""
				fd.Type = g.pick([]string{"error", "io.Reader", "*T", g.ident()})
			}
			if g.chance(50) {
				fd.Tag = `json:"` + g.ident() + `,omitempty"`
				if g.chance(10) {
					fd.Tag = g.pick([]string{"x:\"`\"", "é:\"ü\"", "a\x00b", "c\rd", "\xff"})
				}
			}
			if g.chance(20) {
				fd.Doc = g.doc()
			}
			fs = append(fs, fd)
		}
		f.Struct(g.ident(), fs)
	case 4, 5, 6:
		var fns []printer.Func
		for range 1 + g.n(8) {
			fn := printer.Func{Header: g.header()}
			if g.chance(75) {
				fn.Body = g.stmt()
			}
			if g.chance(15) {
				fn.Doc = g.doc()
			}
			fns = append(fns, fn)
		}
		f.Funcs(fns)
	case 7:
		b := f.Func(g.doc(), g.header())
		g.block(b, 0)
		b.End()
	case 8:
		docFirst()
		var elems []string
		for range g.n(5) {
			elems = append(elems, g.expr())
		}
		f.Var(g.ident(), g.pick([]string{"[...]Info", "[]any", "[]string"}), elems)
	case 9:
		docFirst()
		var kvs []printer.KeyValue
		for range g.n(8) {
			kvs = append(kvs, printer.KeyValue{Key: strconv.Quote(g.ident()), Value: g.expr()})
		}
		f.KeyedVar(g.ident(), "map[string]any", kvs)
	case 10:
		docFirst()
		isVar := g.chance(50)
		var specs []printer.Spec
		for range g.n(7) {
			s := printer.Spec{Name: g.ident()}
			if g.chance(15) {
				s.Name += ", " + g.ident()
			}
			if g.chance(50) {
				s.Type = g.typ()
			}
			if g.chance(70) || isVar && s.Type == "" {
				s.Value = g.expr()
				if strings.Contains(s.Name, ",") {
					s.Value += ", " + g.expr()
				}
			}
			if g.chance(20) {
				s.Doc = g.doc()
			}
			specs = append(specs, s)
		}
		if isVar {
			f.Vars(specs)
		} else {
			f.Consts(specs)
		}
	case 11:
		s := printer.Spec{Doc: g.doc(), Name: g.ident(), Type: g.typ(), Value: g.expr()}
		if g.chance(30) {
			s.Type = ""
		}
		if g.chance(50) {
			f.Const(s)
		} else {
			f.VarSpec(s)
		}
	default:
		if g.chance(50) {
			f.Comment(append(g.doc(), "x")...)
		} else {
			docFirst()
			f.Raw(g.pick([]string{"func x() {\n\tprintln()\n}", "var y = 1\n", "type z struct {\n\tA int\n}\n\n"}))
		}
	}
}

// block writes random statements into b, nesting up to three levels.
func (g *gen) block(b *printer.Body, depth int) {
	for range g.n(6) {
		switch k := g.n(10); {
		case k < 4:
			b.Line(g.stmt())
		case k == 4:
			b.Blank()
		case k == 5:
			b.Comment(g.doc()...)
		case k == 6 && depth < 3:
			b.Open("if " + g.ident())
			g.block(b, depth+1)
			for g.chance(40) {
				head := g.pick([]string{"else", "else if " + g.ident()})
				b.Else(head)
				g.block(b, depth+1)
				if head == "else" {
					break
				}
			}
			b.Close()
		case k == 7 && depth < 3:
			head := g.pick([]string{"switch i", "switch", "select"})
			cases := []string{"case 0:", "default:", "case " + g.ident() + ", 2:"}
			if head == "select" {
				cases = []string{"case <-ch:", "default:", "case x := <-" + g.ident() + ":"}
			}
			b.Open(head)
			for range g.n(4) {
				if g.chance(30) {
					b.Blank()
				}
				if g.chance(30) {
					b.Comment(g.doc()...)
				}
				b.Case(g.pick(cases))
				g.block(b, depth+1)
			}
			b.Close()
		case k == 8 && depth < 3:
			b.Label(g.ident())
			if g.chance(30) {
				b.Blank()
			}
			if g.chance(30) {
				b.Comment(g.doc()...)
			}
			b.Open("for")
			g.block(b, depth+1)
			b.Close()
		default:
			b.Line("return " + g.expr())
		}
	}
}

// TestSettle checks that go/doc/comment settles well within the printer's
// bound on random doc text, and reports how many passes it takes: one when
// the text is already as gofmt writes it, two when one pass changes it,
// and more when go/doc/comment is not idempotent on it.
func TestSettle(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	g := &gen{r: r}
	passes := map[int]int{}
	for range 50000 {
		doc := g.doc()
		lines := make([]string, 0, len(doc))
		for _, l := range doc {
			for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '\n' || r == '\r' }) {
				lines = append(lines, printer.CleanLine(part))
			}
		}
		_, n := printer.Settle(strings.Join(lines, "\n") + "\n")
		passes[n]++
	}
	t.Logf("passes to settle: %v", passes)
	for n := range passes {
		if n > 5 {
			t.Errorf("%d docs took %d passes", passes[n], n)
		}
	}
}

// FuzzQuote holds Quote to strconv.Quote, whose spelling it promises.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain text", `a "quoted" word`, `back\slash`, "tab\there", "del\x7f", "é", "\xff", "~ and space"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := printer.Quote(s), strconv.Quote(s); got != want {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	})
}
