// Package udiff writes unified diffs of text files, for `errgen generate
// --check` to show what is stale.
//
// The old side is a file on disk that a pull request may have planted, and
// the diff goes to a CI log. So the output is bounded (maxLines) and every
// line is made inert (diag.Inert): an escape sequence, a carriage return or
// a workflow command in a file shows as text.
package udiff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/diag"
)

// maxLines bounds the lines of hunks one diff prints; the rest is counted.
const maxLines = 1000

// maxEdits bounds the work of the diff. Stale generated files usually
// differ by a hand edit or a catalogue change of a few lines; beyond this
// many edited lines the whole file is shown as replaced.
const maxEdits = 2000

// context is the number of unchanged lines shown around each change.
const context = 3

// Diff returns the unified diff that turns a (named oldName) into b (named
// newName), or "" when they are equal.
func Diff(oldName, a, newName, b string) string {
	if a == b {
		return ""
	}
	x, y := lines(a), lines(b)
	ops := edits(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", diag.Inert(oldName), diag.Inert(newName))
	printed := 0
	for _, h := range hunks(ops) {
		if printed+len(h) > maxLines {
			rest := 0
			for _, o := range ops {
				if o.kind != ' ' {
					rest++
				}
			}
			fmt.Fprintf(&out, "@@ diff cut after %d lines; the files differ in %d lines in all @@\n", printed, rest)
			break
		}
		writeHunk(&out, h, x, y)
		printed += len(h)
	}
	return out.String()
}

// lines splits s into lines, each keeping its newline; a last line without
// one is marked as in diff(1).
func lines(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	} else {
		parts[len(parts)-1] += "\n\\ No newline at end of file\n"
	}
	return parts
}

// op is one line of an edit script: kept, deleted from x or inserted from y.
type op struct {
	kind byte // ' ', '-' or '+'
	i, j int  // line indexes in x and y
}

// edits returns a shortest edit script from x to y (Myers' algorithm), or
// a whole replacement when the files differ in more than maxEdits lines.
func edits(x, y []string) []op {
	n, m := len(x), len(y)
	maxD := min(n+m, maxEdits)
	offset := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := false
	for d := 0; d <= maxD && !found; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				i = v[offset+k+1]
			} else {
				i = v[offset+k-1] + 1
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i, j = i+1, j+1
			}
			v[offset+k] = i
			if i >= n && j >= m {
				found = true
				break
			}
		}
	}
	if !found {
		var ops []op
		for i := range x {
			ops = append(ops, op{'-', i, 0})
		}
		for j := range y {
			ops = append(ops, op{'+', n, j})
		}
		return ops
	}
	// Walk the trace back from the end to recover the script.
	var rev []op
	i, j := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d]
		k := i - j
		var prevK int
		if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevI := v[offset+prevK]
		prevJ := prevI - prevK
		for i > prevI && j > prevJ {
			i, j = i-1, j-1
			rev = append(rev, op{' ', i, j})
		}
		if d > 0 {
			if i == prevI {
				j--
				rev = append(rev, op{'+', i, j})
			} else {
				i--
				rev = append(rev, op{'-', i, j})
			}
		}
	}
	ops := make([]op, len(rev))
	for k := range rev {
		ops[k] = rev[len(rev)-1-k]
	}
	return ops
}

// hunks groups an edit script into runs of changes with context lines.
func hunks(ops []op) [][]op {
	var out [][]op
	start := -1
	lastChange := -1
	for k, o := range ops {
		if o.kind == ' ' {
			continue
		}
		if start >= 0 && k-lastChange > 2*context {
			out = append(out, ops[start:min(lastChange+context+1, len(ops))])
			start = -1
		}
		if start < 0 {
			start = max(k-context, 0)
		}
		lastChange = k
	}
	if start >= 0 {
		out = append(out, ops[start:min(lastChange+context+1, len(ops))])
	}
	return out
}

func writeHunk(out *strings.Builder, h []op, x, y []string) {
	var oldLen, newLen int
	for _, o := range h {
		if o.kind != '+' {
			oldLen++
		}
		if o.kind != '-' {
			newLen++
		}
	}
	oldStart, newStart := h[0].i+1, h[0].j+1
	if oldLen == 0 {
		oldStart--
	}
	if newLen == 0 {
		newStart--
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(oldStart, oldLen), hunkRange(newStart, newLen))
	for _, o := range h {
		switch o.kind {
		case ' ':
			out.WriteString(" " + inertLine(x[o.i]))
		case '-':
			out.WriteString("-" + inertLine(x[o.i]))
		case '+':
			out.WriteString("+" + inertLine(y[o.j]))
		}
	}
}

// hunkRange writes one side of a hunk header as diff -u and git diff do:
// the length is left out when it is 1.
func hunkRange(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// inertLine makes one line of a file (ending in a newline, or in the
// no-newline marker) safe to print.
func inertLine(line string) string {
	body, marker, _ := strings.Cut(line, "\n")
	return diag.Inert(body) + "\n" + marker
}
