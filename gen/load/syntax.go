package load

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The parser names the line of a syntax error but not its column (see
// syntaxError). For the errors below the column is found by reading the
// line as the parser's scanner reads it, and by asking the parser again
// about the file cut short: the file up to the character an error is
// about fails as the whole file does, and the file up to the character
// before it does not. A column the parser does not confirm so is not
// given, and the error stays at the line's first character. (A [ or {
// cannot be confirmed so: the file cut short just after it fails with
// another error. The line the parser names for a list or mapping that
// does not close is that of its bracket, and on that line the bracket is
// the one still open at its end.)

// charErrors are the scanner's messages about the single character it
// stopped at: one that starts no token where it stands (a "?" or "-"
// inside a value, "|" or ">" inside [ ] or { }, "@" or "`"), or one that
// may not follow a block scalar's header. The file up to that character
// fails with the message, and no shorter part of its line does. (The
// parser's own messages, such as "did not find expected node content",
// may come only after the tokens that follow the one they are about,
// which the file cut short does not tell apart.)
var charErrors = map[string]bool{
	"found character that cannot start any token":            true,
	"mapping keys are not allowed in this context":           true,
	"block sequence entries are not allowed in this context": true,
	"did not find expected comment or line break":            true,
	"did not find expected whitespace or line break":         true,
}

// syntaxColumn returns the line and byte column (from 1) of the token a
// syntax error is about, whole being the parser's error for src and line
// (from 1, of lines, src split at line feeds) the line problemLine found;
// 0, 0 when it finds none:
//
//   - a quoted value that never closes: its opening quote, on whichever
//     line it opens;
//   - a [ list or { mapping that does not close, or whose items lack a
//     comma: its opening bracket, on the line it opens on, the innermost
//     one still open at the end of the line, or else the line's first;
//   - a key the parser could not find the ":" of, written as a quoted
//     value whose line breaks took the lines up to the one the parser
//     stopped at: the quote that opens it, lines above;
//   - an error about one character (charErrors): that character.
func syntaxColumn(src []byte, lines [][]byte, line int, msg, whole string) (int, int) {
	if len(src) > maxBisect || line < 1 || line > len(lines) {
		return 0, 0
	}
	// start is the offset of line n's first byte.
	start := func(n int) int {
		off := 0
		for _, l := range lines[:n-1] {
			off += len(l) + 1
		}
		return off
	}
	// at reports whether the character at byte i of line n is the one the
	// parser stops at with want. The line the parser names is left out:
	// for a value that opens on line 1 it names the line where it stopped,
	// which the part of the file up to the value's start does not reach.
	at := func(n, i int, want string) bool {
		off := start(n) + i
		_, size := utf8.DecodeRune(src[off:])
		want = withoutLine(want)
		return withoutLine(decodeErr(src[:off+size])) == want && withoutLine(decodeErr(src[:off])) != want
	}
	text := string(lines[line-1])
	switch msg {
	case "found unexpected end of stream":
		if i := openQuote(text); i >= 0 && at(line, i, whole) {
			return line, i + 1
		}
		// For a value that opens on line 1 the parser names the line
		// it stopped at, the last.
		if i := openQuote(string(lines[0])); i >= 0 && at(1, i, whole) {
			return 1, i + 1
		}
	case "did not find expected ',' or ']'", "did not find expected ',' or '}'":
		open := byte('[')
		if strings.HasSuffix(msg, "'}'") {
			open = '{'
		}
		// The parser names the line before the one its list or mapping
		// opens on, when that is not line 1: later than the line the
		// file cut short first fails on when the list spans lines, or
		// when a quoted value in it does not close and takes the lines
		// after it up to the next quote.
		if n := lineOf(whole) + 1; n >= 2 && n < line {
			line, text = n, string(lines[n-1])
		}
		if i, _ := openBracket(text, open); i >= 0 {
			return line, i + 1
		}
		// For a list or mapping that opens on line 1 the parser names
		// the line it stopped at.
		if i, unclosed := openBracket(string(lines[0]), open); unclosed {
			return 1, i + 1
		}
	case "could not find expected ':'":
		// A key written as a quoted value whose line breaks took the
		// lines up to this one: the file up to the line before fails
		// at the end of that value, and the parser names the line where
		// it opens.
		if line < 2 {
			break
		}
		before := decodeErr(src[:start(line)])
		if withoutLine(before) != "found unexpected end of stream" {
			break
		}
		if from := lineOf(before); from >= 1 && from < line {
			if i := openQuote(string(lines[from-1])); i >= 0 && at(from, i, before) {
				return from, i + 1
			}
		}
	default:
		if !charErrors[msg] {
			break
		}
		// The shortest part of the line that makes the file fail so.
		off := start(line)
		var ends []int // the end of each character of the line
		for i := 0; i < len(text); {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			ends = append(ends, i)
		}
		lo, hi := -1, len(ends)-1 // the line up to ends[lo] does not fail; up to ends[hi] it does
		fails := func(k int) bool { return decodeErr(src[:off+ends[k]]) == whole }
		if hi < 0 || !fails(hi) {
			break
		}
		for hi-lo > 1 {
			if mid := (lo + hi) / 2; fails(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		i := 0
		if hi > 0 {
			i = ends[hi-1]
		}
		if at(line, i, whole) {
			return line, i + 1
		}
	}
	return 0, 0
}

// lineTokens reads text, one line of YAML, as the parser's scanner reads
// it, from a place where a token may start: it skips blanks, plain values,
// anchors, aliases and tags, and calls quote with the index of each quote
// that opens a quoted value and the index just past its end (-1 when it
// does not close on the line, where reading stops), and bracket with the
// index of each [, {, ] and }. It stops at a comment or a block scalar's
// header.
func lineTokens(text string, quote func(i, end int), bracket func(i int)) {
	i, depth := 0, 0
	if strings.HasPrefix(text, "\ufeff") {
		i = len("\ufeff")
	}
	first := i
	blankAt := func(j int) bool { return j >= len(text) || text[j] == ' ' || text[j] == '\t' || text[j] == '\r' }
	for i < len(text) {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#' && (i == first || blankAt(i-1)):
			return // a comment
		case c == '"' || c == '\'':
			end := closing(text, i)
			quote(i, end)
			if end < 0 {
				return
			}
			i = end
		case c == '[' || c == '{':
			depth++
			bracket(i)
			i++
		case c == ']' || c == '}':
			depth = max(depth-1, 0)
			bracket(i)
			i++
		case c == ',' && depth > 0:
			i++
		case (c == '-' || c == '?' || c == ':') && blankAt(i+1):
			i++
		case c == '|' || c == '>':
			return // a block scalar's header: the lines below are its text
		case c == '&' || c == '*' || c == '!':
			for i < len(text) && !blankAt(i) && (depth == 0 || !strings.ContainsRune(",[]{}", rune(text[i]))) {
				i++
			}
		default:
			// A plain value, up to ": ", " #" or, inside [ ] or { }, a
			// flow indicator.
			for i++; i < len(text); i++ {
				if text[i] == ':' && (blankAt(i+1) || depth > 0 && strings.ContainsRune(",[]{}", rune(text[i+1]))) {
					break
				}
				if text[i] == '#' && blankAt(i-1) {
					break
				}
				if depth > 0 && strings.ContainsRune(",[]{}", rune(text[i])) {
					break
				}
			}
		}
	}
}

// openQuote returns the index in text, one line of YAML, of the quote that
// opens a quoted value that does not close on the line, or -1.
func openQuote(text string) int {
	at := -1
	lineTokens(text, func(i, end int) {
		if end < 0 {
			at = i
		}
	}, func(int) {})
	return at
}

// openBracket returns the index in text, one line of YAML, of the
// innermost bracket open ([ or {) still open at the end of the line, and
// true; else that of its first bracket open, and false; else -1.
func openBracket(text string, open byte) (int, bool) {
	var stack []int
	first := -1
	lineTokens(text, func(int, int) {}, func(i int) {
		switch text[i] {
		case '[', '{':
			stack = append(stack, i)
			if text[i] == open && first < 0 {
				first = i
			}
		default:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	})
	for k := len(stack) - 1; k >= 0; k-- {
		if text[stack[k]] == open {
			return stack[k], true
		}
	}
	return first, false
}

// withoutLine is the parser's error msg without the line it names.
func withoutLine(msg string) string {
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		return m[2]
	}
	return strings.TrimPrefix(msg, "yaml: ")
}

// lineOf returns the line the parser's error msg names, or 0.
func lineOf(msg string) int {
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n
		}
	}
	return 0
}
