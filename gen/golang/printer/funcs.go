package printer

import "unicode/utf8"

// A Func is a function with at most one statement.
type Func struct {
	Doc    []string // the doc comment, formatted as gofmt formats doc comments
	Header string   // "func (e *T) Error() string": everything before the body
	Body   string   // one simple statement ("return x"), or "" for an empty body
}

// maxOneLine is go/printer's limit for a function body kept on the
// header's line (funcBody's maxSize).
const maxOneLine = 100

// Fits reports whether gofmt keeps fn on one line: "header { stmt }", or
// "header {}" for an empty body.
//
// go/printer's funcBody keeps a body of at most five simple statements on
// the header's line when the header size plus the body size is at most
// 100. The body size is the statement's length in bytes, as printed; the
// braces and the blanks around the statement are not counted. The header
// size is one more than the header's length in bytes, because funcDecl
// measures it from the column before "func" (the blank after "func" is
// still pending when it takes the start column). So the rule is
// len(Header) + len(Body) <= 99, in bytes, not characters: a line of a
// lone one-line function is at most 104 bytes long ("header { stmt }"), or
// 102 with an empty body ("header {}").
//
// The statement must be a simple one (a return, an assignment, a call): a
// statement with a block of its own never fits, and the printer does not
// parse it to find out.
func (fn Func) Fits() bool {
	return len(fn.Header)+1+len(fn.Body) <= maxOneLine
}

// Funcs writes a run of functions, in order, each with at most one
// statement. It separates and aligns them as follows, which is a fixed
// point of gofmt:
//
//   - consecutive functions that fit on one line and have no doc comment
//     are written without blank lines between them, and gofmt's tabwriter
//     aligns their bodies: the "{" one column past the longest header of
//     the run (in runes);
//   - every other function (one with a doc comment, or one that does not
//     fit and so spans lines) stands alone, separated by blank lines.
//
// gofmt would also keep a documented one-line function adjacent to the
// one-line functions after it, and align it with them (the comment breaks
// the alignment section before it, not after); the printer does not write
// that layout, so that a doc comment reads as belonging to one function.
// A function spanning lines always starts a new section (go/printer's
// declList) and its closing brace ends it.
//
// A pending Doc is not allowed before Funcs: each function carries its own.
func (f *File) Funcs(fns []Func) {
	for _, fn := range fns {
		oneLine("function header", fn.Header)
		oneLine("function body", fn.Body)
	}
	for i := 0; i < len(fns); {
		fn := fns[i]
		if len(fn.Doc) > 0 || !fn.Fits() {
			f.begin(false)
			if len(fn.Doc) > 0 {
				f.writeDoc(fn.Doc)
			}
			f.oneFunc(fn, 1)
			i++
			continue
		}
		// A run: the functions that fit and have no doc comment.
		j, width := i, 0
		for ; j < len(fns) && len(fns[j].Doc) == 0 && fns[j].Fits(); j++ {
			width = max(width, utf8.RuneCountInString(fns[j].Header))
		}
		f.begin(false)
		for _, fn := range fns[i:j] {
			f.oneFunc(fn, width-utf8.RuneCountInString(fn.Header)+1)
		}
		i = j
	}
}

// oneFunc writes fn: on one line when it fits, its body pad spaces after
// the header; otherwise with the statement on a line of its own.
func (f *File) oneFunc(fn Func, pad int) {
	f.buf.WriteString(fn.Header)
	switch {
	case !fn.Fits() && fn.Body == "":
		f.buf.WriteString(" {\n}\n")
	case !fn.Fits():
		f.buf.WriteString(" {\n\t")
		f.buf.WriteString(fn.Body)
		f.buf.WriteString("\n}\n")
	case fn.Body == "":
		f.pad(pad)
		f.buf.WriteString("{}\n")
	default:
		f.pad(pad)
		f.buf.WriteString("{ ")
		f.buf.WriteString(fn.Body)
		f.buf.WriteString(" }\n")
	}
}

// Func starts a function whose body spans lines, after the doc comment
// given (nil for none; a pending Doc may be used instead, not both), and
// returns its body. The function is written as "header {", the body, and
// "}", even when it has a single statement that would fit on one line:
// gofmt never joins a body whose braces are on different lines. No other
// declaration may be added to the file until the body's End is called.
func (f *File) Func(doc []string, header string) *Body {
	oneLine("function header", header)
	if len(doc) > 0 {
		if f.doc != nil {
			panic("printer: both Doc and a doc for " + header)
		}
		f.Doc(doc...)
	}
	f.begin(true)
	f.buf.WriteString(header)
	f.buf.WriteString(" {\n")
	b := &Body{f: f, header: header, depth: 1, start: true}
	f.body = b
	return b
}

// Body writes the statements of a function that spans lines. Statements
// are indented one tab per open block. Blank lines and comments are held
// until the next statement, so that they can be laid out as gofmt lays
// them out: a blank line is dropped at the start and end of a block and
// kept to one, and a comment before a case clause is indented as the
// clause.
type Body struct {
	f      *File
	header string
	depth  int  // the indentation of statements: 1 in the function's block
	start  bool // nothing written yet in the current block
	held   []held
	opens  []int // per open block: where an empty select's "\n" would be, or -1
}

// held is a blank line or a comment waiting for the next statement.
type held struct {
	comment []string // nil for a blank line
}

// Line writes one statement, which must be one line of gofmt-clean text.
func (b *Body) Line(stmt string) {
	oneLine("statement", stmt)
	b.flush(b.depth, false)
	b.f.indent(b.depth)
	b.f.buf.WriteString(stmt)
	b.f.buf.WriteByte('\n')
}

// Open writes "head {" ("switch i", "if err != nil", "for _, x := range
// xs") and indents what follows, until the matching Close or Else. A
// "select" closed with nothing in it is written "select {}", as gofmt
// writes it; every other empty block keeps its braces on two lines.
func (b *Body) Open(head string) {
	oneLine("block head", head)
	b.flush(b.depth, false)
	b.f.indent(b.depth)
	b.f.buf.WriteString(head)
	b.f.buf.WriteString(" {\n")
	end := -1
	if head == "select" {
		end = b.f.buf.Len() - 1
	}
	b.opens = append(b.opens, end)
	b.depth++
	b.start = true
}

// Case writes a case clause ("case 0:", "default:") of the innermost open
// switch or select: at the indentation of the switch, with the statements
// after it one level deeper, as gofmt indents them. Comments held before
// it are indented as the clause.
func (b *Body) Case(clause string) {
	oneLine("case clause", clause)
	if b.depth < 2 {
		panic("printer: Case outside a block in " + b.header)
	}
	b.flush(b.depth-1, false)
	b.f.indent(b.depth - 1)
	b.f.buf.WriteString(clause)
	b.f.buf.WriteByte('\n')
	b.start = true
}

// Label writes "name:" one level left of the statement it labels, which
// must follow, as gofmt indents labels: in the function's own block, in the
// first column. Comments held before it are indented as statements.
func (b *Body) Label(name string) {
	oneLine("label", name)
	b.flush(b.depth, false)
	b.f.indent(b.depth - 1)
	b.f.buf.WriteString(name)
	b.f.buf.WriteString(":\n")
	b.start = true // no blank line between a label and its statement
}

// Close writes the "}" of the innermost open block.
func (b *Body) Close() {
	if b.depth < 2 {
		panic("printer: Close without Open in " + b.header + "; End ends the function")
	}
	b.flush(b.depth, true)
	b.depth--
	end := b.opens[len(b.opens)-1]
	b.opens = b.opens[:len(b.opens)-1]
	if end >= 0 && b.f.buf.Len() == end+1 {
		// gofmt writes a select without cases or comments as "select {}",
		// the only block it writes on one line when it is empty.
		b.f.buf.Truncate(end)
		b.f.buf.WriteString("}\n")
		b.start = false
		return
	}
	b.f.indent(b.depth)
	b.f.buf.WriteString("}\n")
	b.start = false
}

// Else closes the innermost open block and opens the next on the same
// line: Else("else") writes "} else {", Else("else if x") writes
// "} else if x {".
func (b *Body) Else(head string) {
	oneLine("else", head)
	if b.depth < 2 {
		panic("printer: Else without Open in " + b.header)
	}
	b.flush(b.depth, true)
	b.opens[len(b.opens)-1] = -1
	b.f.indent(b.depth - 1)
	b.f.buf.WriteString("} ")
	b.f.buf.WriteString(head)
	b.f.buf.WriteString(" {\n")
	b.start = true
}

// Blank asks for a blank line before the next statement. gofmt keeps at
// most one; the printer writes one only between two statements of a block.
func (b *Body) Blank() { b.held = append(b.held, held{}) }

// Comment writes comment lines before the next statement, at its
// indentation (at the clause's, before a Case). gofmt does not reformat
// comments inside a function; every line is made inert.
func (b *Body) Comment(lines ...string) {
	if len(lines) == 0 {
		return
	}
	b.held = append(b.held, held{comment: lines})
}

// End writes the "}" of the function, which ends the declaration.
func (b *Body) End() {
	if b.depth != 1 {
		panic("printer: End with a block still open in " + b.header)
	}
	b.flush(1, true)
	b.f.buf.WriteString("}\n")
	b.f.body = nil
	b.depth = 0
}

// flush writes the held blank lines and comments before the next line,
// the comments at the given depth. Blank lines are dropped at the start of
// a block, doubled ones are dropped, and so are those at the end of a
// block, before a closing brace (closing set).
func (b *Body) flush(depth int, closing bool) {
	if b.f.body != b {
		panic("printer: Body used after End")
	}
	last := len(b.held) // the held items after the last comment are blanks
	if closing {
		for last > 0 && b.held[last-1].comment == nil {
			last--
		}
	}
	blank := false
	for _, h := range b.held[:last] {
		if h.comment == nil {
			blank = !b.start
			continue
		}
		if blank {
			b.f.buf.WriteByte('\n')
			blank = false
		}
		for _, line := range b.f.clean(h.comment) {
			b.f.indent(depth)
			b.f.commentLine("", line)
		}
		b.start = false
	}
	if blank {
		b.f.buf.WriteByte('\n')
	}
	b.held = b.held[:0]
	b.start = false
}
