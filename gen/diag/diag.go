// Package diag holds positioned diagnostics: the problems errgen finds in a
// catalogue, each tied to the line and column where it starts.
package diag

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Pos is a position in a catalogue file. Line and Col count from 1; a zero
// Line means the problem concerns the whole file.
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats p as FILE:LINE:COL, the form editors and CI annotate.
// A file name that a terminal or CI log could act on is quoted (see Path):
// a diagnostic line must not be made to say something else by the name of
// the file it is about.
func (p Pos) String() string {
	if p.Line == 0 {
		return Path(p.File)
	}
	return Path(p.File) + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Severity says whether a diagnostic stops generation.
type Severity int

const (
	// Error is a problem that makes the catalogue unusable.
	Error Severity = iota
	// Warning is a problem worth fixing that does not stop generation.
	Warning
)

// Diagnostic is one problem at one position.
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Msg      string
}

// String formats d as "FILE:LINE:COL: message", with "warning: " before the
// message of a warning.
func (d Diagnostic) String() string {
	prefix := ""
	if d.Severity == Warning {
		prefix = "warning: "
	}
	return d.Pos.String() + ": " + prefix + d.Msg
}

// List collects diagnostics in the order they were found.
type List []Diagnostic

// Errorf adds an error at pos.
func (l *List) Errorf(pos Pos, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, Severity: Error, Msg: fmt.Sprintf(format, args...)})
}

// Warnf adds a warning at pos.
func (l *List) Warnf(pos Pos, format string, args ...any) {
	*l = append(*l, Diagnostic{Pos: pos, Severity: Warning, Msg: fmt.Sprintf(format, args...)})
}

// HasErrors reports whether l holds at least one error (warnings do not count).
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Severity == Error })
}

// Sort orders l by file, line and column, keeping the order of diagnostics
// at the same position, and drops exact repeats.
func (l List) Sort() List {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		return cmp.Or(
			strings.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
		)
	})
	// Drop repeats: they stand at the same position, though not always
	// next to each other.
	out := make(List, 0, len(l))
	for i, d := range l {
		group := i
		for group > 0 && l[group-1].Pos == d.Pos {
			group--
		}
		if !slices.Contains(l[group:i], d) {
			out = append(out, d)
		}
	}
	return out
}

// Print writes each diagnostic of l on its own line.
func (l List) Print(w io.Writer) {
	for _, d := range l {
		fmt.Fprintln(w, d.String())
	}
}
