package load

import (
	"strconv"
	"unicode/utf8"

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

// badRune describes why r may not appear in catalogue text, or returns "".
// Tab is always allowed; newline only where multiline says so.
func badRune(r rune, multiline bool) string {
	switch {
	case r == '\t':
		return ""
	case r == '\n':
		if multiline {
			return ""
		}
		return "a line break (only doc may span lines)"
	case r == utf8.RuneError:
		return "invalid UTF-8"
	case r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0):
		return "control character " + strconv.QuoteRuneToASCII(r)
	case isBidi(r):
		return "bidirectional control character " + strconv.QuoteRuneToASCII(r)
	case r == 0xFEFF:
		return "byte order mark " + strconv.QuoteRuneToASCII(r)
	case r == 0x2028 || r == 0x2029:
		return "line separator " + strconv.QuoteRuneToASCII(r)
	}
	return ""
}

// scanText checks the raw bytes before YAML sees them: encoding, control and
// bidi characters anywhere (comments included),
// each at its own line and column. A leading byte order mark is allowed.
func scanText(file string, src []byte, l *diag.List) {
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if size == 1 && r == utf8.RuneError {
			r = utf8.RuneError
		}
		pos := diag.Pos{File: file, Line: line, Col: col}
		switch {
		case r == '\n':
			line, col = line+1, 1
			i += size
			continue
		case r == '\r' && i+1 < len(src) && src[i+1] == '\n':
			// CRLF line endings are fine.
		case r == 0xFEFF && i == 0:
			// A leading byte order mark is harmless.
		case r != ' ' && r != '\t':
			if why := badRune(r, true); why != "" {
				l.Errorf(pos, "%s is not allowed in a catalogue", why)
			}
		}
		i += size
		col++
		if len(*l) >= maxDiags {
			return
		}
	}
}

// scanTabs reports every tab in the indentation of a line. It runs only when
// YAML has refused the file: a tab inside a block scalar is legal content,
// but a tab in indentation is the most common reason a catalogue fails to
// parse, and the parser's own message does not say so.
func scanTabs(file string, src []byte, l *diag.List) bool {
	found := false
	line, col, indent := 1, 1, true
	for _, r := range string(src) {
		switch {
		case r == '\n':
			line, col, indent = line+1, 1, true
			continue
		case r == '\t' && indent:
			l.Errorf(diag.Pos{File: file, Line: line, Col: col}, "tab in indentation; YAML indents with spaces")
			found = true
			indent = false
		case r != ' ':
			indent = false
		}
		col++
	}
	return found
}
