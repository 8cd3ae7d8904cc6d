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
	// Dropped, when not 0, makes this diagnostic stand for that many
	// problems past MaxProblems that were counted but not kept; it is an
	// error when one of them was. Pos is then line 1, column 1 of the file.
	Dropped int
	// Echoes, when not "", names the file whose errors this diagnostic
	// only repeats: a catalogue that imports a broken one quotes its
	// first error. Sort drops it from a list that holds an error of that
	// file, which says the same at the place to fix.
	Echoes string
}

// String formats d as "FILE:LINE:COL: message", with "warning: " before the
// message of a warning.
func (d Diagnostic) String() string {
	prefix := ""
	if d.Severity == Warning {
		prefix = "warning: "
	}
	return d.Pos.String() + ": " + prefix + d.Message()
}

// Message is d's message; for a diagnostic that stands for dropped
// problems, how many there were.
func (d Diagnostic) Message() string {
	if d.Dropped > 0 {
		return fmt.Sprintf("%d more problems not reported; fix the ones reported first", d.Dropped)
	}
	return d.Msg
}

// MaxProblems bounds the diagnostics a List keeps, so that a file made of
// a million mistakes costs bounded memory and output. The problems past it
// are only counted, in one last diagnostic.
const MaxProblems = 1000

// List collects diagnostics in the order they were found, at most
// MaxProblems of them and one that counts the rest.
type List []Diagnostic

// Errorf adds an error at pos.
func (l *List) Errorf(pos Pos, format string, args ...any) {
	if l.full(pos, Error) {
		return
	}
	*l = append(*l, Diagnostic{Pos: pos, Severity: Error, Msg: fmt.Sprintf(format, args...)})
}

// Echof adds an error at pos that repeats the errors of file (see
// Diagnostic.Echoes).
func (l *List) Echof(file string, pos Pos, format string, args ...any) {
	if l.full(pos, Error) {
		return
	}
	*l = append(*l, Diagnostic{Pos: pos, Severity: Error, Msg: fmt.Sprintf(format, args...), Echoes: file})
}

// Warnf adds a warning at pos.
func (l *List) Warnf(pos Pos, format string, args ...any) {
	if l.full(pos, Warning) {
		return
	}
	*l = append(*l, Diagnostic{Pos: pos, Severity: Warning, Msg: fmt.Sprintf(format, args...)})
}

// full reports whether l holds MaxProblems diagnostics already, and then
// counts one more problem of severity sev at pos in its last diagnostic,
// which it adds the first time.
func (l *List) full(pos Pos, sev Severity) bool {
	if len(*l) < MaxProblems {
		return false
	}
	last := &(*l)[len(*l)-1]
	if last.Dropped == 0 {
		*l = append(*l, Diagnostic{Pos: Pos{File: pos.File, Line: 1, Col: 1}, Severity: Warning})
		last = &(*l)[len(*l)-1]
	}
	last.Dropped++
	if sev == Error {
		last.Severity = Error
	}
	return true
}

// Dropped is how many problems l counted but did not keep.
func (l List) Dropped() int {
	n := 0
	for _, d := range l {
		n += d.Dropped
	}
	return n
}

// HasErrors reports whether l holds at least one error (warnings do not count).
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Severity == Error })
}

// Sort orders l by file, line and column, keeping the order of diagnostics
// at the same position, and drops exact repeats and the errors that echo
// those of a file l holds errors of: its own, or an echo of another such
// file (a chain of imports).
func (l List) Sort() List {
	failed := map[string]bool{}
	for _, d := range l {
		if d.Severity == Error && d.Echoes == "" && d.Dropped == 0 {
			failed[d.Pos.File] = true
		}
	}
	for grew := len(failed) > 0; grew; {
		grew = false
		for _, d := range l {
			if d.Echoes != "" && failed[d.Echoes] && !failed[d.Pos.File] {
				failed[d.Pos.File], grew = true, true
			}
		}
	}
	if len(failed) > 0 {
		l = slices.DeleteFunc(slices.Clone(l), func(d Diagnostic) bool { return d.Echoes != "" && failed[d.Echoes] })
	}
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		return cmp.Or(
			strings.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(min(a.Dropped, 1), min(b.Dropped, 1)), // the count of dropped ones last
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
		)
	})
	// Drop repeats: they stand at the same position, though not always
	// next to each other. The counts of dropped problems of one file (one
	// per list that was joined) become one.
	out := make(List, 0, len(l))
	for i, d := range l {
		if d.Dropped > 0 {
			if last := len(out) - 1; last >= 0 && out[last].Dropped > 0 && out[last].Pos.File == d.Pos.File {
				out[last].Dropped += d.Dropped
				out[last].Severity = min(out[last].Severity, d.Severity)
				continue
			}
			out = append(out, d)
			continue
		}
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
