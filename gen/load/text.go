package load

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/errgen/errgen/gen/diag"
)

// MaxSize is the largest catalogue errgen reads. Real catalogues are a few
// hundred kilobytes at most; the cap keeps a hostile file from costing memory.
const MaxSize = 16 << 20

// isBidi reports whether r is a bidirectional-text control character. These
// let text render in an order other than the one it is stored in ("trojan
// source"), so a reviewer could not trust what a diff shows.
func isBidi(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// invalidByte is what badRune is given for a byte that is not part of
// valid UTF-8.
const invalidByte rune = -1

// badRune describes why r may not appear in catalogue text, or returns "".
// Tab is always allowed; newline only where multiline says so. prev and
// next are the characters around r (utf8.RuneError at an edge): a
// zero-width joiner or non-joiner is allowed between two letters, where
// Persian, the Indic scripts and others need it to spell words, and a
// presentation selector (U+FE0E, U+FE0F) after a symbol, as emoji are
// written; anywhere else, like every other invisible character, they
// could hide text from a reviewer.
func badRune(r, prev, next rune, multiline bool) string {
	// utf8.RuneError itself, U+FFFD, is a character a text may hold; a
	// byte that is not UTF-8 comes as invalidByte.
	switch {
	case r == '\t':
		return ""
	case r == '\n':
		if multiline {
			return ""
		}
		return "a line break (only doc may span lines)"
	case r == invalidByte:
		return "invalid UTF-8"
	case r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0):
		return "control character " + strconv.QuoteRuneToASCII(r)
	case isBidi(r):
		return "bidirectional control character " + strconv.QuoteRuneToASCII(r)
	case r == 0xFEFF:
		return "byte order mark " + strconv.QuoteRuneToASCII(r)
	case r == 0x2028 || r == 0x2029:
		return "line separator " + strconv.QuoteRuneToASCII(r)
	case isNoncharacter(r):
		return "noncharacter " + strconv.QuoteRuneToASCII(r)
	case (r == 0x200C || r == 0x200D) && isLetter(prev) && isLetter(next):
		return ""
	case (r == 0xFE0E || r == 0xFE0F) && unicode.Is(unicode.So, prev) && !diag.Invisible(next):
		// One text or emoji presentation selector after a symbol ("⚠️")
		// is how emoji are written; runs of selectors, which can carry
		// hidden data, are refused.
		return ""
	case diag.Invisible(r):
		return "invisible character " + strconv.QuoteRuneToASCII(r) + " (it shows as nothing, so a reviewer cannot see what the text holds)"
	}
	return ""
}

// isLetter reports whether r is a letter or a combining mark, what a
// joiner may stand between.
func isLetter(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// isNoncharacter reports whether r is one of Unicode's 66 noncharacters
// (U+FDD0 to U+FDEF, and the last two code points of every plane), which
// no text may hold and YAML refuses.
func isNoncharacter(r rune) bool {
	return (r >= 0xFDD0 && r <= 0xFDEF) || r&0xFFFE == 0xFFFE
}

// scanText checks the raw bytes before YAML sees them: encoding, control,
// bidi, invisible characters and noncharacters anywhere (comments
// included), each at its own line and column (in bytes). A leading byte
// order mark is allowed. A file saved in another encoding or with other
// line endings is one error, not one at every character or line. It
// returns the Unicode spaces found at the start of a line, which are
// reported once the text is parsed (spaces.keys, spaces.instead): only
// there is it known whether such a line starts a key or goes on a value.
func scanText(file string, src []byte, l *diag.List) spaces {
	var sp spaces
	if wholeFile(file, src, l) {
		return sp
	}
	line, col := 1, 1
	prev := utf8.RuneError
	for i := 0; i < len(src); {
		if b := src[i]; b >= 0x20 && b < 0x7F {
			// Printable ASCII, nearly all of a catalogue, is always allowed.
			i, col, prev = i+1, col+1, rune(b)
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			r = invalidByte
		}
		next := utf8.RuneError
		if i+size < len(src) {
			next, _ = utf8.DecodeRune(src[i+size:])
		}
		pos := diag.Pos{File: file, Line: line, Col: col}
		switch {
		case r == '\n':
			line, col = line+1, 1
			i += size
			prev = r
			sp.start = i
			continue
		case r >= 0xA0 && unicode.Is(unicode.Zs, r):
			sp.see(src, i, r, pos)
		case r == '\r' && i+1 < len(src) && src[i+1] == '\n':
			// CRLF line endings are fine.
		case r == 0xFEFF && i == 0:
			// A leading byte order mark is harmless.
		case r != ' ' && r != '\t':
			if why := badRune(r, prev, next, true); why != "" {
				l.Errorf(pos, "%s is not allowed in a catalogue", why)
			}
		}
		i += size
		col += size
		prev = r
	}
	return sp
}

// spaces finds Unicode spaces other than U+0020 before a line's first
// other character. A no-break space pasted from a web page looks like
// indentation but is text to YAML: the key it stands before is not the
// one the reader sees. On a line that goes on a value (a block scalar's,
// a quoted or plain value's continuation) it is text, and allowed.
type spaces struct {
	start  int      // where the current line starts in the source
	asked  int      // the last line whose first such space was looked at
	first  diag.Pos // the first one found
	r      rune     // and which space it is
	others int      // how many later lines start with one too
}

// see looks at the space r at src[i], at pos: only at a line's first, so
// that the scan stays linear.
func (sp *spaces) see(src []byte, i int, r rune, pos diag.Pos) {
	if sp.asked == pos.Line {
		return
	}
	sp.asked = pos.Line
	if indentOnly(src[sp.start:i]) {
		sp.count(pos, r)
	}
}

// count counts the space r at pos: the first, or one more line with one.
func (sp *spaces) count(pos diag.Pos, r rune) {
	if sp.first.Line == 0 {
		sp.first, sp.r = pos, r
	} else {
		sp.others++
	}
}

// instead replaces the problem of a text that cannot be parsed with the
// error about the first space found at the start of a line, if any, when
// the parser stopped on that line or after it: the parser's own message
// about such a line misleads (a list indicator or a mapping value it did
// not expect). A problem above it is not that space's doing (the space
// may be the text of a block below).
func (sp *spaces) instead(l *diag.List) {
	if sp.first.Line > 0 && len(*l) > 0 && (*l)[0].Pos.Line >= sp.first.Line {
		*l = nil
		sp.report(l)
	}
}

// keys reports, once the text is parsed, the first key that starts with a
// Unicode space at the start of its line, with the count of the other lines
// that hold one; it reports false when there is one. A line that goes on a
// value starts no key: the space there is text. Only a text where scanText
// found such a space is walked.
func (sp *spaces) keys(file string, text *source, root *yaml.Node, l *diag.List) bool {
	if sp.first.Line == 0 {
		return true
	}
	found := spaces{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for k, c := range n.Content {
			if n.Kind == yaml.MappingNode && k%2 == 0 && c.Kind == yaml.ScalarNode && c.Line != found.asked {
				pos := text.pos(file, c)
				line := text.line(pos.Line)
				if r, _ := utf8.DecodeRune(line[min(pos.Col-1, len(line)):]); r >= 0xA0 && unicode.Is(unicode.Zs, r) && indentOnly(line[:pos.Col-1]) {
					found.asked = c.Line
					found.count(pos, r)
				}
			}
			walk(c)
		}
	}
	walk(root)
	found.report(l)
	return found.first.Line == 0
}

// report reports the first space found, with the count of the others.
func (sp *spaces) report(l *diag.List) {
	var more string
	switch {
	case sp.first.Line == 0:
		return
	case sp.others == 1:
		more = " (1 other line starts with one too)"
	case sp.others > 1:
		more = fmt.Sprintf(" (%d other lines start with one too)", sp.others)
	}
	l.Errorf(sp.first, "%s at the start of a line; YAML indents with spaces (U+0020) only%s", spaceName(sp.r), more)
}

// indentOnly reports whether b, a line's start, holds only spaces and tabs
// (after a byte order mark on the first line).
func indentOnly(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	return len(bytes.Trim(b, " \t")) == 0
}

// spaceName names a Unicode space character other than U+0020.
func spaceName(r rune) string {
	code := fmt.Sprintf("U+%04X", r)
	switch r {
	case 0x00A0:
		return "no-break space " + code
	case 0x202F:
		return "narrow no-break space " + code
	case 0x3000:
		return "ideographic space " + code
	}
	return "space character " + code
}

// scanTabs reports a tab in the indentation of line at, the line YAML
// refused the file at, and how many later lines are indented with tabs:
// one error, for a file indented with tabs throughout is one mistake. It
// reports nothing, and returns false, when line at has no such tab: a tab
// inside a block scalar is legal content.
func scanTabs(file string, src []byte, at int, l *diag.List) bool {
	var first diag.Pos
	others := 0
	line, col, indent := 1, 1, true
	for i, r := range string(src) {
		switch {
		case r == '\n':
			line, col, indent = line+1, 1, true
			continue
		case r == '-' && indent && i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t'):
			// A list item's dash is part of the indentation of what
			// follows it: "-<TAB>name: x" is indented with a tab.
		case r == '\t' && indent && line >= at:
			if line == at {
				first = diag.Pos{File: file, Line: line, Col: col}
			} else {
				others++
			}
			indent = false
		case r != ' ':
			indent = false
		}
		col++
	}
	switch {
	case first.Line == 0:
		return false
	case others == 1:
		l.Errorf(first, "tab in indentation; YAML indents with spaces (1 other line is indented with a tab too)")
	case others > 1:
		l.Errorf(first, "tab in indentation; YAML indents with spaces (%d other lines are indented with tabs too)", others)
	default:
		l.Errorf(first, "tab in indentation; YAML indents with spaces")
	}
	return true
}

// wholeFile reports, as one error at the place that shows it, a file that
// is not text errgen reads at all: one saved as UTF-16 or UTF-32 (as
// Windows editors and PowerShell may save it), whose NUL bytes would be a
// control character beside every other character, or one with CR line
// endings (classic Mac OS), a control character at every line break.
func wholeFile(file string, src []byte, l *diag.List) bool {
	if enc := wideEncoding(src); enc != "" {
		l.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, "the file is %s; save it as UTF-8", enc)
		return true
	}
	// Line endings: a lone CR (not before a LF) ends a line to the old
	// Mac convention; a file with more of them than of LFs uses it.
	lone, lf, at := 0, 0, -1
	for i, b := range src {
		switch {
		case b == '\n':
			lf++
		case b == '\r' && (i+1 == len(src) || src[i+1] != '\n'):
			if lone++; at < 0 {
				at = i
			}
		}
	}
	if lone > lf {
		line := 1 + bytes.Count(src[:at], []byte{'\n'})
		col := at - (bytes.LastIndexByte(src[:at], '\n') + 1) + 1
		l.Errorf(diag.Pos{File: file, Line: line, Col: col}, "the file uses CR line endings; use LF (or CRLF)")
		return true
	}
	return false
}

// wideEncoding names the encoding of src when it is UTF-16 or UTF-32,
// with a byte order mark or without one; "" otherwise. Without a mark the
// file must start with an ASCII character, as YAML detects encodings (a
// catalogue starts with a key or a comment), and at least half of its first
// characters must be ASCII, the zero bytes beside them where that encoding
// puts them: a UTF-8 file holds no NUL, which scanText refuses anyway.
func wideEncoding(src []byte) string {
	switch {
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE, 0, 0}), bytes.HasPrefix(src, []byte{0, 0, 0xFE, 0xFF}):
		return "UTF-32"
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}), bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		return "UTF-16"
	}
	// zeros reports whether, in the first units of size bytes, the bytes
	// at the offsets in zero are NUL and the others not for the first
	// unit, and for at least half of the units.
	zeros := func(size int, zero ...int) bool {
		n := min(len(src)/size, 128)
		if n == 0 {
			return false
		}
		ascii := 0
		for u := range n {
			unit := src[u*size : (u+1)*size]
			ok := true
			for i, b := range unit {
				if (b == 0) != slices.Contains(zero, i) {
					ok = false
				}
			}
			if ok {
				ascii++
			} else if u == 0 {
				return false
			}
		}
		return ascii*2 >= n
	}
	switch {
	case zeros(4, 1, 2, 3), zeros(4, 0, 1, 2):
		return "UTF-32"
	case zeros(2, 1), zeros(2, 0):
		return "UTF-16"
	}
	return ""
}

// MaxValues bounds the values (YAML nodes) a catalogue may hold. The YAML
// parser keeps a node for each, and errgen's syntax tree and model one or
// two objects more: at this bound the costliest catalogue stays under
// 256 MiB and 5 s (BENCHMARKS.md), while the largest catalogue errgen is
// measured with, 10,000 variants, counts about 470,000.
const MaxValues = 600_000

// countValues returns an upper bound on the YAML values of src, counted
// without parsing: every value is a key or the value after a mapping
// indicator (": "), a block sequence item ("- "), the start of a flow
// collection or an item after a flow separator (","), or the document
// itself. Separators inside quoted text and comments count too, which only
// raises the bound. It stops counting at limit and returns the line where
// the count passed it.
func countValues(src []byte, limit int) (n, line int) {
	n, line = 1, 1
	start := true // only blanks and dashes since the line began
	for i := 0; i < len(src); i++ {
		c := src[i]
		blankNext := i+1 == len(src) || src[i+1] == ' ' || src[i+1] == '\n' || src[i+1] == '\r' || src[i+1] == '\t'
		switch {
		case c == ':' && blankNext:
			n += 2
		case c == ',' || c == '[' || c == '{':
			n++
		case c == '-' && start && blankNext:
			n++
		case c == '?' && start && blankNext:
			n += 2
		}
		if n > limit {
			return n, line
		}
		switch c {
		case '\n':
			line++
			start = true
		case ' ', '\t', '-', '\r':
		default:
			start = false
		}
	}
	return n, line
}
