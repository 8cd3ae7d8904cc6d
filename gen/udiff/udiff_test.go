package udiff

import (
	"math/rand/v2"
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

func fmtSscanf(row string, a, b, c, d *int) (int, error) {
	fields := strings.FieldsFunc(row, func(r rune) bool { return strings.ContainsRune("@ -+,", r) })
	ptrs := []*int{a, b, c, d}
	for i, f := range fields[:4] {
		n, err := strconv.Atoi(f)
		if err != nil {
			return i, err
		}
		*ptrs[i] = n
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
