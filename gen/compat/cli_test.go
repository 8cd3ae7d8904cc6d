package compat_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/errgen/errgen/gen/cli"
	"github.com/errgen/errgen/gen/compat"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/compat, testdata/diff")

// runCLI runs errgen in-process in dir and returns what it printed in the
// form of a want file: standard output, each line of standard error
// prefixed with "stderr: ", then the exit status.
func runCLI(t *testing.T, dir string, args ...string) string {
	t.Helper()
	t.Chdir(dir)
	// Annotations name files relative to the Actions workspace; keep the
	// tests independent of where they run.
	t.Setenv("GITHUB_WORKSPACE", "")
	var stdout, stderr bytes.Buffer
	code := cli.Run(args, &stdout, &stderr)
	var b strings.Builder
	b.WriteString(stdout.String())
	for _, line := range lines(stderr.String()) {
		b.WriteString("stderr: " + line + "\n")
	}
	fmt.Fprintf(&b, "exit %d\n", code)
	return b.String()
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func file(ar *txtar.Archive, name string) (int, bool) {
	i := slices.IndexFunc(ar.Files, func(f txtar.File) bool { return f.Name == name })
	return i, i >= 0
}

// TestCompatGolden runs errgen compat on every pair of catalogues in
// testdata/compat. Each archive holds base.yaml, head.yaml (written as
// errors.yaml), optional args (extra flags), and want: what the command
// prints and its exit status. want.json and want.github, when present,
// hold the output of --format json and --format github; want.diff.json
// that of errgen diff --format json on the same pair.
func TestCompatGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "compat", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases in testdata/compat")
	}
	reported := map[string]bool{}
	ruleRE := regexp.MustCompile(`^errors\.yaml:\d+:\d+: (?:note: )?([A-Z_]+): `)
	for _, path := range files {
		path, _ = filepath.Abs(path)
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ar := txtar.Parse(data)
		for _, line := range lines(string(data)) {
			if m := ruleRE.FindStringSubmatch(line); m != nil {
				reported[m[1]] = true
			}
		}
		t.Run(name, func(t *testing.T) {
			if c := strings.TrimSpace(string(ar.Comment)); c == "" || strings.Contains(c, "\n") {
				t.Errorf("the comment must be one line saying what the case checks, got %q", c)
			}
			dir := writePair(t, ar)
			args := []string{"compat", "--against", "base.yaml"}
			if i, ok := file(ar, "args"); ok {
				args = append(args, strings.Fields(string(ar.Files[i].Data))...)
			}
			changed := false
			for _, want := range []string{"want", "want.json", "want.github", "want.diff.json"} {
				i, ok := file(ar, want)
				if !ok {
					if want == "want" {
						t.Fatal("no want in the archive")
					}
					continue
				}
				a := args
				if want == "want.diff.json" {
					a = append([]string{"diff"}, args[1:]...)
					a = append(a, "--format", "json")
				} else if format, ok := strings.CutPrefix(want, "want."); ok {
					a = append(slices.Clone(args), "--format", format)
				}
				got := runCLI(t, dir, a...)
				if *update {
					if string(ar.Files[i].Data) != got {
						ar.Files[i].Data, changed = []byte(got), true
					}
					continue
				}
				if diff := cmp.Diff(string(ar.Files[i].Data), got); diff != "" {
					t.Errorf("errgen %s: output differs from %s (-want +got); run go test ./gen/compat -update to accept:\n%s", strings.Join(a, " "), want, diff)
				}
			}
			if changed {
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if *update {
		return
	}
	// Every rule has a case that reports it; the rules across the
	// catalogues of a registry need a git repository of several files, and
	// gen/cli's registry tests (TestCompatRegistry and those after it)
	// report each of them.
	acrossRegistry := []string{compat.CodeMoved, compat.RangeShrunk, compat.OwnerChanged, compat.CatalogueRemoved, compat.CatalogueMoved}
	for _, r := range compat.Rules {
		if !reported[r.ID] && !slices.Contains(acrossRegistry, r.ID) {
			t.Errorf("rule %s is reported by no case in testdata/compat", r.ID)
		}
	}
}

// writePair writes a case's base.yaml, and its head.yaml as errors.yaml,
// into a new folder, and returns the folder.
func writePair(t *testing.T, ar *txtar.Archive) string {
	t.Helper()
	dir := t.TempDir()
	for src, dst := range map[string]string{"base.yaml": "base.yaml", "head.yaml": "errors.yaml"} {
		i, ok := file(ar, src)
		if !ok {
			t.Fatalf("no %s in the archive", src)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), ar.Files[i].Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
