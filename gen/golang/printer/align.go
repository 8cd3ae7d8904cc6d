package printer

import "unicode/utf8"

// maxCells is the most cells a row of an aligned block has: a struct field
// has a name, a type and an empty cell before its tag.
const maxCells = 3

// A row is one line of an aligned block as gofmt's tabwriter sees it: the
// cells that a tab ends (text padded to its column's width), then trailing
// text that is not padded. Leading indentation is not counted as a cell:
// every line of a block has the same.
type row struct {
	cells  [maxCells]string
	n      int    // how many cells
	tail   string // the rest of the line, not padded
	brk    bool   // an alignment section starts at this row
	colon  bool   // the first cell is followed by a colon, inside the cell
	raw    bool   // the tail is written in back quotes: a raw string tag
	assign bool   // the tail is written after "= ": a value
	width  [maxCells]int
}

// cellLen is the width of cell c of r in runes, as tabwriter counts it.
func (r *row) cellLen(c int) int {
	n := utf8.RuneCountInString(r.cells[c])
	if c == 0 && r.colon {
		n++
	}
	return n
}

// align computes the width of every cell of rows the way text/tabwriter
// does with go/printer's settings (padding 1, minimal width 0,
// DiscardEmptyColumns): a column block is a maximal run of consecutive rows
// that have a cell in that column; its width is one more than its widest
// cell, in runes, or zero when all its cells are empty. A row with brk set
// starts new blocks in every column: that is where gofmt writes a comment
// line or a form feed between the rows.
func align(rows []row) {
	for c := range maxCells {
		for i := 0; i < len(rows); {
			if rows[i].n <= c {
				i++
				continue
			}
			w, j := 0, i
			for j < len(rows) && rows[j].n > c && (j == i || !rows[j].brk) {
				w = max(w, rows[j].cellLen(c))
				j++
			}
			if w > 0 {
				w++ // the padding
			}
			for k := i; k < j; k++ {
				rows[k].width[c] = w
			}
			i = j
		}
	}
}

// writeRow writes r after indent, padding each cell to its width, then the
// trailing text and suffix.
func (f *File) writeRow(indent string, r *row, suffix string) {
	f.buf.WriteString(indent)
	for c := range r.n {
		f.buf.WriteString(r.cells[c])
		if c == 0 && r.colon {
			f.buf.WriteByte(':')
		}
		if r.width[c] > 0 {
			f.pad(r.width[c] - r.cellLen(c))
		}
	}
	if r.assign {
		f.buf.WriteString("= ")
	}
	f.writeTail(r.tail, r.raw)
	f.buf.WriteString(suffix)
}

// writeTail writes text, in back quotes if raw is set.
func (f *File) writeTail(text string, raw bool) {
	if raw {
		f.buf.WriteByte('`')
		f.buf.WriteString(text)
		f.buf.WriteByte('`')
		return
	}
	f.buf.WriteString(text)
}

// rowsFor returns the scratch rows, emptied and sized to n.
func (f *File) rowsFor(n int) []row {
	if cap(f.rows) < n {
		f.rows = make([]row, n)
	}
	f.rows = f.rows[:n]
	clear(f.rows)
	return f.rows
}
