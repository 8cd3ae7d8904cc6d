package printer

import (
	"bytes"
	"go/doc/comment"
	"strings"
	"unicode"
	"unicode/utf8"
)

// InertLine makes one line of comment text unable to mean anything to a Go
// tool once it is written after "// ", and returns it.
//
// A directive (//go:generate, //line, //export, //extern) needs its text
// right after "//", which the space the printer writes after "//" prevents.
// A build constraint in the old form is different: it is any comment line
// that reads "+build" once its slashes and leading white space are cut,
// wherever it stands. go vet rejects one after the package clause
// ("misplaced +build comment") and gofmt moves it above the package clause
// as a real //go:build line. So a line whose first character that is not
// white space is '+' gets a backslash before that '+': "+build linux"
// becomes `\+build linux` and "  +build x" becomes `  \+build x`. White
// space is what unicode.IsSpace says, because that is what
// go/build/constraint trims: a no-break space before "+build" does not
// protect it.
//
// The cost of the rule is that a list bulleted with "+" is written as text
// with a visible backslash instead of a list.
func InertLine(line string) string {
	t := strings.TrimLeftFunc(line, unicode.IsSpace)
	if strings.HasPrefix(t, "+") {
		i := len(line) - len(t)
		return line[:i] + `\` + t
	}
	return line
}

// clean returns the lines of comment text as the printer writes them:
//   - an argument holding line breaks is split into lines; "\r\n" and a
//     lone "\r" are line breaks too, since the Go scanner drops carriage
//     returns from comments and one kept would not survive gofmt; a line
//     break at the end of an argument only ends its line;
//   - characters the Go scanner rejects in a source file (NUL, a byte order
//     mark, invalid UTF-8) and other control characters but tab are
//     replaced with U+FFFD;
//   - trailing white space is cut, as gofmt cuts it;
//   - every line is made inert (InertLine).
//
// The result is lines itself when no line needs any of that, which is the
// common case, and otherwise scratch space valid until the next call.
func (f *File) clean(lines []string) []string {
	dirty := false
	for _, l := range lines {
		if !plainLine(l) {
			dirty = true
			break
		}
	}
	if !dirty {
		return lines
	}
	out := f.lines[:0]
	for _, l := range lines {
		if plainLine(l) {
			out = append(out, l)
			continue
		}
		if strings.HasSuffix(l, "\r\n") {
			l = l[:len(l)-2]
		} else if strings.HasSuffix(l, "\n") || strings.HasSuffix(l, "\r") {
			l = l[:len(l)-1]
		}
		for {
			i := strings.IndexAny(l, "\r\n")
			if i < 0 {
				break
			}
			out = append(out, cleanLine(l[:i]))
			if l[i] == '\r' && i+1 < len(l) && l[i+1] == '\n' {
				i++
			}
			l = l[i+1:]
		}
		out = append(out, cleanLine(l))
	}
	f.lines = out
	return out
}

// plainLine reports whether line is printable ASCII (tabs allowed) without
// trailing white space and without a leading '+': a line clean leaves as it
// is. It is the fast path; anything else goes through cleanLine.
func plainLine(line string) bool {
	lead := true
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c < ' ' && c != '\t' || c >= utf8.RuneSelf {
			return false
		}
		if lead && c != ' ' && c != '\t' {
			if c == '+' {
				return false
			}
			lead = false
		}
	}
	if n := len(line); n > 0 && (line[n-1] == ' ' || line[n-1] == '\t') {
		return false
	}
	return true
}

// cleanLine sanitises one line without line breaks (see clean).
func cleanLine(line string) string {
	ok := utf8.ValidString(line)
	for _, r := range line {
		if r < ' ' && r != '\t' || r == '\uFEFF' {
			ok = false
			break
		}
	}
	if !ok {
		var b strings.Builder
		for _, r := range line { // an invalid byte decodes as U+FFFD
			if r < ' ' && r != '\t' || r == '\uFEFF' {
				r = utf8.RuneError
			}
			b.WriteRune(r)
		}
		line = b.String()
	}
	return InertLine(strings.TrimRightFunc(line, unicode.IsSpace))
}

// commentLine writes one line of a comment that gofmt does not reformat,
// after indent: "// " and the text, or "//" for a blank line, since gofmt
// cuts trailing white space.
func (f *File) commentLine(indent, line string) {
	f.buf.WriteString(indent)
	if line == "" {
		f.buf.WriteString("//\n")
		return
	}
	f.buf.WriteString("// ")
	f.buf.WriteString(line)
	f.buf.WriteByte('\n')
}

// memberDoc writes the comment above a field, method, spec or statement,
// at the given indentation. gofmt reformats only comments that start in
// the first column right before a declaration, so these are written line
// for line.
func (f *File) memberDoc(indent string, lines []string) {
	for _, line := range f.clean(lines) {
		f.commentLine(indent, line)
	}
}

// writeDoc writes the doc comment of a top-level declaration.
//
// gofmt rewrites such a comment (go/printer's formatDocComment): it cuts
// the "//" and one space from each line, parses the text with
// go/doc/comment's Parser and prints it with its Printer, then writes each
// resulting line after "// ", a blank line as "//" and a code line, which
// starts with a tab, right after "//". writeDoc does the same, so the bytes
// are gofmt's. A comment whose text is all blank disappears, as it does
// under gofmt.
func (f *File) writeDoc(lines []string) {
	lines = f.clean(lines)
	if plainDoc(lines) {
		// go/doc/comment would print these lines as they are; parsing and
		// printing them would cost more than the rest of the declaration.
		for _, line := range lines {
			f.commentLine("", line)
		}
		return
	}
	for _, line := range formatDoc(lines) {
		f.buf.WriteString(line)
		f.buf.WriteByte('\n')
	}
}

// formatDoc returns the lines of the doc comment with the given text lines
// as gofmt writes it, "//" included. It is writeDoc's general path.
//
// go/doc/comment's printer is not idempotent on all input: a list whose
// items mix markers and indentation can take a second pass to settle. gofmt
// makes one pass over what the printer writes, so the printer makes as many
// as it takes for one more to change nothing: its output is then a fixed
// point of gofmt.
func formatDoc(lines []string) []string {
	text, _ := settle(strings.Join(lines, "\n") + "\n")
	var out []string
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		switch {
		case line == "":
			out = append(out, "//")
		case line[0] == '\t':
			out = append(out, "//"+line)
		default:
			out = append(out, "// "+line)
		}
	}
	return out
}

// maxPasses bounds the passes settle makes. Random text settles in at most
// four (TestSettle); the bound only keeps a pathological input from
// looping.
const maxPasses = 10

// settle formats text as gofmt formats a doc comment until a pass changes
// nothing, and returns it with the number of passes made. Each pass sees
// the text as gofmt reads it back from the comment: every line with its
// trailing white space cut.
func settle(text string) (string, int) {
	for n := 1; ; n++ {
		var p comment.Parser
		var pr comment.Printer
		out := pr.Comment(p.Parse(text))
		next := trimLines(out)
		if next == text || n == maxPasses {
			return next, n
		}
		text = next
	}
}

// trimLines returns text with trailing white space cut from every line.
func trimLines(text []byte) string {
	var b strings.Builder
	b.Grow(len(text))
	for len(text) > 0 {
		line := text
		rest := []byte(nil)
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, rest = text[:i], text[i+1:]
		}
		b.Write(bytes.TrimRightFunc(line, unicode.IsSpace))
		b.WriteByte('\n')
		text = rest
	}
	return b.String()
}

// plainDoc reports whether go/doc/comment prints the cleaned lines exactly
// as they are: paragraphs of unindented text separated by single blank
// lines, with nothing the parser reads as markup. It errs on the side of
// false; a test checks it against formatDoc on random text.
//
// What it rules out, per go/doc/comment's parser:
//   - leading, trailing or doubled blank lines, which the printer drops;
//   - indented lines, which start code blocks and lists, and make the
//     preceding unindented lines part of them;
//   - lines starting with '#', which may be headings;
//   - '[' anywhere, which may start a doc link or a link definition (link
//     definitions are moved to the end);
//   - two back quotes or two single quotes in a row, which become
//     typographic quotes;
//   - a one-line paragraph between two others that ends in a letter or
//     digit, which may be an old-style heading (written "# Heading").
func plainDoc(lines []string) bool {
	n := len(lines)
	if n == 0 || lines[0] == "" || lines[n-1] == "" {
		return false
	}
	para := 0 // start of the current paragraph
	for i, l := range lines {
		if l == "" {
			if lines[i-1] == "" {
				return false
			}
			if i-para == 1 && para > 0 && !safeEnd(lines[para]) {
				return false
			}
			para = i + 1
			continue
		}
		if c := l[0]; c == ' ' || c == '\t' || c == '#' {
			return false
		}
		if strings.IndexByte(l, '[') >= 0 || strings.Contains(l, "``") || strings.Contains(l, "''") {
			return false
		}
	}
	return true
}

// safeEnd reports whether line ends in an ASCII character that is neither a
// letter nor a digit, so that it cannot be an old-style heading.
func safeEnd(line string) bool {
	c := line[len(line)-1]
	return c < utf8.RuneSelf && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9')
}
