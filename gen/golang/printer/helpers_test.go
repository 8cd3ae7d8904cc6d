package printer_test

import (
	"bytes"
	"go/build/constraint"
	"go/format"
	"go/scanner"
	"go/token"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/errgen/errgen/gen/golang/printer"
)

// render builds a file of package p without a header with build and
// returns it, after checking it with checkFile.
func render(t *testing.T, build func(f *printer.File)) string {
	t.Helper()
	f := printer.NewFile("", "p")
	build(f)
	out := f.Bytes()
	checkFile(t, out)
	return string(out)
}

// decls is render without the package clause: the declarations only.
func decls(t *testing.T, build func(f *printer.File)) string {
	t.Helper()
	out := render(t, build)
	rest, ok := strings.CutPrefix(out, "package p\n\n")
	if !ok {
		t.Fatalf("no declarations after the package clause:\n%s", out)
	}
	return rest
}

// checkFile fails unless src is exactly what gofmt makes of it and none of
// its comment lines is a build constraint.
func checkFile(t *testing.T, src []byte) {
	t.Helper()
	if msg := gofmtDiff(src); msg != "" {
		t.Error(msg)
	}
	if line := constraintLine(src); line != "" {
		t.Errorf("comment line %q is a build constraint in\n%s", line, src)
	}
}

// gofmtDiff returns "" if gofmt leaves src as it is, and otherwise what it
// changes.
func gofmtDiff(src []byte) string {
	formatted, err := format.Source(src)
	if err != nil {
		return "gofmt: " + err.Error() + "\n" + string(src)
	}
	if !bytes.Equal(formatted, src) {
		return "not a gofmt fixed point (-printer +gofmt):\n" + cmp.Diff(string(src), string(formatted))
	}
	return ""
}

// constraintLine returns the first comment line of src that
// go/build/constraint reads as a //go:build or +build line, or "".
func constraintLine(src []byte) string {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("x.go", -1, len(src)), src, nil, scanner.ScanComments)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return ""
		}
		if tok != token.COMMENT {
			continue
		}
		for _, line := range strings.Split(lit, "\n") {
			if constraint.IsGoBuild(line) || constraint.IsPlusBuild(line) {
				return line
			}
		}
	}
}

// gofmt returns what gofmt makes of src, failing the test if it cannot.
func gofmt(t *testing.T, src string) string {
	t.Helper()
	out, err := format.Source([]byte(src))
	if err != nil {
		t.Fatalf("gofmt: %v\n%s", err, src)
	}
	return string(out)
}

// collapse undoes alignment: it replaces each run of blanks inside a code
// line (not in a comment line) with one blank. gofmt must align the result
// back to the printer's output; that shows the columns are gofmt's own,
// computed from scratch, not just a layout gofmt happens to keep.
func collapse(src string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		body := strings.TrimLeft(l, "\t")
		if strings.HasPrefix(body, "//") {
			continue
		}
		for strings.Contains(body, "  ") {
			body = strings.ReplaceAll(body, "  ", " ")
		}
		lines[i] = l[:len(l)-len(strings.TrimLeft(l, "\t"))] + body
	}
	return strings.Join(lines, "\n")
}

// diff fails the test with a diff when got is not want.
func diff(t *testing.T, want, got string) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s\ngot:\n%s", d, got)
	}
}
