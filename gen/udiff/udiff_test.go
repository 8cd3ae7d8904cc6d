package udiff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// apply applies a unified diff produced by Diff to a, the way patch(1)
// would, and returns the result.
func apply(t *testing.T, a, diff string) string {
	t.Helper()
	src := lines(a)
	var out []string
	next := 0 // index of the next line of src not yet copied
	rows := strings.SplitAfter(diff, "\n")
	for i := 2; i < len(rows); i++ {
		row := rows[i]
		if row == "" {
			continue
		}
		if strings.HasPrefix(row, "@@ ") {
			var oldStart, oldLen, newStart, newLen int
			if _, err := fmtSscanf(row, &oldStart, &oldLen, &newStart, &newLen); err != nil {
				t.Fatalf("bad hunk header %q: %v", row, err)
			}
			start := oldStart - 1
			if oldLen == 0 {
				start = oldStart
			}
			out = append(out, src[next:start]...)
			next = start
			continue
		}
		body := row[1:]
		if strings.HasPrefix(rows[min(i+1, len(rows)-1)], `\ No newline`) {
			body += rows[i+1]
			i++
		}
		switch row[0] {
		case ' ':
			if src[next] != body {
				t.Fatalf("context line %q does not match %q", body, src[next])
			}
			out = append(out, body)
			next++
		case '-':
			if src[next] != body {
				t.Fatalf("deleted line %q does not match %q", body, src[next])
			}
			next++
		case '+':
			out = append(out, body)
		default:
			t.Fatalf("unexpected diff line %q", row)
		}
	}
	out = append(out, src[next:]...)
	joined := strings.Join(out, "")
	return strings.ReplaceAll(joined, "\n\\ No newline at end of file\n", "")
}

// fmtSscanf reads a hunk header, "@@ -a,b +c,d @@", in which a length of
// 1 may be left out.
func fmtSscanf(row string, a, b, c, d *int) (int, error) {
	fields := strings.Fields(row)
	if len(fields) < 4 || fields[0] != "@@" || fields[3] != "@@" {
		return 0, fmt.Errorf("not a hunk header")
	}
	ptrs := [][2]*int{{a, b}, {c, d}}
	for i, f := range fields[1:3] {
		start, n, ok := strings.Cut(f[1:], ",")
		if !ok {
			n = "1"
		}
		for k, v := range []string{start, n} {
			x, err := strconv.Atoi(v)
			if err != nil {
				return i, err
			}
			*ptrs[i][k] = x
		}
	}
	return 4, nil
}

func TestDiffApplies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a\n", "b\n", "c\n", "d\n", "e\n"}
	gen := func() string {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(words[r.IntN(len(words))])
		}
		if r.IntN(4) == 0 {
			b.WriteString("tail")
		}
		return b.String()
	}
	for i := range 2000 {
		a, b := gen(), gen()
		d := Diff("a", a, "b", b)
		if (d == "") != (a == b) {
			t.Fatalf("case %d: empty diff %v for a == b %v", i, d == "", a == b)
		}
		if got := apply(t, a, d); got != b {
			t.Fatalf("case %d: applying the diff gave\n%q\nwant\n%q\ndiff:\n%s", i, got, b, d)
		}
	}
}

func TestDiffFormat(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n"
	b := "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\n"
	want := "--- old\n+++ new\n@@ -1,7 +1,7 @@\n one\n two\n three\n-four\n+FOUR\n five\n six\n seven\n"
	if got := Diff("old", a, "new", b); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDiffIsInert checks that a line of a planted file cannot act on a
// terminal or a CI runner when the diff is printed.
func TestDiffIsInert(t *testing.T) {
	a := "package x\n\x1b[2J::error::forged\n  ::warning::x\n##[error]y\nsecret\r\n"
	d := Diff("old", a, "new", "package x\n")
	for _, line := range strings.Split(d, "\n") {
		body := strings.TrimLeft(line, " -+")
		if strings.ContainsAny(line, "\x1b\r") || strings.HasPrefix(strings.TrimLeft(body, " \t"), "::") || strings.Contains(line, "##[") {
			t.Errorf("live line %q in\n%s", line, d)
		}
	}
	if !strings.Contains(d, `-\x1b[2J::error::forged`) || !strings.Contains(d, `-secret\x0d`) {
		t.Errorf("escaped lines missing:\n%s", d)
	}
}

// TestDiffIsBounded checks that a huge difference prints a bounded diff
// that says how much it left out.
func TestDiffIsBounded(t *testing.T) {
	var a, b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&a, "old %d\n", i)
		fmt.Fprintf(&b, "new %d\n", i)
	}
	d := Diff("old", a.String(), "new", b.String())
	if n := strings.Count(d, "\n"); n > maxLines+10 {
		t.Errorf("diff of %d lines", n)
	}
	if !strings.Contains(d, "diff cut after") || !strings.Contains(d, "10000 lines in all") {
		t.Errorf("no cut marker:\n%s", d[len(d)-200:])
	}
}

// TestDiffMergesCloseHunks pins where two changes share a hunk: when at
// most twice the context lies between them, their context would overlap,
// so they print as one; one line more and they are two.
func TestDiffMergesCloseHunks(t *testing.T) {
	lines := func(changed ...int) string {
		var b strings.Builder
		for i := range 20 {
			if slices.Contains(changed, i) {
				fmt.Fprintf(&b, "changed %d\n", i)
			} else {
				fmt.Fprintf(&b, "line %d\n", i)
			}
		}
		return b.String()
	}
	base := lines()
	for _, tc := range []struct {
		second, hunks int
	}{
		{3 + 2*context, 1}, // 2*context unchanged lines between the changes
		{3 + 2*context + 1, 2},
	} {
		d := Diff("a", base, "b", lines(3, tc.second))
		if got := strings.Count(d, "@@ -"); got != tc.hunks {
			t.Errorf("changes at 3 and %d: %d hunks, want %d:\n%s", tc.second, got, tc.hunks, d)
		}
	}
}

// TestDiffOneLineRange checks the hunk header as diff -u and git diff
// write it: a side of one line gives its start alone.
func TestDiffOneLineRange(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"x\n", "y\n", "@@ -1 +1 @@\n-x\n+y\n"},
		{"x\n", "x\ny\n", "@@ -1 +1,2 @@\n x\n+y\n"},
		{"", "y\n", "@@ -0,0 +1 @@\n+y\n"},
		{"x\n", "", "@@ -1 +0,0 @@\n-x\n"},
		{"x\ny\n", "y\n", "@@ -1,2 +1 @@\n-x\n y\n"},
	} {
		got := Diff("a", tc.a, "b", tc.b)
		if want := "--- a\n+++ b\n" + tc.want; got != want {
			t.Errorf("Diff(%q, %q) =\n%s\nwant\n%s", tc.a, tc.b, got, want)
		}
	}
}
