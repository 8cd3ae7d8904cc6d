// Package markdown escapes catalogue text for GitHub-flavoured Markdown, so
// a message, a doc or a reason reads literally wherever errgen puts it: a
// table cell, a paragraph, a code span or a code block. Catalogue text is
// never trusted to be Markdown: a | must not split a table, a < must not
// open an HTML tag, and a ``` must not end a code block.
package markdown

import (
	"regexp"
	"strings"
)

// inline escapes the characters that start inline syntax: emphasis,
// strikethrough, code spans, links, HTML, entities and table cells. Any
// ASCII punctuation may be backslash-escaped in CommonMark, so the result
// renders as the original text.
var inline = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `~`, `\~`,
	`[`, `\[`, `]`, `\]`, `<`, `\<`, `>`, `\>`, `&`, `\&`, `|`, `\|`,
	"\r\n", "\n", "\r", "\n",
)

// Text escapes s for inline text on one line: a table cell or a heading.
// Line breaks become <br>.
func Text(s string) string {
	return strings.ReplaceAll(inline.Replace(s), "\n", "<br>")
}

// blockStart matches what would make a line of a paragraph into other
// block syntax: a heading, a quote, a list item, a thematic break or a
// setext underline.
var blockStart = regexp.MustCompile(`^(#|>|[-+=]|\d+[.)])`)

// Para escapes s as a paragraph: each line is escaped inline, leading
// spaces are dropped (four would start a code block), and a line that
// would start a block is escaped. Blank lines separate paragraphs as in
// the source.
func Para(s string) string {
	lines := strings.Split(strings.ReplaceAll(strings.TrimRight(s, "\n"), "\r\n", "\n"), "\n")
	for i, l := range lines {
		l = inline.Replace(strings.TrimLeft(l, " \t"))
		if m := blockStart.FindString(l); m != "" {
			l = m[:len(m)-1] + `\` + l[len(m)-1:]
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// Code returns s as a code span: fenced with more backticks than s holds
// in a row, padded when s starts or ends with a backtick (or both with a space), with line breaks
// turned into spaces. It must not sit in a table cell: use CodeCell.
func Code(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" ||
		strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// CodeCell returns s as a code span for a table cell: like Code, with |
// escaped, since GitHub splits a row into cells before it reads spans and
// removes the backslash again inside them.
func CodeCell(s string) string {
	return Code(strings.ReplaceAll(s, "|", `\|`))
}

// Fence returns content as a fenced code block with the given info string,
// fenced with more backticks than content holds in a row.
func Fence(content, info string) string {
	fence := strings.Repeat("`", max(3, longestRun(content, '`')+1))
	if !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	return fence + info + "\n" + content + fence
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
