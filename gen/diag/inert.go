package diag

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text that errgen prints but did not write itself (a catalogue value, a
// file name, a line of a file on disk) must read as text wherever it is
// shown: in a terminal, where an escape sequence would recolour or rewrite
// the screen, and in a CI log, where GitHub Actions acts on a line whose
// first non-blank characters are "::" and on "##[" anywhere in a line.
// Quote, Path and Inert are the three ways such text leaves errgen.

// Quote returns s as a double-quoted Go string literal with every
// non-printable or non-ASCII rune escaped, and "##[" written with its second
// "#" escaped, so the literal means s but no runner reads a command in it.
// All user text in messages goes through it.
func Quote(s string) string {
	q := strconv.QuoteToASCII(s)
	if strings.Contains(q, "##[") {
		q = strings.ReplaceAll(q, "##[", `#\x23[`)
	}
	return q
}

// Path returns a file name as it stands when it is plain printable text, so
// editors and CI can follow FILE:LINE:COL, and quoted with Quote when it
// holds a control, bidi or invisible character, invalid UTF-8, or a
// workflow command ("::" at its start, "##[" anywhere).
func Path(name string) string {
	if name == "" || isPlain(name) {
		return name
	}
	return Quote(name)
}

func isPlain(s string) bool {
	if !utf8.ValidString(s) || strings.HasPrefix(strings.TrimLeft(s, " \t"), "::") || strings.Contains(s, "##[") {
		return false
	}
	for _, r := range s {
		if !strconv.IsPrint(r) || Invisible(r) {
			return false
		}
	}
	return true
}

// Inert returns one line of text (a line of a file on disk, shown in a
// diff) with everything that could act on a terminal or a CI runner shown
// as an escape instead: control characters but tab, bidi and invisible
// characters as \x.. or \u...., invalid UTF-8 bytes as \x.., a leading "::"
// as ":\x3a", and "##[" as "#\x23[". Plain text comes back unchanged.
func Inert(line string) string {
	if isPlainLine(line) {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + hex2(line[i]))
		case r == '\t':
			b.WriteByte('\t')
		case r < 0x80 && (r < 0x20 || r == 0x7f):
			b.WriteString(`\x` + hex2(byte(r)))
		case !strconv.IsPrint(r) || Invisible(r):
			b.WriteString(strings.Trim(strconv.QuoteRuneToASCII(r), "'"))
		default:
			b.WriteString(line[i : i+size])
		}
		i += size
	}
	s := b.String()
	if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, "::") {
		s = s[:len(s)-len(t)] + `:\x3a` + t[2:]
	}
	return strings.ReplaceAll(s, "##[", `#\x23[`)
}

func isPlainLine(s string) bool {
	if !utf8.ValidString(s) || strings.HasPrefix(strings.TrimLeft(s, " \t"), "::") || strings.Contains(s, "##[") {
		return false
	}
	for _, r := range s {
		if r != '\t' && (!strconv.IsPrint(r) || Invisible(r)) {
			return false
		}
	}
	return true
}

func hex2(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&0xf]})
}

// Invisible reports whether r is a character that takes no visible space
// yet changes what text means or how it is shown: bidirectional controls,
// and the default-ignorable code points (zero-width spaces and joiners,
// the soft hyphen, variation selectors, the tag characters of the U+E0000
// block, which can spell out instructions a reviewer never sees, and the
// other format characters Unicode lists as default ignorable).
func Invisible(r rune) bool {
	return unicode.Is(unicode.Bidi_Control, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		defaultIgnorable(r)
}

// defaultIgnorable holds the Default_Ignorable_Code_Point ranges that
// Go's unicode tables do not carry as a property of their own: the soft
// hyphen, the Arabic letter mark, Hangul fillers, the Mongolian vowel
// separator and free variation selectors, the zero-width characters and
// invisible operators, variation selectors, the BOM used as a zero-width
// no-break space, interlinear annotation controls, shorthand format
// controls, musical symbol format controls and the tag characters.
func defaultIgnorable(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x034F, r == 0x061C, r == 0x115F, r == 0x1160,
		r >= 0x17B4 && r <= 0x17B5, r >= 0x180B && r <= 0x180F,
		r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x206F, r == 0x3164, r >= 0xFE00 && r <= 0xFE0F,
		r == 0xFEFF, r == 0xFFA0, r >= 0xFFF0 && r <= 0xFFF8,
		r >= 0x1BCA0 && r <= 0x1BCA3, r >= 0x1D173 && r <= 0x1D17A,
		r >= 0xE0000 && r <= 0xE0FFF:
		return true
	}
	return false
}

// InertJSON returns JSON text (as encoding/json writes it) with the same
// meaning and nothing a terminal or a CI runner would act on: every
// character Inert would escape is written as a \u escape (a surrogate pair
// above U+FFFF), and "##[" as "#\u0023[". All of them can only stand inside
// strings, and a JSON reader decodes the escapes back to the same text, so
// a consumer still reads every file name and value exactly.
func InertJSON(data []byte) []byte {
	if isPlainJSON(data) {
		return data
	}
	out := make([]byte, 0, len(data)+64)
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == '#' && i+2 < len(data) && data[i+1] == '#' && data[i+2] == '[':
			out = append(out, `#\u0023`...)
			i += 2
			continue
		case r >= 0x80 && (!strconv.IsPrint(r) || Invisible(r)) && !(r == utf8.RuneError && size == 1):
			out = appendUnicodeEscape(out, r)
		default:
			out = append(out, data[i:i+size]...)
		}
		i += size
	}
	return out
}

func isPlainJSON(data []byte) bool {
	for i := 0; i < len(data); i++ {
		if data[i] >= 0x80 || data[i] == '#' && i+2 < len(data) && data[i+1] == '#' && data[i+2] == '[' {
			return false
		}
	}
	return true
}

// appendUnicodeEscape appends r as JSON escapes: \uXXXX, or a UTF-16
// surrogate pair.
func appendUnicodeEscape(dst []byte, r rune) []byte {
	const digits = "0123456789abcdef"
	one := func(dst []byte, u rune) []byte {
		return append(dst, '\\', 'u', digits[u>>12&0xf], digits[u>>8&0xf], digits[u>>4&0xf], digits[u&0xf])
	}
	if r > 0xFFFF {
		r -= 0x10000
		dst = one(dst, 0xD800+(r>>10))
		return one(dst, 0xDC00+(r&0x3FF))
	}
	return one(dst, r)
}
