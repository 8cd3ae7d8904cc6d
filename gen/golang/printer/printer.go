// Package printer owns the layout of the Go files errgen generates. It
// writes every file front to back, directly in gofmt's layout, so that no
// formatting pass has to parse and print the output again: for a large
// catalogue that pass would cost more than the whole generator.
//
// Content code says what to declare (a struct and its fields, a run of
// small methods, a const group) and never writes tabs, newlines, padding
// or alignment itself. The printer applies the handful of gofmt rules the
// generated shapes meet:
//
//   - doc comments of top-level declarations are written as go/doc/comment
//     prints them, which is what gofmt does to them;
//   - a function whose header and single statement are small enough is
//     kept on one line, and the bodies of a run of such functions are
//     aligned one column past the longest header;
//   - struct fields, const and var specs and keyed elements are aligned in
//     columns with the semantics of gofmt's tabwriter, including where
//     comments and gofmt's size heuristics break an alignment section;
//   - declarations are separated by one blank line, the imports come right
//     after the package clause, sorted, and the file ends in one newline.
//
// The code text the caller passes (types, headers, statements, values) must
// already be gofmt-clean and fit on one line; the printer only lays it out.
// The comment text it passes may be anything: every comment line is made
// inert (see [InertLine]) and sanitised so that it can neither become a
// directive or build constraint nor break the file.
//
// The tests pin each rule to the column against go/format, and a property
// test holds random files to gofmt byte for byte.
package printer

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// File builds one Go source file. Declarations are written in the order
// they are added, each separated from the next by one blank line. The zero
// value is not usable; call NewFile.
//
// The methods panic when they are used in a way that could not produce a
// valid file (code text spanning lines, a Doc left dangling, a function
// body left open): those are programming errors in the emitter, not
// conditions of the input.
type File struct {
	header, pkg string
	imports     []string          // paths, deduplicated, in the order first used
	aliases     map[string]string // the name a path is imported under, when not its own

	buf bytes.Buffer // gap bytes reserved for the head, then the body
	gap int          // how many bytes at the start of buf are reserved

	doc  []string // the doc comment of the next declaration, if any
	body *Body    // the function body being written, if any
	out  []byte   // the finished file, once Bytes has been called

	rows  []row    // scratch for column alignment, reused across declarations
	lines []string // scratch for cleaned comment lines
}

// headRoom is the room reserved in front of the body for the import block,
// beyond the header and package clause: enough for a couple of dozen
// standard library imports, so that Bytes can write the head in place
// without copying the body. A longer head costs one copy, nothing more.
const headRoom = 512

// NewFile returns a File for package pkg. header is written verbatim as the
// first lines of the file, followed by a blank line; it is errgen's own text
// (the "// Code generated ... DO NOT EDIT." line), not user text, so it is
// not made inert: it may hold a //go:build line on purpose. An empty header
// writes none.
func NewFile(header, pkg string) *File {
	header = strings.TrimRight(header, "\n")
	f := &File{header: header, pkg: pkg}
	f.gap = len(header) + len(pkg) + headRoom
	f.buf.Grow(f.gap + 4096)
	f.buf.Write(make([]byte, f.gap))
	return f
}

// Grow reserves room for n more bytes of declarations, so that a large file
// is not copied each time its buffer doubles.
func (f *File) Grow(n int) { f.buf.Grow(n) }

// Import records that the file uses the package with the given import path
// and returns the name to qualify its identifiers with: the last element of
// the path, or the one before a major version suffix ("math/rand/v2" is
// "rand"). Importing a path twice is harmless; the import block is built
// from the recorded paths when Bytes is called.
func (f *File) Import(path string) string {
	f.check()
	if !slices.Contains(f.imports, path) {
		f.imports = append(f.imports, path)
	}
	return packageName(path)
}

// ImportAs records that the file uses the package with the given import
// path under the name alias, and returns alias: import alias "path". A
// path imported both ways keeps the alias.
func (f *File) ImportAs(path, alias string) string {
	f.Import(path)
	if f.aliases == nil {
		f.aliases = map[string]string{}
	}
	f.aliases[path] = alias
	return alias
}

// packageName is the default name of the package with the given import path.
func packageName(path string) string {
	name := path[strings.LastIndexByte(path, '/')+1:]
	if i := strings.LastIndexByte(path, '/'); i > 0 && isMajorVersion(name) {
		prev := path[:i]
		return prev[strings.LastIndexByte(prev, '/')+1:]
	}
	return name
}

// isMajorVersion reports whether elem is a major version suffix such as v2.
func isMajorVersion(elem string) bool {
	if len(elem) < 2 || elem[0] != 'v' || elem[1] == '0' {
		return false
	}
	for i := 1; i < len(elem); i++ {
		if elem[i] < '0' || elem[i] > '9' {
			return false
		}
	}
	return true
}

// Bytes finishes the file and returns it: the header, the package clause,
// the imports and the declarations. The File must not be used afterwards,
// except to call Bytes again, which returns the same slice.
func (f *File) Bytes() []byte {
	if f.out != nil {
		return f.out
	}
	f.check()
	if f.doc != nil {
		panic("printer: Doc is not followed by a declaration")
	}
	var head []byte
	head = f.appendHead(head)
	b := f.buf.Bytes()
	if len(head) <= f.gap {
		// The common case: write the head into the room reserved for it,
		// right before the body, and return the file without copying it.
		start := f.gap - len(head)
		copy(b[start:], head)
		f.out = b[start:]
	} else {
		f.out = append(head, b[f.gap:]...)
	}
	return f.out
}

// appendHead appends the header, the package clause and the import block.
// gofmt sorts the paths of an import block; one import is written without
// parentheses, and no import block is written when none was used.
func (f *File) appendHead(b []byte) []byte {
	if f.header != "" {
		b = append(b, f.header...)
		b = append(b, "\n\n"...)
	}
	b = append(b, "package "...)
	b = append(b, f.pkg...)
	b = append(b, '\n')
	paths := slices.Clone(f.imports)
	slices.Sort(paths)
	switch len(paths) {
	case 0:
	case 1:
		b = append(b, "\nimport "...)
		b = f.appendSpec(b, paths[0])
		b = append(b, '\n')
	default:
		b = append(b, "\nimport (\n"...)
		for _, p := range paths {
			b = append(b, '\t')
			b = f.appendSpec(b, p)
			b = append(b, '\n')
		}
		b = append(b, ")\n"...)
	}
	return b
}

// appendSpec appends the import spec of path: its alias, if it has one,
// and the quoted path. gofmt sorts specs by path, whatever their names.
func (f *File) appendSpec(b []byte, path string) []byte {
	if alias, ok := f.aliases[path]; ok {
		b = append(append(b, alias...), ' ')
	}
	return strconv.AppendQuote(b, path)
}

// check panics if the file cannot take another declaration now.
func (f *File) check() {
	if f.out != nil {
		panic("printer: File used after Bytes")
	}
	if f.body != nil {
		panic("printer: the body of " + strconv.Quote(f.body.header) + " was not ended")
	}
}

// begin starts a declaration: it writes the blank line that separates it
// from whatever precedes it (the package clause, the imports or another
// declaration) and, when withDoc is set, the pending doc comment. A
// declaration that cannot carry the pending doc panics instead.
func (f *File) begin(withDoc bool) {
	f.check()
	f.buf.WriteByte('\n')
	if f.doc != nil {
		if !withDoc {
			panic("printer: Doc must be followed by a declaration that takes it")
		}
		f.writeDoc(f.doc)
		f.doc = nil
	}
}

// Doc sets the doc comment of the next declaration. Each argument is one
// line of text, written after "// "; an empty string is a blank comment
// line. The text is formatted as gofmt formats doc comments (lists,
// headings, code blocks, links), and every line is made inert first.
func (f *File) Doc(lines ...string) {
	f.check()
	if f.doc != nil {
		panic("printer: Doc called twice before a declaration")
	}
	if lines == nil {
		lines = []string{}
	}
	f.doc = lines
}

// Comment writes a plain comment between declarations: not attached to the
// next declaration as its doc, and so not formatted as one (a blank line
// follows it). Each argument is one line of text; every line is made inert.
func (f *File) Comment(lines ...string) {
	if len(lines) == 0 {
		return
	}
	f.begin(false)
	for _, line := range f.clean(lines) {
		f.commentLine("", line)
	}
}

// Raw writes a whole declaration the caller guarantees is gofmt-clean text,
// such as fixed code, including any doc comment of its own. A pending Doc
// is written before it, unless decl starts with a comment: gofmt would
// format the two as one doc comment, so that panics. Trailing newlines are
// dropped; the printer separates declarations itself. Raw of nothing does
// nothing.
func (f *File) Raw(decl string) {
	decl = strings.TrimRight(decl, "\n")
	if decl == "" {
		return
	}
	if f.doc != nil && (strings.HasPrefix(decl, "//") || strings.HasPrefix(decl, "/*")) {
		panic("printer: Doc before a Raw declaration with a comment of its own")
	}
	f.begin(true)
	f.buf.WriteString(decl)
	f.buf.WriteByte('\n')
}

// oneLine panics if code text spans lines: code is the caller's own text,
// and a newline in it would put text outside the construct the printer
// laid out.
func oneLine(what string, texts ...string) {
	for _, s := range texts {
		if strings.IndexByte(s, '\n') >= 0 {
			panic("printer: " + what + " must be one line: " + strconv.Quote(s))
		}
	}
}

// tabs and spaces are sliced for indentation and padding, so neither needs
// a loop or an allocation.
const (
	tabs   = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
	spaces = "                                                                "
)

// indent writes n tabs.
func (f *File) indent(n int) {
	for n > len(tabs) {
		f.buf.WriteString(tabs)
		n -= len(tabs)
	}
	f.buf.WriteString(tabs[:n])
}

// pad writes n spaces.
func (f *File) pad(n int) {
	for n > len(spaces) {
		f.buf.WriteString(spaces)
		n -= len(spaces)
	}
	if n > 0 {
		f.buf.WriteString(spaces[:n])
	}
}

// Quote returns s as a Go string literal, spelled as strconv.Quote spells
// it. The emitter quotes every text of the catalogue, and nearly all are
// printable ASCII without a quote or a backslash, which need no escape and
// so no pass over their runes.
func Quote(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7F || c == '"' || c == '\\' {
			return strconv.Quote(s)
		}
	}
	return `"` + s + `"`
}
