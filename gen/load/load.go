// Package load reads a catalogue strictly: it parses the YAML once into
// nodes that keep their line and column, refuses what YAML allows but a
// reviewed catalogue should not hold (anchors, tags, duplicate keys, yes/no
// booleans, octal numbers, hostile characters), and fills an ast.Catalogue.
// It checks form, not meaning; the check package checks meaning.
package load

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
)

// Load parses src, the contents of file, into a catalogue. The catalogue is
// nil when the file cannot be read as YAML at all; otherwise it holds every
// value that had the right form, and the list holds every problem found.
func Load(file string, src []byte) (*ast.Catalogue, diag.List) {
	cat, l, _ := load(file, src)
	return cat, l
}

// LoadRegistry parses src, the contents of an errgen.registry.yaml file,
// with the same strict reading as a catalogue. The registry is nil when the
// file cannot be read as YAML at all.
func LoadRegistry(file string, src []byte) (*ast.Registry, diag.List) {
	var l diag.List
	if len(src) > MaxSize {
		l.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, "file is %d bytes; a registry may be at most %d (16 MiB)", len(src), MaxSize)
		return nil, l
	}
	sp := scanText(file, src, &l)
	if len(l) > 0 {
		return nil, l
	}
	text := newSource(src)
	root, ok := parseDoc(file, text, &l, "registry", "version and catalogues")
	if !ok {
		sp.instead(&l)
		return nil, l
	}
	if !sp.keys(file, text, root, &l) || !scanNodes(file, text, root, &l) {
		return nil, l
	}
	ld := &loader{file: file, src: text, diags: &l}
	return ld.registry(root), l
}

// load is Load, returning the source it read too.
func load(file string, src []byte) (*ast.Catalogue, diag.List, *source) {
	var l diag.List
	if len(src) > MaxSize {
		l.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, "file is %d bytes; a catalogue may be at most %d (16 MiB)", len(src), MaxSize)
		return nil, l, nil
	}
	sp := scanText(file, src, &l)
	if len(l) > 0 {
		return nil, l, nil
	}
	if n, line := countValues(src, MaxValues); n > MaxValues {
		l.Errorf(diag.Pos{File: file, Line: line, Col: 1}, "the catalogue holds more than %d values by this line; errgen reads at most %d (about 12,000 variants), which bounds its memory", MaxValues, MaxValues)
		return nil, l, nil
	}
	text := newSource(src)
	root, ok := parse(file, text, &l)
	if !ok {
		sp.instead(&l)
		return nil, l, text
	}
	if !sp.keys(file, text, root, &l) || !scanNodes(file, text, root, &l) {
		return nil, l, text
	}
	ld := &loader{file: file, src: text, diags: &l}
	cat := ld.catalogue(root)
	cat.Incomplete = l.HasErrors()
	cat.Misspelt = ld.misspelt
	return cat, l, text
}

// parse decodes the one YAML document of a catalogue.
func parse(file string, text *source, l *diag.List) (*yaml.Node, bool) {
	return parseDoc(file, text, l, "catalogue", "version, package, categories and families")
}

// parseDoc decodes the one YAML document of src, a what that needs at
// least the keys needs names.
func parseDoc(file string, text *source, l *diag.List, what, needs string) (*yaml.Node, bool) {
	src := text.src
	if !scanDirectives(file, text, l) {
		return nil, false
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		l.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, "%s is empty; it needs at least %s", what, needs)
		return nil, false
	}
	if err != nil {
		syntaxError(file, src, err, l)
		return nil, false
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		syntaxError(file, src, err, l)
		return nil, false
	default:
		l.Errorf(docPos(file, text, &next), "a %s is a single YAML document; remove this second one", what)
		return nil, false
	}
	if len(doc.Content) != 1 {
		l.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, "%s is empty; it needs at least %s", what, needs)
		return nil, false
	}
	// A document of nothing but its --- marker (and comments) holds an
	// implicit empty node that yaml.v3 places past the end of the file;
	// report the document at its marker instead.
	if n := doc.Content[0]; n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "" && n.Style == 0 {
		l.Errorf(docPos(file, text, &doc), "%s is empty; it needs at least %s", what, needs)
		return nil, false
	}
	return doc.Content[0], true
}

// scanDirectives refuses every directive: a line starting with "%" where a
// document may begin (at the start of the file, or after a "..." that
// ends a document), comments and blank lines aside, or just after a "---"
// with nothing after it, where a directive written after its marker
// stands and nothing else may start with "%". The parser reads %YAML 1.1
// and %TAG and changes nothing, and refuses %YAML 1.2 with a message that
// does not say what to do: none changes what errgen reads, so each is
// refused at its line, to be removed.
func scanDirectives(file string, text *source, l *diag.List) bool {
	before := len(*l)
	head := true // where a directive may stand, or would be taken for one
	for n := 1; n <= len(text.starts); n++ {
		line, col := text.line(n), 1
		if n == 1 && bytes.HasPrefix(line, byteOrderMark) {
			line, col = line[len(byteOrderMark):], 1+len(byteOrderMark)
		}
		switch {
		case !head:
			head = isMarker(line, "...")
		case len(line) > 0 && line[0] == '%':
			name, _, _ := bytes.Cut(line, []byte(" "))
			name, _, _ = bytes.Cut(name, []byte("\t"))
			if len(name) > 32 {
				name = append(bytes.ToValidUTF8(name[:32], nil), "..."...)
			}
			l.Errorf(diag.Pos{File: file, Line: n, Col: col}, "directive %s is not supported; remove this line", diag.Quote(string(name)))
		case blankOrComment(line):
		case isMarker(line, "---"):
			head = blankOrComment(line[3:])
		default:
			head = false // the document begins, without "---"
		}
	}
	return len(*l) == before
}

// isMarker reports whether line is the document marker m ("---" or
// "..."), alone or followed by a space, a tab or more.
func isMarker(line []byte, m string) bool {
	rest, ok := bytes.CutPrefix(line, []byte(m))
	return ok && (len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t')
}

// blankOrComment reports whether line holds nothing but spaces, tabs and
// a comment.
func blankOrComment(line []byte) bool {
	rest := bytes.TrimLeft(line, " \t")
	return len(rest) == 0 || rest[0] == '#'
}

// docPos is the position of a document: its --- marker, or its first node
// when it has no marker. (The first node of an empty document stands past
// the end of the file.)
func docPos(file string, text *source, doc *yaml.Node) diag.Pos {
	if doc.Line == 0 && len(doc.Content) > 0 {
		return text.pos(file, doc.Content[0])
	}
	line := max(doc.Line, 1)
	return diag.Pos{File: file, Line: line, Col: text.byteCol(line, max(doc.Column, 1))}
}

var (
	lineRE          = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	unknownAnchorRE = regexp.MustCompile(`^yaml: unknown anchor '([0-9A-Za-z_-]+)' referenced$`)
)

// syntaxError reports a file YAML refused. The parser gives the line of the
// problem but not its column; the column is that of a stray token in the
// line's value (strayToken), of the token the error is about where the
// parser confirms it (syntaxColumn), or, after a quoted value left open
// above, of what the parser refused where it ends; else that of the
// line's first character, where the token the parser choked on begins in
// most other cases (a key indented wrongly).
func syntaxError(file string, src []byte, err error, l *diag.List) {
	msg := err.Error()
	if m := unknownAnchorRE.FindStringSubmatch(msg); m != nil {
		// The parser names the alias but gives no position: the alias is
		// refused as any other, where it stands.
		if pos, ok := findAlias(file, src, m[1]); ok {
			l.Errorf(pos, "alias *%s: anchors and aliases are not allowed; write the value out", m[1])
			return
		}
	}
	line := 1
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			line = n
		}
		msg = m[2]
		line = problemLine(src, line)
		// A tab in the indentation of the line to fix is the most common
		// reason a catalogue fails to parse, and the parser's own message
		// does not say so. A tab elsewhere (in a block scalar, or in a
		// quoted value that spans lines) is legal, and not the problem.
		if scanTabs(file, src, line, l) {
			return
		}
	} else {
		// The parser gives no line for a problem on the first.
		msg = strings.TrimPrefix(msg, "yaml: ")
		if scanTabs(file, src, 1, l) {
			return
		}
	}
	lines := bytes.Split(src, []byte("\n"))
	if n := len(lines); n > 1 && len(lines[n-1]) == 0 {
		lines = lines[:n-1] // the end of the last line, not a line
	}
	if line > len(lines) {
		line = max(len(lines), 1)
	}
	col := 1
	hint := syntaxHints[msg]
	if escapeErrors[msg] {
		// The parser gives the line where the quoted value opens; the
		// escape may stand further on, on a line it continues onto.
		if l2, c := badEscapeAt(lines, line); l2 > 0 {
			l.Errorf(diag.Pos{File: file, Line: l2, Col: c}, "YAML syntax error: %s (write \\\\ for a backslash itself; the escapes are \\n, \\t, \\\", \\\\, \\xXX, \\uXXXX and the few others of YAML)", msg)
			return
		}
	}
	if line <= len(lines) {
		text := strings.TrimSuffix(string(lines[line-1]), "\r")
		col = len(text) - len(strings.TrimLeft(text, " ")) + 1
		if from, qcol := openAbove(src, lines, line); from > 0 && !placedAbove[msg] {
			// The line starts inside a quoted value that opens above,
			// which it closes: what the parser refused is the character
			// the scanner stopped at after it, or the value itself when
			// the file up to its end fails so, or else the parser's next
			// token.
			hint = fmt.Sprintf("a quoted value opens at %d:%d and takes the lines up to this one: close it where it should end", from, qcol)
			next, end := afterClose(text, src[lineStart(lines, from)+qcol-1])
			switch {
			case charErrors[msg] || msg == "mapping values are not allowed in this context":
				if c := charColumn(src, lines, line, err.Error()); c > 0 {
					col = c
				}
			case end >= 0 && decodeErr(src[:lineStart(lines, line)+end]) == err.Error():
				hint = fmt.Sprintf("this quoted value takes the lines up to line %d: close it where it should end", line)
				line, col = from, qcol
			case next >= 0:
				col = next + 1
			}
		} else if pl, pc, ph := afterQuoteAbove(src, lines, line, msg); pl > 0 {
			line, col, hint = pl, pc, ph
		} else if c, h := strayToken(msg, text); c > 0 {
			col, hint = c, h
		} else if l2, c := syntaxColumn(src, lines, line, msg, err.Error()); l2 > 0 {
			line, col = l2, c
		}
	}
	if hint != "" {
		hint = " (" + hint + ")"
	}
	l.Errorf(diag.Pos{File: file, Line: line, Col: col}, "YAML syntax error: %s%s", strings.ToValidUTF8(msg, "?"), hint)
}

// afterQuoteAbove places a syntax error the parser names on line when the
// line before it starts inside a quoted value that opens above and closes
// on it, with text after the closing quote: that text is a plain value the
// line goes on, and the parser fails only where it ends, here, a line
// below the text it refused (a key: "mapping values are not allowed").
// It returns the line and byte column (from 1) of the text after the
// closing quote, and the hint naming where the quoted value opens; 0, 0
// and "" otherwise.
func afterQuoteAbove(src []byte, lines [][]byte, line int, msg string) (int, int, string) {
	if placedAbove[msg] || line < 3 || line > len(lines) {
		return 0, 0, ""
	}
	prev := line - 1
	from, qcol := openAbove(src, lines, prev)
	if from == 0 {
		return 0, 0, ""
	}
	text := strings.TrimSuffix(string(lines[prev-1]), "\r")
	next, _ := afterClose(text, src[lineStart(lines, from)+qcol-1])
	if next < 0 || !plainStart(text[next:]) {
		// Nothing, or what may follow a quoted value (a comma, a
		// bracket, another mapping value in a flow collection): the
		// value closes where it should, and the error is the line's own.
		return 0, 0, ""
	}
	return prev, next + 1, fmt.Sprintf("a quoted value opens at %d:%d and takes the lines up to this one: close it where it should end", from, qcol)
}

// plainStart reports whether text, which follows a quoted value on its
// line, starts a plain value: text no quoted value may be followed by, read
// on into the next line. A flow indicator, a quote, a comment or another
// indicator does not.
func plainStart(text string) bool {
	if text == "" || strings.ContainsRune(",[]{}#&*!|>'\"%@`", rune(text[0])) {
		return false
	}
	if strings.ContainsRune("-?:", rune(text[0])) {
		return len(text) > 1 && text[1] != ' ' && text[1] != '\t' && text[1] != '\r'
	}
	return true
}

// escapeErrors are the parser's messages about an escape in a
// double-quoted value.
var escapeErrors = map[string]bool{
	"found unknown escape character":              true,
	"did not find expected hexdecimal number":     true,
	"found invalid Unicode character escape code": true,
}

// badEscapeAt finds the escape the parser refuses in the double-quoted
// value that opens on line (from 1) of lines, or goes on over it: a backslash followed by a
// character no escape begins with, by fewer hex digits than \x, \u or \U
// needs, or naming no Unicode character (a surrogate, or past U+10FFFF).
// It returns the backslash's line and byte column (from 1), or 0, 0.
func badEscapeAt(lines [][]byte, line int) (int, int) {
	if n, col := scanEscapes(lines, line, false); n > 0 {
		return n, col
	}
	// The parser may give the line the escape is on, inside a value that
	// opened on an earlier line.
	return scanEscapes(lines[:line], line, true)
}

// scanEscapes is badEscapeAt from line on, in a quoted value from the start
// of the line when in is set.
func scanEscapes(lines [][]byte, line int, in bool) (int, int) {
	for n := line; n <= len(lines); n++ {
		text := lines[n-1]
		for i := 0; i < len(text); i++ {
			switch c := text[i]; {
			case c == '"':
				if in {
					return 0, 0 // closed with no bad escape
				}
				in = true
			case c == '\\' && in:
				if i+1 >= len(text) || text[i+1] == '\r' {
					continue // an escaped line break
				}
				e := text[i+1]
				if strings.IndexByte("0abt\tnvfre \"'\\N_LP", e) >= 0 {
					i++
					continue
				}
				size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if size == 0 || i+2+size > len(text) {
					return n, i + 1
				}
				v, err := strconv.ParseUint(string(text[i+2:i+2+size]), 16, 32)
				if err != nil || v >= 0xD800 && v <= 0xDFFF || v > 0x10FFFF {
					return n, i + 1
				}
				i += 1 + size
			}
		}
	}
	return 0, 0
}

// strayToken finds, on the line of a syntax error, the byte column (from
// 1) of a token that stands where the parser expected none, in a line of
// the form "key: value": a second ": " in a plain value, or text after a
// quoted value or a [ list or { mapping that already closed. It returns 0
// when the line is not of that form, and the hint to give.
func strayToken(msg, text string) (int, string) {
	switch msg {
	case "found character that cannot start any token":
		// @ and ` are reserved, and % starts a directive: none may start
		// a plain value.
		if i := tokenStart(text, func(rest string) bool { return strings.ContainsRune("@`%", rune(rest[0])) }); i >= 0 {
			return i + 1, "quote a value that starts with \"" + text[i:i+1] + "\""
		}
		return 0, ""
	case "did not find expected alphabetic or numeric character":
		// * starts an alias and & an anchor, whose name must be followed
		// by a blank or an indicator: *Note* is neither.
		bad := func(rest string) bool {
			if rest[0] != '*' && rest[0] != '&' {
				return false
			}
			n := 1
			for isAnchorChar(rest, n) {
				n++
			}
			return n == 1 || (n < len(rest) && !strings.ContainsRune(" \t?:,]}%@`", rune(rest[n])))
		}
		if i := tokenStart(text, bad); i >= 0 {
			what := "an alias"
			if text[i] == '&' {
				what = "an anchor"
			}
			return i + 1, "quote a value that starts with \"" + text[i:i+1] + "\", which YAML reads as " + what
		}
		return 0, ""
	}
	key := strings.Index(text, ": ")
	if key < 0 || strings.ContainsAny(text[:key], "\"'[]{}#") {
		return 0, ""
	}
	v := key + 2
	for v < len(text) && text[v] == ' ' {
		v++
	}
	if v == len(text) {
		return 0, ""
	}
	switch msg {
	case "mapping values are not allowed in this context":
		from := v
		if strings.ContainsRune("\"'[{", rune(text[v])) {
			// After a quoted value or a collection: the colon that
			// follows it.
			if from = closing(text, v); from < 0 {
				return 0, ""
			}
		}
		for i := from; i < len(text); i++ {
			if text[i] == '#' && text[i-1] == ' ' {
				break // a comment
			}
			if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ') {
				return i + 1, "quote a value that contains \": \" or ends in \":\""
			}
		}
	case "did not find expected key":
		end := closing(text, v)
		if end < 0 {
			return 0, ""
		}
		for end < len(text) && text[end] == ' ' {
			end++
		}
		if end < len(text) && text[end] != '#' {
			return end + 1, "a quoted value, [ list or { mapping ends where it closes; quote the whole value, with what follows"
		}
	}
	return 0, ""
}

// findAlias finds the alias *name that the parser refused as referring to
// no anchor, but without saying where it stands: on the line whose addition
// makes the file fail (problemLine), or else at the first alias of that
// name in the file (a line of a block scalar may look like one).
func findAlias(file string, src []byte, name string) (diag.Pos, bool) {
	text := newSource(src)
	isAlias := func(rest string) bool {
		return strings.HasPrefix(rest, "*"+name) && !isAnchorChar(rest, len(name)+1)
	}
	line := problemLine(src, 1)
	if i := tokenStart(string(text.line(line)), isAlias); i >= 0 {
		return diag.Pos{File: file, Line: line, Col: i + 1}, true
	}
	for line := 1; line <= text.lastLine(); line++ {
		if i := tokenStart(string(text.line(line)), isAlias); i >= 0 {
			return diag.Pos{File: file, Line: line, Col: i + 1}, true
		}
	}
	return diag.Pos{}, false
}

// isAnchorChar reports whether s[i] can be part of the name of an anchor
// or alias, as the parser reads names.
func isAnchorChar(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-'
}

// tokenStart returns the index of the first place in text, one line of
// YAML, where a token may start and match accepts the rest of the line, or
// -1: the start of the line, and what follows ": ", "- ", "? ", or "[",
// "{" or "," of a flow collection, past blanks. Quoted values and comments
// are skipped.
func tokenStart(text string, match func(rest string) bool) int {
	start, depth := true, 0
	i0 := 0
	if strings.HasPrefix(text, "\ufeff") {
		i0 = len("\ufeff") // a byte order mark starts no token
	}
	for i := i0; i < len(text); i++ {
		c := text[i]
		if c == ' ' || c == '\t' {
			continue
		}
		if c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t') {
			return -1 // a comment
		}
		if start && match(text[i:]) {
			return i
		}
		blankNext := i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t'
		switch {
		case start && (c == '"' || c == '\''):
			end := closing(text, i)
			if end < 0 {
				return -1
			}
			i, start = end-1, false
		case start && (c == '[' || c == '{'):
			depth++
		case depth > 0 && c == ',':
			start = true
		case depth > 0 && (c == ']' || c == '}'):
			depth--
			start = false
		case c == ':' && (blankNext || depth > 0):
			start = true
		case start && (c == '-' || c == '?') && blankNext:
		default:
			start = false
		}
	}
	return -1
}

// closing returns the index just past the quoted value, [ list or {
// mapping that starts at text[i], or -1 when none starts there or it does
// not close on the line.
func closing(text string, i int) int {
	switch c := text[i]; c {
	case '"':
		for j := i + 1; j < len(text); j++ {
			switch text[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
	case '\'':
		for j := i + 1; j < len(text); j++ {
			if text[j] == '\'' {
				if j+1 < len(text) && text[j+1] == '\'' {
					j++
					continue
				}
				return j + 1
			}
		}
	case '[', '{':
		depth := 0
		for j := i; j < len(text); j++ {
			switch text[j] {
			case '"', '\'':
				end := closing(text, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '[', '{':
				depth++
			case ']', '}':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	}
	return -1
}

// syntaxHints say what usually causes the parser's terser messages. They
// only add a hint: should a message change, the diagnostic loses the hint,
// not its meaning or position.
var syntaxHints = map[string]string{
	"found unexpected end of stream":                 "a quoted value that opens on this line is never closed",
	"did not find expected key":                      "check this line's indentation against the keys above it",
	"did not find expected '-' indicator":            "check this line's indentation against the list items above it",
	"did not find expected ',' or ']'":               "a [ list here is not closed, or its items lack commas",
	"did not find expected ',' or '}'":               "a { mapping here is not closed, or its entries lack commas",
	"mapping values are not allowed in this context": "check this line's indentation, and quote a value that contains \": \"",
}

// maxBisect bounds the files problemLine narrows down: it parses the file
// up to log2(lines) more times, cheap for any real catalogue.
const maxBisect = 1 << 20

// problemLine finds the line of a syntax error. yaml.v3 names the line
// where it noticed the problem, which may be one line early (its parser,
// unlike its scanner, counts lines from 0) or far above the mistake (the
// line where the enclosing collection starts: the first key of the file,
// when a comment comes before it). The lines before the reported one parse
// and the whole file does not, so the first line whose addition makes the
// file fail as a whole does is the one to fix; reported is kept if that
// cannot be shown.
func problemLine(src []byte, reported int) int {
	if len(src) > maxBisect {
		return reported
	}
	// ends[n] is the length of the first n lines.
	ends := []int{0}
	for i, b := range src {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	if ends[len(ends)-1] < len(src) {
		ends = append(ends, len(src))
	}
	// A prefix fails as the file does when the parser stops at the same
	// error in both: a prefix that ends inside a quoted value or a [ ] or
	// { } that spans lines fails too, but with another error (the end of
	// the stream), which lines after it make go away.
	whole := decodeErr(src)
	fails := func(n int) bool { return whole != "" && decodeErr(src[:ends[n]]) == whole }
	lo, hi := reported-1, len(ends)-1 // the first lo lines parse; the first hi do not
	if lo < 0 || lo >= hi || fails(lo) || !fails(hi) {
		return reported
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// decodeErr is the error the parser stops at in src, every document of it
// read, or "" when it reads src whole.
func decodeErr(src []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return ""
			}
			return err.Error()
		}
	}
}

// scanNodes refuses the YAML features that make a catalogue harder to
// review than it looks: anchors, aliases and merge keys (a diff would no
// longer show literal values, and aliases allow exponential expansion) and
// explicit tags (they change how a value is read).
func scanNodes(file string, text *source, root *yaml.Node, l *diag.List) bool {
	before := len(*l)
	var walk func(n *yaml.Node, key bool)
	walk = func(n *yaml.Node, key bool) {
		pos := text.pos(file, n)
		switch {
		case n.Kind == yaml.AliasNode:
			l.Errorf(pos, "alias *%s: anchors and aliases are not allowed; write the value out", n.Value)
			return
		case n.Anchor != "":
			l.Errorf(pos, "anchor &%s: anchors and aliases are not allowed; write the value out", n.Anchor)
		case n.Tag == "!!merge" && key:
			// Only a key << merges; a value << is text.
			l.Errorf(pos, "merge key <<: merge keys are not allowed; write the keys out")
		case n.Style&yaml.TaggedStyle != 0:
			l.Errorf(pos, "tag %s: explicit tags are not allowed; write a plain value", diag.Quote(n.Tag))
		case text.byteAt(pos) == '!' && !startsWithChild(text, file, n, pos):
			// The non-specific tag "!", which the parser drops: YAML
			// reads "! 5" as text, this parser as a number. Nothing
			// else starts with "!", an indicator. A block mapping (and
			// the document) starts where its first key does, so a "!"
			// there is that key's tag, reported at the key.
			l.Errorf(pos, "tag \"!\": explicit tags are not allowed; write a plain value")
		}
		for k, c := range n.Content {
			walk(c, n.Kind == yaml.MappingNode && k%2 == 0)
		}
	}
	walk(root, false)
	return len(*l) == before
}

// startsWithChild reports whether node n, at pos, starts where its first
// child does, as a block mapping starts at its first key and a document at
// its content: what is written there belongs to the child.
func startsWithChild(text *source, file string, n *yaml.Node, pos diag.Pos) bool {
	return len(n.Content) > 0 && text.pos(file, n.Content[0]) == pos
}

// describe names what a node holds, for "expected X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			return "text " + diag.Quote(n.Value)
		}
		switch n.Tag {
		case "!!null":
			return "no value"
		case "!!int":
			return "the number " + n.Value
		case "!!float":
			return "the number " + diag.Quote(n.Value)
		case "!!bool":
			return "the boolean " + diag.Quote(n.Value)
		}
		return diag.Quote(n.Value)
	}
	return "something else"
}

// errorf reports a problem at node n.
func (ld *loader) errorf(n *yaml.Node, format string, args ...any) {
	ld.diags.Errorf(ld.pos(n), format, args...)
}

func (ld *loader) pos(n *yaml.Node) diag.Pos {
	return ld.src.pos(ld.file, n)
}

// missingPos is where the value of e is missing: a value left out
// altogether (the null of "? key", or of "key:" at the end of a line) is
// placed by the parser where the next token starts, maybe lines below;
// it is reported just after the key, and its colon, instead.
func (ld *loader) missingPos(e entry) diag.Pos {
	n, k := e.val, e.key
	if k == nil || n.Value != "" || n.Style != 0 || n.Line == k.Line {
		return ld.pos(n)
	}
	pos := ld.pos(k)
	pos.Col += len(k.Value)
	if ld.src.byteAt(pos) == ':' {
		pos.Col++
	}
	return pos
}

// loader walks the node tree into an ast.Catalogue, reporting every value of
// the wrong form and carrying on with the rest.
type loader struct {
	file  string
	src   *source
	diags *diag.List
	// cut and rest are the two parts of the list items that items took
	// for two items, the "- " before the second forgotten: rest maps the
	// second part, the keys from the repeated one on, to the first key of
	// the first part.
	cut, rest map[*yaml.Node]*yaml.Node
	// misspelt are the keys unknown keys were taken for, by the position
	// of the mapping holding them (ast.Catalogue.Misspelt).
	misspelt map[diag.Pos][]ast.KeyPos
}

// entry is one key of a mapping with its value.
type entry struct {
	key, val *yaml.Node
}

// mapping checks that n is a mapping whose keys are all in keys (each once)
// and that every key in required is present. It returns the entries by name.
func (ld *loader) mapping(n *yaml.Node, what string, keys []string, required ...string) (map[string]entry, bool) {
	if n.Kind != yaml.MappingNode {
		ld.errorf(n, "%s must be a mapping, got %s", what, describe(n))
		return nil, false
	}
	if first := ld.rest[n]; first != nil {
		// One error for the forgotten "- ", not one per repeated key;
		// what the keys say is read once the item is one.
		k := n.Content[0]
		at := ld.pos(first)
		ld.errorf(k, "duplicate key %s in %s (first at %d:%d); did you forget \"- \" to start a new item?", diag.Quote(k.Value), what, at.Line, at.Col)
		return nil, false
	}
	if ld.cut[n] != nil {
		// A key the first part lacks may be among the keys taken for
		// the second item's.
		required = nil
	}
	out := make(map[string]entry, len(n.Content)/2)
	// meant are the keys an unknown key was taken for: the unknown key is
	// reported with its did-you-mean, and the key it misspells is not
	// reported missing as well.
	var meant []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			ld.errorf(k, "keys of %s must be plain names, got %s", what, describe(k))
			continue
		}
		if prev, dup := out[k.Value]; dup {
			first := ld.pos(prev.key)
			ld.errorf(k, "duplicate key %s in %s (first at %d:%d)", diag.Quote(k.Value), what, first.Line, first.Col)
			continue
		}
		if !contains(keys, k.Value) {
			ld.errorf(k, "unknown key %s in %s%s", diag.Quote(k.Value), what, suggest(k.Value, keys))
			meant = append(meant, closestKey(k.Value, keys))
			if key := meant[len(meant)-1]; key != "" {
				if ld.misspelt == nil {
					ld.misspelt = map[diag.Pos][]ast.KeyPos{}
				}
				ld.misspelt[ld.pos(n)] = append(ld.misspelt[ld.pos(n)], ast.KeyPos{Name: key, Pos: ld.pos(k)})
			}
			continue
		}
		out[k.Value] = entry{k, v}
	}
	for _, r := range required {
		if _, ok := out[r]; !ok && !contains(meant, r) {
			ld.errorf(n, "%s is missing required key %s", what, diag.Quote(r))
		}
	}
	return out, true
}

// keys returns the positions of the keys of m, in the order written.
func (ld *loader) keys(m map[string]entry) ast.Keys {
	out := make(ast.Keys, 0, len(m))
	for name, e := range m {
		out = append(out, ast.KeyPos{Name: name, Pos: ld.pos(e.key)})
	}
	slices.SortFunc(out, func(a, b ast.KeyPos) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// text reads a string value. multiline reports whether line breaks are
// allowed (only in doc).
func (ld *loader) text(e entry, ok bool, what string, multiline bool) ast.String {
	if !ok {
		return ast.String{}
	}
	n := e.val
	pos := ld.pos(n)
	if n.Kind != yaml.ScalarNode {
		hint := ""
		if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0 {
			// message: {tool} failed to start is a template to the
			// writer and a mapping to YAML.
			hint = "; a value that starts with { is a YAML mapping: quote it to keep it as text"
		}
		ld.errorf(n, "%s must be text, got %s%s", what, describe(n), hint)
		return ast.String{Pos: pos}
	}
	if n.Tag == "!!null" {
		ld.diags.Errorf(ld.missingPos(e), "%s has no value; write one (or leave out the key where it is optional)", what)
		return ast.String{Pos: pos}
	}
	if got := notText(n); got != "" {
		ld.errorf(n, "%s must be text, got %s; quote it to keep it as text", what, got)
		return ast.String{Pos: pos}
	}
	ld.checkRunes(n, what, multiline)
	return ast.String{Value: n.Value, Pos: pos, Set: true}
}

// checkRunes refuses characters that escapes in quoted scalars can still
// produce after the raw-text scan: control and bidi characters, and line
// breaks outside doc.
func (ld *loader) checkRunes(n *yaml.Node, what string, multiline bool) {
	if printableASCII(n.Value) {
		return
	}
	prev := utf8.RuneError
	for i, r := range n.Value {
		next := utf8.RuneError
		if j := i + utf8.RuneLen(r); j < len(n.Value) {
			next, _ = utf8.DecodeRuneInString(n.Value[j:])
		}
		if r == utf8.RuneError {
			next = utf8.RuneError
			if _, size := utf8.DecodeRuneInString(n.Value[i:]); size == 1 {
				r = invalidByte
			}
		}
		if why := badRune(r, prev, next, multiline); why != "" {
			ld.diags.Errorf(ld.src.locator(ld.file, n)(i), "%s contains %s", what, why)
			return
		}
		prev = r
	}
}

// printableASCII reports whether s holds only the bytes 0x20 to 0x7E,
// which badRune allows wherever they stand.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7F {
			return false
		}
	}
	return true
}

var decimalRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// integer reads a decimal integer that fits in 32 bits. YAML would also
// read 0x10, 0o17, 010 and 1_000 as numbers; a catalogue says exactly the
// number it means.
func (ld *loader) integer(n *yaml.Node, what string) ast.Int {
	return ld.integerOf(n, what, what)
}

// integerOf is integer for a value what names among others ("each item of
// reserved nums"), which one names alone: a number out of range is "one
// N", as in "reserved num 2147483648".
func (ld *loader) integerOf(n *yaml.Node, what, one string) ast.Int {
	pos := ld.pos(n)
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		ld.errorf(n, "%s must be a whole number, got %s", what, describe(n))
		return ast.Int{Pos: pos}
	}
	if !decimalRE.MatchString(n.Value) {
		if n.Tag == "!!int" || n.Tag == "!!float" {
			ld.errorf(n, "%s must be a plain decimal whole number, got %s", what, diag.Quote(n.Value))
		} else {
			ld.errorf(n, "%s must be a whole number, got %s", what, describe(n))
		}
		return ast.Int{Pos: pos}
	}
	v, err := strconv.ParseInt(n.Value, 10, 32)
	if err != nil {
		ld.errorf(n, "%s %s is out of range (it must fit in a 32-bit integer)", one, n.Value)
		return ast.Int{Pos: pos}
	}
	return ast.Int{Value: v, Pos: pos, Set: true}
}

// notText says what a YAML reader takes the scalar n for where it is not
// text: "the number 3", or for a plain value YAML 1.1 reads otherwise than
// YAML 1.2, "\"yes\", which YAML 1.1 parsers read as a boolean"; "" when
// every reader takes it for text.
func notText(n *yaml.Node) string {
	plain := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
	switch {
	case n.Tag != "!!str":
		return describe(n)
	case plain && yaml11Bools[n.Value]:
		return diag.Quote(n.Value) + ", which YAML 1.1 parsers read as a boolean"
	case plain && yaml11Sexagesimal.MatchString(n.Value):
		return diag.Quote(n.Value) + ", which YAML 1.1 parsers read as a number in base 60"
	}
	return ""
}

// yaml11Bools are the plain values YAML 1.1 reads as booleans and YAML 1.2
// as text (true and false, and their capitalised forms, are booleans to
// both): written where text is expected, one parser sees text and another
// a boolean.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// yaml11Sexagesimal matches the plain values YAML 1.1 reads as numbers in
// base 60 (1:30 is 90, 1:30.5 is 90.5) and YAML 1.2 as text: its int and
// float forms.
var yaml11Sexagesimal = regexp.MustCompile(`^[-+]?([1-9][0-9_]*(:[0-5]?[0-9])+|[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*)$`)

// boolean reads true or false, and nothing else: YAML 1.1's yes/no/on/off
// mean different things to different parsers.
func (ld *loader) boolean(e entry, ok bool, what string) ast.Bool {
	if !ok {
		return ast.Bool{}
	}
	n := e.val
	pos := ld.pos(n)
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		switch n.Value {
		case "true":
			return ast.Bool{Value: true, Pos: pos, Set: true}
		case "false":
			return ast.Bool{Value: false, Pos: pos, Set: true}
		}
	}
	ld.errorf(n, "%s must be true or false, got %s", what, describe(n))
	return ast.Bool{Pos: pos}
}

// list checks that e is a sequence and returns its items.
func (ld *loader) list(e entry, what string) ([]*yaml.Node, bool) {
	if e.val.Kind != yaml.SequenceNode {
		ld.errorf(e.val, "%s must be a list, got %s", what, describe(e.val))
		return nil, false
	}
	return e.val.Content, true
}

// items is list for a list of mappings. A block mapping whose first key
// comes again further down is taken for two items, the "- " before the
// second forgotten: the second's keys would otherwise each be a duplicate
// of the first's, and what only the second holds (a category, a field a
// template names) would be missing. The keys from the repeated one on
// stand for an item of their own, which mapping reports once and does
// not read, so that the loader leaves it unset as it does an item it
// cannot read.
func (ld *loader) items(e entry, what string) ([]*yaml.Node, bool) {
	items, ok := ld.list(e, what)
	if !ok || e.val.Style&yaml.FlowStyle != 0 {
		return items, ok
	}
	var out []*yaml.Node // made on the first item split
	for i, it := range items {
		rest := ld.forgotDash(it)
		switch {
		case rest != nil:
			if out == nil {
				out = append(make([]*yaml.Node, 0, len(items)+1), items[:i]...)
			}
			out = append(out, it, rest)
		case out != nil:
			out = append(out, it)
		}
	}
	if out == nil {
		return items, true
	}
	return out, true
}

// forgotDash splits n, an item of a block list, where its first key comes
// again, when that is the first key it repeats, and returns the mapping
// of the keys from there on; nil when n is not such a mapping.
func (ld *loader) forgotDash(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle != 0 || len(n.Content) < 4 || n.Content[0].Kind != yaml.ScalarNode {
		return nil
	}
	first := n.Content[0]
	i := 2
	for i < len(n.Content) && !(n.Content[i].Kind == yaml.ScalarNode && n.Content[i].Value == first.Value) {
		i += 2
	}
	if i >= len(n.Content) || repeatsKey(n.Content[:i]) {
		return nil // no repeat, or a key given twice before it
	}
	k := n.Content[i]
	rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: k.Line, Column: k.Column, Content: n.Content[i:]}
	n.Content = n.Content[:i:i]
	if ld.cut == nil {
		ld.cut, ld.rest = map[*yaml.Node]*yaml.Node{}, map[*yaml.Node]*yaml.Node{}
	}
	ld.cut[n], ld.rest[rest] = rest, first
	return rest
}

// repeatsKey reports whether a scalar key comes twice among the keys and
// values of a mapping's content: without allocating for a mapping of a
// catalogue's size, and in linear time for a hostile one.
func repeatsKey(content []*yaml.Node) bool {
	if len(content) <= 64 {
		for i := 0; i < len(content); i += 2 {
			for j := i + 2; j < len(content); j += 2 {
				if content[i].Kind == yaml.ScalarNode && content[j].Kind == yaml.ScalarNode && content[i].Value == content[j].Value {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]bool, len(content)/2)
	for i := 0; i < len(content); i += 2 {
		if k := content[i]; k.Kind == yaml.ScalarNode {
			if seen[k.Value] {
				return true
			}
			seen[k.Value] = true
		}
	}
	return false
}

// ints reads a list of integers, what naming the list and one an item of
// it.
func (ld *loader) ints(e entry, ok bool, what, one string) []ast.Int {
	if !ok {
		return nil
	}
	items, isList := ld.list(e, what)
	if !isList {
		return nil
	}
	out := make([]ast.Int, 0, len(items))
	for i, it := range items {
		items[i] = nil // read below: let the collector have it
		if v := ld.integerOf(it, "each item of "+what, one); v.Set {
			out = append(out, v)
		}
	}
	return out
}

func (ld *loader) texts(e entry, ok bool, what string) []ast.String {
	if !ok {
		return nil
	}
	items, isList := ld.list(e, what)
	if !isList {
		return nil
	}
	out := make([]ast.String, 0, len(items))
	for i, it := range items {
		items[i] = nil // read below: let the collector have it
		if v := ld.text(entry{val: it}, true, "each item of "+what, false); v.Set {
			out = append(out, v)
		}
	}
	return out
}

func (ld *loader) num(e entry, ok bool, what string) ast.Int {
	if !ok {
		return ast.Int{}
	}
	return ld.integer(e.val, what)
}

// closestKey is the key an unknown key got is likely a misspelling of, or
// "".
func closestKey(got string, keys []string) string {
	return diag.Closest(strings.ToLower(got), keys, 2)
}

// suggest returns a did-you-mean hint for an unknown key.
func suggest(got string, keys []string) string {
	if best := closestKey(got, keys); best != "" {
		return fmt.Sprintf("; did you mean %s?", diag.Quote(best))
	}
	return fmt.Sprintf(" (allowed: %s)", strings.Join(keys, ", "))
}
