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

// byteCol turns the character column col of line n, as the YAML parser
// counts it, into the byte column.
func (s *source) byteCol(n, col int) int {
	text := s.line(n)
	c, i := 1, 0
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
// position of the byte at an offset of its value: for a plain scalar the
// offset past its start, for a quoted one after each escape is undone.
// The columns are worked out on the first call, which only a diagnostic
// makes, so a catalogue without errors pays nothing for them; a value that
// cannot be traced to its text (a block scalar, a value folded over lines,
// an escape errgen does not expect) gives the value's start. The function
// keeps the source, not the YAML node.
func (s *source) locator(file string, n *yaml.Node) func(int) diag.Pos {
	line, column, style, value := n.Line, n.Column, n.Style, n.Value
	var cols []int
	traced := false
	return func(off int) diag.Pos {
		if !traced {
			cols, traced = s.columns(line, column, style, value), true
		}
		if cols == nil {
			return diag.Pos{File: file, Line: line, Col: s.byteCol(line, column)}
		}
		off = max(0, min(off, len(value)))
		return diag.Pos{File: file, Line: line, Col: cols[off]}
	}
}

// columns returns, for a scalar value written on one line, the column of
// the source byte each byte of its value comes from, and past the end
// where the value ends; nil when the value cannot be traced to its text.
func (s *source) columns(line, column int, style yaml.Style, value string) []int {
	text := s.line(line)
	start := s.byteCol(line, column) - 1
	if start < 0 || start > len(text) {
		return nil
	}
	text = text[start:]
	var cols []int
	switch style {
	case 0, yaml.FlowStyle:
		if len(text) < len(value) || string(text[:len(value)]) != value {
			return nil
		}
		for k := range len(value) + 1 {
			cols = append(cols, start+k+1)
		}
	case yaml.SingleQuotedStyle:
		i := 1
		for k := 0; k < len(value); k++ {
			if i >= len(text) {
				return nil
			}
			cols = append(cols, start+i+1)
			if text[i] == '\'' {
				i++ // '' is one '
			}
			i++
		}
		cols = append(cols, start+i+1)
	case yaml.DoubleQuotedStyle:
		i := 1
		for len(cols) < len(value) {
			if i >= len(text) || text[i] == '"' {
				return nil
			}
			at := start + i + 1
			if text[i] != '\\' {
				cols = append(cols, at)
				i++
				continue
			}
			k, size := escapeLen(text[i:])
			if size == 0 {
				return nil
			}
			for range k {
				cols = append(cols, at)
			}
			i += size
		}
		cols = append(cols, start+i+1)
	default:
		return nil
	}
	if len(cols) != len(value)+1 {
		return nil
	}
	return cols
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
