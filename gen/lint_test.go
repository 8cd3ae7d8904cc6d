package gen_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/errgen/errgen/gen"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestLintGolden runs every broken catalogue in testdata/lint through
// gen.Parse and compares the diagnostics with the archive's want file. Each
// archive holds errors.yaml (the catalogue) and want (one diagnostic a
// line); its comment says which rule the case pins.
func TestLintGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "lint", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases in testdata/lint")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			if c := strings.TrimSpace(string(ar.Comment)); c == "" || strings.Contains(c, "\n") {
				t.Errorf("the comment must be one line saying which rule the case exercises, got %q", c)
			}
			src, wantIdx := section(t, ar, "errors.yaml"), -1
			for i, f := range ar.Files {
				if f.Name == "want" {
					wantIdx = i
				}
			}

			m, diags := gen.Parse("errors.yaml", src)
			var b strings.Builder
			for _, d := range diags {
				b.WriteString(d.String())
				b.WriteByte('\n')
			}
			got := b.String()

			checkLines(t, got, src)
			hasError := false
			for _, line := range lines(got) {
				if !isWarning(line) {
					hasError = true
				}
			}
			if hasError != (m == nil) {
				t.Errorf("errors reported: %v, but model is nil: %v", hasError, m == nil)
			}

			if *update {
				if wantIdx < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantIdx = len(ar.Files) - 1
				}
				ar.Files[wantIdx].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantIdx < 0 {
				t.Fatal("archive has no want file; run with -update")
			}
			want := string(ar.Files[wantIdx].Data)
			for _, line := range lines(want) {
				if !isWarning(line) && m != nil {
					t.Errorf("want has the error %q, but Parse returned a model", line)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics differ (-want +got):\n%s", diff)
			}
		})
	}
}

// section returns the named file of ar, failing the test if it is missing.
func section(t *testing.T, ar *txtar.Archive, name string) []byte {
	t.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("archive has no %s file", name)
	return nil
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

var posRE = regexp.MustCompile(`^errors\.yaml:([0-9]+):([0-9]+): (.*)$`)

func isWarning(line string) bool {
	m := posRE.FindStringSubmatch(line)
	return m != nil && strings.HasPrefix(m[3], "warning: ")
}

// checkLines asserts that every diagnostic names a position inside src.
func checkLines(t *testing.T, got string, src []byte) {
	t.Helper()
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	n = max(n, 1) // an empty file is reported at 1:1
	for _, line := range lines(got) {
		m := posRE.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("diagnostic does not start with errors.yaml:LINE:COL: : %q", line)
			continue
		}
		ln, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if ln < 1 || col < 1 || ln > n {
			t.Errorf("diagnostic %q: position %d:%d is outside the %d-line input", line, ln, col, n)
		}
	}
}
