package printer

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Type writes "type name typ", after any pending Doc. typ is one line of
// gofmt-clean type text ("string", "= other.Type" for an alias).
func (f *File) Type(name, typ string) {
	oneLine("type", name, typ)
	f.begin(true)
	f.buf.WriteString("type ")
	f.buf.WriteString(name)
	f.buf.WriteByte(' ')
	f.buf.WriteString(typ)
	f.buf.WriteByte('\n')
}

// A Member is a method or an embedded interface of an interface type.
type Member struct {
	Doc  []string // comment lines above the member, written line for line
	Text string   // "Code() Code", "error"
}

// Interface writes "type name interface {...}", one member a line, after
// any pending Doc; with no members, "type name interface{}".
//
// gofmt indents the members one tab and does not align them. The comments
// above members are indented too, and gofmt reformats only comments that
// start in the first column, so they are written line for line.
func (f *File) Interface(name string, members []Member) {
	oneLine("type name", name)
	for _, m := range members {
		oneLine("interface member", m.Text)
	}
	f.begin(true)
	f.buf.WriteString("type ")
	f.buf.WriteString(name)
	if len(members) == 0 {
		f.buf.WriteString(" interface{}\n")
		return
	}
	f.buf.WriteString(" interface {\n")
	for _, m := range members {
		f.memberDoc("\t", m.Doc)
		f.buf.WriteByte('\t')
		f.buf.WriteString(m.Text)
		f.buf.WriteByte('\n')
	}
	f.buf.WriteString("}\n")
}

// A Field is a field of a struct type.
type Field struct {
	Doc  []string // comment lines above the field, written line for line
	Name string   // "" for an embedded field; "A, B" for several names
	Type string
	Tag  string // the tag's text without quotes, "" for none
}

// Struct writes "type name struct {...}", one field a line, after any
// pending Doc; with no fields, "type name struct{}".
//
// gofmt aligns names, types and tags in columns (go/printer's fieldList):
// a named field is name, tab, type and, with a tag, tab, an empty cell,
// tab, tag; an embedded field is its type and, with a tag, tab, tag. So the
// types line up across consecutive fields that have a name; the tags line
// up across consecutive fields that have a name and a tag (a field without
// a tag between two tagged ones splits their tags' column), an embedded
// field's tag stands in the type column, and an embedded field without a
// tag splits the name column. A comment above a field starts a new
// section: the fields above it and below it are aligned separately. No
// size heuristic splits a section. A struct of one field is not aligned at
// all: gofmt separates its parts by one blank each.
func (f *File) Struct(name string, fields []Field) {
	oneLine("type name", name)
	for _, fd := range fields {
		oneLine("field", fd.Name, fd.Type)
	}
	f.begin(true)
	f.buf.WriteString("type ")
	f.buf.WriteString(name)
	if len(fields) == 0 {
		f.buf.WriteString(" struct{}\n")
		return
	}
	f.buf.WriteString(" struct {\n")
	if len(fields) == 1 {
		fd := fields[0]
		f.memberDoc("\t", fd.Doc)
		f.buf.WriteByte('\t')
		if fd.Name != "" {
			f.buf.WriteString(fd.Name)
			f.buf.WriteByte(' ')
		}
		f.buf.WriteString(fd.Type)
		if fd.Tag != "" {
			f.buf.WriteByte(' ')
			f.writeTail(tagText(fd.Tag))
		}
		f.buf.WriteString("\n}\n")
		return
	}
	rows := f.rowsFor(len(fields))
	for i, fd := range fields {
		r := &rows[i]
		r.brk = len(fd.Doc) > 0
		switch {
		case fd.Name != "" && fd.Tag != "":
			r.cells, r.n = [maxCells]string{fd.Name, fd.Type, ""}, 3
			r.tail, r.raw = tagText(fd.Tag)
		case fd.Name != "":
			r.cells[0], r.n, r.tail = fd.Name, 1, fd.Type
		case fd.Tag != "":
			r.cells[0], r.n = fd.Type, 1
			r.tail, r.raw = tagText(fd.Tag)
		default:
			r.tail = fd.Type
		}
	}
	align(rows)
	for i, fd := range fields {
		f.memberDoc("\t", fd.Doc)
		f.writeRow("\t", &rows[i], "\n")
	}
	f.buf.WriteString("}\n")
}

// tagText returns the text of a struct tag's literal and whether it is to
// be written in back quotes, as a raw string, which it is when a raw string
// can hold the tag (the common case, which needs no allocation). A raw
// string cannot hold a back quote, loses carriage returns to the scanner,
// and must not hold a line break, a NUL, a byte order mark or invalid
// UTF-8, which the scanner rejects; such a tag is quoted instead.
func tagText(tag string) (text string, raw bool) {
	if utf8.ValidString(tag) && !strings.ContainsAny(tag, "`\r\n\x00\uFEFF") {
		return tag, true
	}
	return strconv.Quote(tag), false
}

// Var writes "var name = typ{...}" with one element a line, each followed
// by a comma, after any pending Doc; with no elements, "var name = typ{}".
// Each element is one line of gofmt-clean expression text that is not a
// key: value pair (gofmt aligns those; see KeyedVar).
func (f *File) Var(name, typ string, elems []string) {
	oneLine("var", name, typ)
	for _, e := range elems {
		oneLine("element", e)
	}
	f.begin(true)
	f.buf.WriteString("var ")
	f.buf.WriteString(name)
	f.buf.WriteString(" = ")
	f.buf.WriteString(typ)
	if len(elems) == 0 {
		f.buf.WriteString("{}\n")
		return
	}
	f.buf.WriteString("{\n")
	for _, e := range elems {
		f.buf.WriteByte('\t')
		f.buf.WriteString(e)
		f.buf.WriteString(",\n")
	}
	f.buf.WriteString("}\n")
}

// A KeyValue is an element of a composite literal with a key.
type KeyValue struct {
	Key, Value string
}

// KeyedVar writes "var name = typ{...}" with one key: value element a line,
// after any pending Doc; with no elements, "var name = typ{}".
//
// gofmt aligns the values of consecutive keyed elements one column past
// the widest "key:", but breaks the alignment section before an element
// whose key size is out of proportion with those before it (go/printer's
// exprList): when the key or the previous key is longer than 40 bytes, a
// section break comes before the key when the ratio of its size to the
// geometric mean of the sizes of the keys before it in its section is at
// most 1/2.5 or at least 2.5. A literal of one element is not aligned.
func (f *File) KeyedVar(name, typ string, elems []KeyValue) {
	oneLine("var", name, typ)
	for _, e := range elems {
		oneLine("element", e.Key, e.Value)
	}
	f.begin(true)
	f.buf.WriteString("var ")
	f.buf.WriteString(name)
	f.buf.WriteString(" = ")
	f.buf.WriteString(typ)
	switch len(elems) {
	case 0:
		f.buf.WriteString("{}\n")
		return
	case 1:
		f.buf.WriteString("{\n\t")
		f.buf.WriteString(elems[0].Key)
		f.buf.WriteString(": ")
		f.buf.WriteString(elems[0].Value)
		f.buf.WriteString(",\n}\n")
		return
	}
	f.buf.WriteString("{\n")
	rows := f.rowsFor(len(elems))
	// The sizes are the keys' lengths in bytes, as go/printer measures
	// them, and the arithmetic is go/printer's, so that the decision is
	// the same to the last bit.
	const smallSize = 40
	const r = 2.5
	lnsum, count, prevSize := 0.0, 0, 0
	for i, e := range elems {
		size := len(e.Key)
		useFF := true
		if prevSize > 0 && size > 0 {
			if count == 0 || prevSize <= smallSize && size <= smallSize {
				useFF = false
			} else {
				geomean := math.Exp(lnsum / float64(count))
				ratio := float64(size) / geomean
				useFF = r*ratio <= 1 || r <= ratio
			}
		}
		rows[i] = row{cells: [maxCells]string{e.Key}, n: 1, colon: true, tail: e.Value, brk: useFF}
		if useFF {
			// A section break restarts the mean: linebreak reports a form
			// feed as two line breaks, and exprList resets the mean when
			// there were more than one.
			lnsum, count = 0, 0
		}
		if size > 0 {
			lnsum += math.Log(float64(size))
			count++
		}
		prevSize = size
	}
	align(rows)
	for i := range rows {
		f.writeRow("\t", &rows[i], ",\n")
	}
	f.buf.WriteString("}\n")
}

// A Spec is one const or var spec: names, an optional type, an optional
// value.
type Spec struct {
	Doc   []string // comment lines above the spec, written line for line
	Name  string   // "A" or "A, B"
	Type  string   // "" for none
	Value string   // "" for none; "1, 2" for several
}

// Consts writes a "const (...)" group of the specs, after any pending Doc
// (the group's doc comment). See Vars for the layout.
func (f *File) Consts(specs []Spec) { f.group("const", specs) }

// Vars writes a "var (...)" group of the specs, after any pending Doc (the
// group's doc comment).
//
// gofmt aligns names, types and "= values" in columns (go/printer's
// valueSpec), with tabwriter semantics: a column lines up across
// consecutive lines that have a cell in it. A spec is its names, then, if
// it has a type or keeps the type column, a tab and the type (an empty
// cell when it keeps the column without a type), then, if it has a value,
// a tab and "= value". A spec keeps the type column when it has a value and
// belongs to a run of consecutive specs with values of which one has a type
// (keepTypeColumn): so "B = 2" below "A T = 1" leaves room for a type. So
// a spec without a value ends the run; its type, if any, is not a cell, so
// it splits the type column but not the name column; a spec with neither
// splits both. A comment above a spec starts a new alignment section but
// not a new run: a section whose type cells are all empty has no type
// column at all. No size heuristic splits a section. A group of one spec
// is not aligned; its parts are separated by one blank each.
func (f *File) Vars(specs []Spec) { f.group("var", specs) }

// group writes a const or var group.
func (f *File) group(tok string, specs []Spec) {
	for _, s := range specs {
		oneLine(tok, s.Name, s.Type, s.Value)
	}
	f.begin(true)
	f.buf.WriteString(tok)
	if len(specs) == 0 {
		f.buf.WriteString(" ()\n")
		return
	}
	f.buf.WriteString(" (\n")
	if len(specs) == 1 {
		f.memberDoc("\t", specs[0].Doc)
		f.buf.WriteByte('\t')
		f.spec(specs[0])
		f.buf.WriteString(")\n")
		return
	}
	// keep: each run of consecutive specs with values that has a spec
	// with a type keeps the type column in all of them.
	keep := make([]bool, len(specs))
	for i := 0; i < len(specs); {
		if specs[i].Value == "" {
			i++
			continue
		}
		j, typed := i, false
		for ; j < len(specs) && specs[j].Value != ""; j++ {
			typed = typed || specs[j].Type != ""
		}
		for k := i; k < j; k++ {
			keep[k] = typed
		}
		i = j
	}
	// A spec with a doc comment starts a new alignment section (align),
	// so the specs are laid out a section at a time: a block of 100,000
	// documented constants needs one row of scratch, not 100,000.
	for i := 0; i < len(specs); {
		j := i + 1
		for j < len(specs) && len(specs[j].Doc) == 0 {
			j++
		}
		rows := f.rowsFor(j - i)
		for k, s := range specs[i:j] {
			r := &rows[k]
			*r = row{brk: len(s.Doc) > 0}
			switch {
			case s.Value == "" && s.Type == "":
				r.tail = s.Name
			case s.Value == "":
				r.cells[0], r.n, r.tail = s.Name, 1, s.Type
			case s.Type != "" || keep[i+k]:
				r.cells[0], r.cells[1], r.n, r.tail, r.assign = s.Name, s.Type, 2, s.Value, true
			default:
				r.cells[0], r.n, r.tail, r.assign = s.Name, 1, s.Value, true
			}
		}
		align(rows)
		for k, s := range specs[i:j] {
			f.memberDoc("\t", s.Doc)
			f.writeRow("\t", &rows[k], "\n")
		}
		i = j
	}
	f.buf.WriteString(")\n")
}

// spec writes the names, type and value of s separated by blanks, and a
// newline: the layout of a spec that is not aligned with others.
func (f *File) spec(s Spec) {
	f.buf.WriteString(s.Name)
	if s.Type != "" {
		f.buf.WriteByte(' ')
		f.buf.WriteString(s.Type)
	}
	if s.Value != "" {
		f.buf.WriteString(" = ")
		f.buf.WriteString(s.Value)
	}
	f.buf.WriteByte('\n')
}

// Const writes the single spec "const name type = value" without
// parentheses. Its Doc is the declaration's doc comment, formatted as
// such; a pending Doc may be used instead, not both.
func (f *File) Const(s Spec) { f.single("const", s) }

// VarSpec writes the single spec "var name type = value" without
// parentheses. Its Doc is the declaration's doc comment, formatted as
// such; a pending Doc may be used instead, not both.
func (f *File) VarSpec(s Spec) { f.single("var", s) }

func (f *File) single(tok string, s Spec) {
	oneLine(tok, s.Name, s.Type, s.Value)
	if len(s.Doc) > 0 {
		if f.doc != nil {
			panic("printer: both Doc and Spec.Doc given for " + s.Name)
		}
		f.Doc(s.Doc...)
	}
	f.begin(true)
	f.buf.WriteString(tok)
	f.buf.WriteByte(' ')
	f.spec(s)
}
