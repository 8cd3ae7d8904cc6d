package load

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/errgen/errgen/gen/diag"
)

// Columns are counted in bytes from 1, as the Go toolchain counts them
// (go/token, go vet, gofmt -l): the byte a diagnostic is about is at
// column c of its line when c-1 bytes of the line come before it. The YAML
// parser counts characters, so every position it gives is converted.
// docs/catalogue.md states the rule.

// source is a catalogue's text with the offset of every line, to turn the
// parser's character columns into byte columns and to find the character
// at a byte of a value.
type source struct {
	src    []byte
	starts []int // starts[i] is the offset of line i+1
	// The last column converted, to go on from when the next one is on
	// the same line further right: the loader asks in document order, so
	// a line of a million values is read once, not once per value.
	curLine, curCol, curByte int
	// scanned counts the bytes byteCol has stepped over, for the test
	// that holds conversion linear.
	scanned int
}

func newSource(src []byte) *source {
	s := &source{src: src, starts: make([]int, 1, bytes.Count(src, []byte{'\n'})+1)}
	for i, b := range src {
		if b == '\n' {
			s.starts = append(s.starts, i+1)
		}
	}
	return s
}

// line returns the text of line n (from 1), without its line break.
func (s *source) line(n int) []byte {
	if n < 1 || n > len(s.starts) {
		return nil
	}
	end := len(s.src)
	if n < len(s.starts) {
		end = s.starts[n] - 1
	}
	text := s.src[s.starts[n-1]:end]
	if len(text) > 0 && text[len(text)-1] == '\r' {
		text = text[:len(text)-1]
	}
	return text
}

// byteOrderMark is U+FEFF in UTF-8, which a file may start with.
var byteOrderMark = []byte{0xEF, 0xBB, 0xBF}

// byteCol turns the character column col of line n, as the YAML parser
// counts it, into the byte column.
func (s *source) byteCol(n, col int) int {
	text := s.line(n)
	c, i := 1, 0
	if n == 1 && bytes.HasPrefix(text, byteOrderMark) {
		// The parser does not count the byte order mark as a column;
		// its three bytes are columns here, as everywhere else.
		i = len(byteOrderMark)
	}
	if n == s.curLine && col >= s.curCol {
		c, i = s.curCol, s.curByte
	}
	for ; c < col && i < len(text); c++ {
		if text[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(text[i:])
			i += size
		}
		s.scanned++
	}
	s.curLine, s.curCol, s.curByte = n, c, i
	if c < col {
		// Past the end of the line: keep the parser's overshoot.
		i += col - c
	}
	return i + 1
}

// pos is the position of node n in bytes. A value the text leaves out at
// its very end (the null of "? key" on the last line) is placed by the
// parser on the line after the last; it is reported at the end of the
// text, where the value is missing.
func (s *source) pos(file string, n *yaml.Node) diag.Pos {
	if last := s.lastLine(); n.Line > last {
		return diag.Pos{File: file, Line: last, Col: len(s.line(last)) + 1}
	}
	return diag.Pos{File: file, Line: n.Line, Col: s.byteCol(n.Line, n.Column)}
}

// byteAt is the byte at pos, or 0 past the end of its line.
func (s *source) byteAt(pos diag.Pos) byte {
	if text := s.line(pos.Line); pos.Col >= 1 && pos.Col <= len(text) {
		return text[pos.Col-1]
	}
	return 0
}

// lastLine is the number of the text's last line: the line break that ends
// the text does not begin another.
func (s *source) lastLine() int {
	n := len(s.starts)
	if n > 1 && s.starts[n-1] == len(s.src) {
		n--
	}
	return n
}

// locator returns, for a scalar value, the function that gives the
// position of the byte at an offset of its value, in the text it was
// written as: on one line or several, plain, quoted (after each escape is
// undone) or a literal or folded block (trace). The positions are worked
// out on the first call, which only a diagnostic makes, so a catalogue
// without errors pays nothing for them; a value that cannot be traced to
// its text (a block with an indentation indicator, an escape errgen does
// not expect) gives the value's start. The function keeps the source, not
// the YAML node.
func (s *source) locator(file string, n *yaml.Node) func(int) diag.Pos {
	line, column, style, value := n.Line, n.Column, n.Style, n.Value
	var spots []spot
	traced := false
	return func(off int) diag.Pos {
		if !traced {
			spots, traced = s.trace(line, column, style, value), true
		}
		if spots == nil {
			return diag.Pos{File: file, Line: line, Col: s.byteCol(line, column)}
		}
		at := spots[max(0, min(off, len(value)))]
		return diag.Pos{File: file, Line: at.line, Col: at.col}
	}
}

// spot is a place in the text: a line and a byte column, from 1.
type spot struct{ line, col int }

// trace returns, for a scalar value that starts at the parser's line and
// column, the spot of the source byte each byte of the value comes from,
// and, past its end, the spot where the value ends; nil when the value
// cannot be traced to its text. A byte the text does not hold as such is
// at the text that stands for it: an escape's bytes at its backslash, the
// space a line break folds into at the end of the line it breaks, a line
// feed that an empty line stands for at the start of that line.
func (s *source) trace(line, column int, style yaml.Style, value string) []spot {
	text := s.line(line)
	start := s.byteCol(line, column) - 1
	if start < 0 || start > len(text) {
		return nil
	}
	t := &tracer{s: s, value: value, line: line, text: text, i: start, end: spot{line, start + 1}}
	ok := false
	switch style {
	case 0, yaml.FlowStyle:
		ok = t.flow(0)
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		if start < len(text) {
			t.i++
			ok = t.flow(text[start])
		}
	case yaml.LiteralStyle, yaml.FoldedStyle:
		ok = start < len(text) && t.block(style == yaml.FoldedStyle)
	}
	if !ok || len(t.out) != len(value) {
		return nil
	}
	return append(t.out, t.end)
}

// tracer reads a scalar's text beside its value (trace).
type tracer struct {
	s     *source
	value string
	out   []spot // the spot of each byte of the value traced so far
	end   spot   // where the bytes traced so far end
	line  int    // the line being read
	text  []byte // its text
	i     int    // the byte of text being read
}

// put gives the next byte of the value, which must be b, the spot at.
func (t *tracer) put(b byte, at spot) bool {
	if k := len(t.out); k >= len(t.value) || t.value[k] != b {
		return false
	}
	t.out = append(t.out, at)
	t.end = spot{at.line, at.col + 1}
	return true
}

// here is the spot of the byte being read.
func (t *tracer) here() spot { return spot{t.line, t.i + 1} }

// next moves to the start of the next line; false past the last.
func (t *tracer) next() bool {
	if t.line >= t.s.lastLine() {
		return false
	}
	t.line++
	t.text, t.i = t.s.line(t.line), 0
	return true
}

// blank reports whether b holds only spaces and tabs.
func blank(b []byte) bool {
	return len(bytes.Trim(b, " \t")) == 0
}

// flow traces a plain scalar (quote 0) or a quoted one, from the byte
// after its opening quote, over as many lines as it takes.
func (t *tracer) flow(quote byte) bool {
	for len(t.out) < len(t.value) {
		if blank(t.text[t.i:]) {
			// The blanks before a line break are dropped, and the
			// break folds.
			if !t.fold(true) {
				return false
			}
			continue
		}
		switch c := t.text[t.i]; {
		case quote == '\'' && c == '\'':
			if t.i+1 >= len(t.text) || t.text[t.i+1] != '\'' {
				return false // the closing quote, before the value's end
			}
			if !t.put(c, t.here()) {
				return false
			}
			t.i += 2 // '' is one '
		case quote == '"' && c == '"':
			return false
		case quote == '"' && c == '\\' && t.i+1 == len(t.text):
			// An escaped line break: it and the next line's leading
			// blanks are not in the value.
			if !t.fold(false) {
				return false
			}
		case quote == '"' && c == '\\':
			n, size := escapeLen(t.text[t.i:])
			if size == 0 || len(t.out)+n > len(t.value) {
				return false
			}
			for range n {
				t.out = append(t.out, t.here())
			}
			t.i += size
			t.end = t.here()
		default:
			if !t.put(c, t.here()) {
				return false
			}
			t.i++
		}
	}
	if quote != 0 {
		t.end = t.here() // the closing quote
	}
	return true
}

// fold reads a line break of a flow scalar, the empty lines after it and
// the blanks that start the next line. Each empty line is a line feed;
// without one, the break is a space (when space is set; an escaped break
// is nothing).
func (t *tracer) fold(space bool) bool {
	at := t.here()
	empty := false
	for {
		if !t.next() {
			return false
		}
		if !blank(t.text) {
			break
		}
		if !t.put('\n', t.here()) {
			return false
		}
		empty = true
	}
	if space && !empty && !t.put(' ', at) {
		return false
	}
	t.i = len(t.text) - len(bytes.TrimLeft(t.text, " \t"))
	return true
}

// block traces a literal or folded block scalar from its header, the
// indicator at the spot being read; its lines follow, each indented as its
// first line is. A header with an indentation indicator (|2) sets the
// indentation from the parent's, which the node does not give: such a
// value is not traced.
func (t *tracer) block(folded bool) bool {
	for _, c := range t.text[t.i+1:] {
		if c == ' ' || c == '\t' {
			break
		}
		if c >= '1' && c <= '9' {
			return false
		}
	}
	indent := -1       // the lines' indentation, once a line has text
	var brk *spot      // the line break after the last line of text
	var empty []spot   // the empty lines since
	wasSpaced := false // the last line of text was more indented
	for len(t.out) < len(t.value) {
		if !t.next() {
			break
		}
		lead := len(t.text) - len(bytes.TrimLeft(t.text, " "))
		if lead == len(t.text) && (indent < 0 || lead <= indent) {
			empty = append(empty, t.here())
			continue
		}
		if indent < 0 {
			indent = lead
		}
		if lead < indent {
			break // a line of the document after the block
		}
		spaced := lead > indent || t.text[indent] == '\t'
		// What the break before this line and the empty lines stand for:
		// nothing before the first line; a space between two lines of
		// text that no empty line separates in a folded block; else a
		// line feed for each empty line, after one for the break unless
		// the block folds it.
		switch {
		case brk == nil:
		case folded && !spaced && !wasSpaced && len(empty) == 0:
			if !t.put(' ', *brk) {
				return false
			}
		case !folded || spaced || wasSpaced:
			if !t.put('\n', *brk) {
				return false
			}
		}
		for _, at := range empty {
			if !t.put('\n', at) {
				return false
			}
		}
		for t.i = indent; t.i < len(t.text); t.i++ {
			if !t.put(t.text[t.i], t.here()) {
				return false
			}
		}
		brk, empty, wasSpaced = &spot{t.line, len(t.text) + 1}, nil, spaced
	}
	// The breaks after the last line of text that the value keeps.
	if brk != nil && len(t.out) < len(t.value) {
		if !t.put('\n', *brk) {
			return false
		}
		for _, at := range empty {
			if len(t.out) < len(t.value) && !t.put('\n', at) {
				return false
			}
		}
	}
	return true
}

// escapeLen reads the escape at the start of text, a double-quoted YAML
// scalar's, and returns how many bytes of the value it stands for and how
// many bytes of text it takes; 0, 0 for one it does not know.
func escapeLen(text []byte) (n, size int) {
	if len(text) < 2 {
		return 0, 0
	}
	hex := 0
	switch text[1] {
	case '0', 'a', 'b', 't', '\t', 'n', 'v', 'f', 'r', 'e', ' ', '"', '/', '\\':
		return 1, 2
	case 'N', '_':
		return 2, 2
	case 'L', 'P':
		return 3, 2
	case 'x':
		hex = 2
	case 'u':
		hex = 4
	case 'U':
		hex = 8
	default:
		return 0, 0
	}
	if len(text) < 2+hex {
		return 0, 0
	}
	v, err := strconv.ParseUint(string(text[2:2+hex]), 16, 32)
	if err != nil || utf8.RuneLen(rune(v)) < 0 {
		return 0, 0
	}
	return utf8.RuneLen(rune(v)), 2 + hex
}
