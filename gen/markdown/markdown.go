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

// webAddress matches what GitHub may link by itself in text (its extended
// autolinks): from a scheme's :// (http, https, ftp) or www. to the next
// white space or <; trimAddress cuts it where GitHub ends the link.
var webAddress = regexp.MustCompile(`(?i)(?:(?:https?|ftp)://|www\.)[^\s<]*`)

// trailingEntity matches an entity reference at the end of an address,
// which GitHub leaves out of the link.
var trailingEntity = regexp.MustCompile(`&#?[0-9A-Za-z]+;$`)

// entity matches an entity reference, which GitHub reads inside an
// autolink.
var entity = regexp.MustCompile(`&#?[0-9A-Za-z]+;`)

// trimAddress is a as far as GitHub links it: without trailing
// punctuation (?!.,:*_~ and quotes), an unbalanced closing ), or an entity
// reference at its end.
func trimAddress(a string) string {
	for {
		n := len(a)
		a = strings.TrimRight(a, `?!.,:*_~'"`)
		if strings.HasSuffix(a, ")") && strings.Count(a, ")") > strings.Count(a, "(") {
			a = a[:len(a)-1]
		}
		if loc := trailingEntity.FindStringIndex(a); loc != nil {
			a = a[:loc[0]]
		}
		if len(a) == n {
			return a
		}
	}
}

// escapeInline escapes s as inline text, but for the web addresses in it,
// which GitHub would link without unescaping them (a \_ in one would point
// elsewhere). One with a scheme is written as an autolink, <URL>, inside
// which nothing is escaped and which ends where GitHub would end the link;
// but one that holds what an autolink cannot show as written (a |, which a
// table would split on, a >, an entity reference) is written, as one
// without a scheme (www.example.com) is, as text that GitHub does not
// link: its : or its www. escaped.
func escapeInline(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range webAddress.FindAllStringIndex(s, -1) {
		start := m[0]
		addr := trimAddress(s[start:m[1]])
		colon := strings.Index(addr, "://")
		switch {
		case colon < 0: // www.
			if len(addr) < len("www.") {
				addr = s[start : start+len("www.")] // "www." alone
			}
			b.WriteString(inline.Replace(s[last:start]))
			b.WriteString(addr[:3] + `\.` + inline.Replace(addr[4:]))
		case len(addr) <= colon+len("://"):
			continue
		case strings.ContainsAny(addr, "|>") || entity.MatchString(addr):
			b.WriteString(inline.Replace(s[last:start]))
			b.WriteString(addr[:colon] + `\:` + inline.Replace(addr[colon+1:]))
		default:
			b.WriteString(inline.Replace(s[last:start]))
			b.WriteString("<" + addr + ">")
		}
		last = start + len(addr)
	}
	b.WriteString(inline.Replace(s[last:]))
	return b.String()
}

// Text escapes s for inline text on one line: a table cell or a heading.
// Line breaks between lines become <br>; those at the end (the closing
// line break of a YAML block) are dropped, as they would only add an
// empty line to the cell.
func Text(s string) string {
	return strings.ReplaceAll(strings.TrimRight(escapeInline(s), "\n"), "\n", "<br>")
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
		l = escapeInline(strings.TrimLeft(l, " \t"))
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

// quiet finds what GitHub turns into a notification, a cross-reference or
// a link in a comment's text: @mentions (and e-mail addresses), issue
// references (#12, owner/repo#12, GH-12) and bare URLs (a scheme's ://
// or www.).
// autolink matches an autolink escapeInline wrote.
var autolink = regexp.MustCompile(`(?i)<(?:https?|ftp)://[^\s<>]*>`)

var quiet = regexp.MustCompile(`(?i)@[a-z0-9]|#[0-9]|\bgh-[0-9]|://|\bwww\.`)

// Quiet makes text that Text or Para escaped inert in a GitHub comment: a
// zero-width space (&#8203;) goes after each @ and # and inside each
// "GH-", "://" and "www." that GitHub would act on, so the text reads the
// same but mentions nobody, references no issue and links nowhere. A
// catalogue change rendered by a bot must not ping people or spam issues
// because a message says "@team" or "see #12". Code spans need nothing:
// GitHub acts on none of these inside them.
func Quiet(s string) string {
	// A web address escapeInline wrote as an autolink is written as
	// escaped text instead, which the zero-width space below then keeps
	// from being linked.
	s = autolink.ReplaceAllStringFunc(s, func(m string) string {
		return inline.Replace(m[1 : len(m)-1])
	})
	return quiet.ReplaceAllStringFunc(s, func(m string) string {
		switch {
		case m[0] == '@', m[0] == '#':
			return m[:1] + "&#8203;" + m[1:]
		case m == "://":
			return ":&#8203;//"
		}
		// gh-N, www.
		return m[:len(m)-1] + "&#8203;" + m[len(m)-1:]
	})
}
