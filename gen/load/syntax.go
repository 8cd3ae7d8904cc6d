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
// another error. A list or mapping that closes on its line is confirmed
// by the parser reading it alone; the line the parser names for one that
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

// placedAbove are the errors syntaxColumn places itself when a quoted
// value that opens lines above the one the parser stopped at is still
// open at the end of the line before: at the quote of a value that never
// closes, at the bracket of a list or mapping, at the quote of a key.
var placedAbove = map[string]bool{
	"found unexpected end of stream":   true,
	"did not find expected ',' or ']'": true,
	"did not find expected ',' or '}'": true,
	"could not find expected ':'":      true,
}

// syntaxColumn returns the line and byte column (from 1) of the token a
// syntax error is about, whole being the parser's error for src and line
// (from 1, of lines, src split at line feeds) the line problemLine found;
// 0, 0 when it finds none:
//
//   - a quoted value that never closes: its opening quote, on whichever
//     line it opens;
//   - a [ list or { mapping that does not close, or whose items lack a
//     comma: its opening bracket, on the line it opens on (faultyBracket);
//   - a key the parser could not find the ":" of, written as a quoted
//     value whose line breaks took the lines up to the one the parser
//     stopped at: the quote that opens it, lines above;
//   - an error about one character (charErrors): that character.
func syntaxColumn(src []byte, lines [][]byte, line int, msg, whole string) (int, int) {
	if len(src) > maxBisect || line < 1 || line > len(lines) {
		return 0, 0
	}
	at := func(n, i int, want string) bool { return stopsAt(src, lines, n, i, want) }
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
		// The parser names the line before the one the list or mapping
		// opens on (when that is not line 1). The line the file cut
		// short first fails on comes later when the list spans lines,
		// or when a quoted value in it does not close and takes the
		// lines after it up to the next quote: the list's own line is
		// the one to read then.
		if n := lineOf(whole) + 1; n >= 2 && n < line {
			line, text = n, string(lines[n-1])
		}
		if i := faultyBracket(text, open, msg); i >= 0 {
			return line, i + 1
		}
		// For a list or mapping that opens on line 1 the parser names
		// the line it stopped at.
		if i := faultyBracket(string(lines[0]), open, ""); i >= 0 {
			return 1, i + 1
		}
	case "could not find expected ':'":
		// A key written as a quoted value whose line breaks took the
		// lines up to this one.
		if from, c := openAbove(src, lines, line); from > 0 {
			return from, c
		}
	default:
		if charErrors[msg] {
			if c := charColumn(src, lines, line, whole); c > 0 {
				return line, c
			}
		}
	}
	return 0, 0
}

// lineStart is the offset in the file of the first byte of line n (from 1)
// of lines, the file split at line feeds.
func lineStart(lines [][]byte, n int) int {
	off := 0
	for _, l := range lines[:n-1] {
		off += len(l) + 1
	}
	return off
}

// stopsAt reports whether the character at byte i of line n of src (split
// into lines) is the one the parser stops at with the error want: the file
// up to it fails so, and the file up to the character before it does not.
// The line the parser names is left out: for a value that opens on line 1
// it names the line where it stopped, which the part of the file up to the
// value's start does not reach.
func stopsAt(src []byte, lines [][]byte, n, i int, want string) bool {
	off := lineStart(lines, n) + i
	_, size := utf8.DecodeRune(src[off:])
	want = withoutLine(want)
	return withoutLine(decodeErr(src[:off+size])) == want && withoutLine(decodeErr(src[:off])) != want
}

// charColumn returns the byte column (from 1) of the character on line
// (from 1) that the parser stops at with whole, an error it finds at that
// very character (charErrors, and a ": " where no key may start); 0 when
// the parser does not confirm one.
func charColumn(src []byte, lines [][]byte, line int, whole string) int {
	if len(src) > maxBisect || line < 1 || line > len(lines) {
		return 0
	}
	// The shortest part of the line that makes the file fail so.
	text, off := lines[line-1], lineStart(lines, line)
	var ends []int // the end of each character of the line
	for i := 0; i < len(text); {
		_, size := utf8.DecodeRune(text[i:])
		i += size
		ends = append(ends, i)
	}
	lo, hi := -1, len(ends)-1 // the line up to ends[lo] does not fail; up to ends[hi] it does
	fails := func(k int) bool { return decodeErr(src[:off+ends[k]]) == whole }
	if hi < 0 || !fails(hi) {
		return 0
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
	if !stopsAt(src, lines, line, i, whole) {
		return 0
	}
	return i + 1
}

// openAbove returns the line and byte column (from 1) of the quote that
// opens a quoted value, on a line before line, that is still open at the
// end of the line before it; 0, 0 when there is none. Such a value ends
// on line, at the first quote there: a syntax error on line after it is
// most likely a quote left open above, which took the lines between.
func openAbove(src []byte, lines [][]byte, line int) (int, int) {
	if len(src) > maxBisect || line < 2 || line > len(lines) {
		return 0, 0
	}
	before := decodeErr(src[:lineStart(lines, line)])
	if withoutLine(before) != "found unexpected end of stream" {
		return 0, 0
	}
	from := lineOf(before)
	if from >= line {
		// For a value that opens on line 1 the parser names the line it
		// stopped at.
		from = 1
	}
	if from < 1 {
		return 0, 0
	}
	if i := openQuote(string(lines[from-1])); i >= 0 && stopsAt(src, lines, from, i, before) {
		return from, i + 1
	}
	return 0, 0
}

// afterClose returns the index in text, the line where a quoted value
// that opened above with quote ends, of the first token after the quote
// that closes it, or -1 when none follows on the line; and the index just
// past that quote, or -1 when it does not close on the line.
func afterClose(text string, quote byte) (int, int) {
	i := 0
	for ; i < len(text); i++ {
		if quote == '"' && text[i] == '\\' {
			i++
			continue
		}
		if text[i] == quote {
			if quote == '\'' && i+1 < len(text) && text[i+1] == '\'' {
				i++ // '' is one '
				continue
			}
			break
		}
	}
	if i >= len(text) {
		return -1, -1
	}
	end := i + 1
	for i = end; i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'); i++ {
	}
	if i >= len(text) || text[i] == '#' {
		return -1, end
	}
	return i, end
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
	if (strings.HasPrefix(text[i:], "---") || strings.HasPrefix(text[i:], "...")) && blankAt(i+3) {
		i += 3 // a document marker
	}
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

// maxAlone bounds the lists and mappings faultyBracket parses on their
// own, each at most a line long.
const maxAlone = 32

// faultyBracket returns the index in text, one line of YAML, of the
// bracket open (open, [ or {) of the list or mapping the parser's error
// msg is about, or -1: among those that close on the line, the innermost
// one that the parser, reading it alone, refuses with msg (of two side by
// side, the first: the parser stops there); else the innermost one still
// open at the end of the line. A list that closes on the line and that
// the parser reads alone is not the one: its items have their commas. With
// msg "" only one still open counts.
func faultyBracket(text string, open byte, msg string) int {
	type span struct{ at, end int } // end: just past its closing bracket, or -1
	var spans []span
	var stack []int // indexes in spans of the brackets still open
	lineTokens(text, func(int, int) {}, func(i int) {
		switch text[i] {
		case '[', '{':
			stack = append(stack, len(spans))
			spans = append(spans, span{i, -1})
		default:
			if n := len(stack); n > 0 {
				spans[stack[n-1]].end = i + 1
				stack = stack[:n-1]
			}
		}
	})
	if msg != "" {
		found, end, skip, budget := -1, len(text), 0, maxAlone
		for _, sp := range spans {
			if sp.at >= end || budget == 0 {
				break // past the one found, or parsed enough
			}
			if text[sp.at] != open || sp.end < 0 || sp.at < skip {
				continue
			}
			budget--
			if withoutLine(decodeErr([]byte(text[sp.at:sp.end]))) == msg {
				found, end = sp.at, sp.end // look inside it
			} else {
				skip = sp.end // so is every list inside it
			}
		}
		if found >= 0 {
			return found
		}
	}
	for k := len(stack) - 1; k >= 0; k-- {
		if at := spans[stack[k]].at; text[at] == open {
			return at
		}
	}
	return -1
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
