package cli_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/errgen/errgen/gen/cli"
	"github.com/errgen/errgen/gen/golang"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/synth"
)

var update = flag.Bool("update", false, "rewrite golden files")

// runCLI runs errgen in-process and returns its exit status and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// genCase is a catalogue of testdata/gen with its expected output.
type genCase struct {
	name string
	path string
	ar   *txtar.Archive
	src  []byte
}

func genCases(t *testing.T) []genCase {
	t.Helper()
	paths, err := filepath.Glob("../../testdata/gen/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases in testdata/gen: %v", err)
	}
	var cases []genCase
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := genCase{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), path: p, ar: ar}
		for _, f := range ar.Files {
			if f.Name == "errors.yaml" {
				c.src = f.Data
			}
		}
		if c.src == nil {
			t.Fatalf("%s has no errors.yaml", p)
		}
		cases = append(cases, c)
	}
	return cases
}

// generate writes src as errors.yaml into a new folder, runs errgen
// generate there, and returns the folder.
func generate(t *testing.T, src []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "errors.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "generate", filepath.Join(dir, "errors.yaml")); code != 0 {
		t.Fatalf("errgen generate exited %d:\n%s", code, stderr)
	}
	return dir
}

// readTree returns every file below dir except the catalogue, by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if rel == "errors.yaml" || rel == "go.mod" {
			return nil
		}
		data, err := os.ReadFile(path)
		out[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The runtime file is the same for every catalogue but its package clause,
// so only the first case keeps it in its golden archive.

func TestGenerateGolden(t *testing.T) {
	for _, c := range genCases(t) {
		t.Run(c.name, func(t *testing.T) {
			got := readTree(t, generate(t, c.src))
			// The fixed files are the runtime package's, copied (a test of
			// gen/golang holds them to it); their behaviour is tested there.
			delete(got, golang.RuntimeFile)
			delete(got, golang.HarnessFile)
			delete(got, golang.ProjectionsFile)
			names := make([]string, 0, len(got))
			for name := range got {
				names = append(names, name)
			}
			slices.Sort(names)
			if *update {
				ar := &txtar.Archive{Comment: c.ar.Comment, Files: []txtar.File{{Name: "errors.yaml", Data: c.src}}}
				for _, name := range names {
					ar.Files = append(ar.Files, txtar.File{Name: name, Data: got[name]})
				}
				if err := os.WriteFile(c.path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := map[string]string{}
			for _, f := range c.ar.Files {
				if f.Name != "errors.yaml" {
					want[f.Name] = string(f.Data)
				}
			}
			gotText := map[string]string{}
			for name, data := range got {
				gotText[name] = string(data)
			}
			if diff := cmp.Diff(want, gotText); diff != "" {
				t.Errorf("generated files differ from %s (-want +got); run go test ./gen/cli -update to accept:\n%s", c.path, diff)
			}
		})
	}
}

// catalogues returns every catalogue the soundness tests run on: the
// testdata cases, the reference catalogue, and a synthetic one of 500
// variants. (testdata/registry's are built together by
// TestRegistryPackagesBuildTogether.)
func catalogues(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, c := range genCases(t) {
		out[strings.ReplaceAll(c.name, "-", "_")] = c.src
	}
	ref, err := os.ReadFile("../../errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out["reference"] = ref
	out["synthetic500"] = synth.Catalogue(500)
	return out
}

// singleProjections returns, by name, the first testdata case's catalogue
// selecting each projection alone (with the section it needs): the
// projections file keeps of the part the projections share only what the
// selection reaches, which differs from one projection to the next.
func singleProjections(t *testing.T) map[string][]byte {
	t.Helper()
	base := genCases(t)[0].src
	if bytes.Contains(base, []byte("projections:")) {
		t.Fatalf("%s selects projections already", genCases(t)[0].path)
	}
	out := map[string][]byte{}
	for _, name := range model.ProjectionNames {
		src := "projections: [" + name + "]\n"
		switch name {
		case "problem":
			src += "problem: {type_base: \"https://errors.example.com/\"}\n"
		case "grpc":
			src += "grpc: {domain: errors.example.com}\n"
		}
		out["only_"+name] = append(slices.Clip(base), src...)
	}
	return out
}

func TestGenerateIsDeterministic(t *testing.T) {
	for name, src := range catalogues(t) {
		t.Run(name, func(t *testing.T) {
			a, b := readTree(t, generate(t, src)), readTree(t, generate(t, src))
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("two runs differ:\n%s", diff)
			}
		})
	}
}

// TestGeneratedCodeIsSound checks every generated Go file without compiling
// it: formatted, marked as generated, standard-library imports only, no
// directive or line comment a catalogue could have smuggled in.
func TestGeneratedCodeIsSound(t *testing.T) {
	for name, src := range catalogues(t) {
		t.Run(name, func(t *testing.T) {
			for path, data := range readTree(t, generate(t, src)) {
				if !strings.HasSuffix(path, ".go") {
					continue
				}
				checkGoFile(t, path, data)
			}
		})
	}
}

func checkGoFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if formatted, err := format.Source(data); err != nil || !bytes.Equal(formatted, data) {
		t.Errorf("%s is not gofmt-clean (err %v)", path, err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, data, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	if !ast.IsGenerated(f) {
		t.Errorf("%s is not recognised as generated", path)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(first, "// Code generated ") || !strings.HasSuffix(first, " DO NOT EDIT.") {
		t.Errorf("%s: first line %q is not the generated-file line", path, first)
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if head, _, _ := strings.Cut(p, "/"); strings.Contains(head, ".") {
			t.Errorf("%s imports %s, which is not in the standard library", path, p)
		}
	}
	for _, g := range f.Comments {
		for _, c := range g.List {
			for _, line := range strings.Split(c.Text, "\n") {
				if constraint.IsGoBuild(line) || constraint.IsPlusBuild(line) {
					t.Errorf("%s: a comment line is a build constraint: %q", fset.Position(c.Pos()), line)
				}
			}
		}
	}
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		// The runtime, which holds no catalogue text, keeps some of its
		// functions out of line on purpose.
		own := filepath.Base(path) == "errgen_runtime.go" && line == "//go:noinline"
		if !own && (strings.HasPrefix(trimmed, "//go:") || strings.HasPrefix(trimmed, "//line")) {
			t.Errorf("%s:%d: directive-like line %q", path, i+1, line)
		}
		for _, r := range line {
			if (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C {
				t.Errorf("%s:%d: bidi control character %U", path, i+1, r)
			}
		}
	}
}

// TestGeneratedPackagesCompile builds every generated package in a module
// of its own that declares go 1.23 (the oldest Go the output supports: Chain is an iter.Seq), vets
// it, and runs its generated golden tests: those of the catalogues the
// other tests run on, and of one selecting each projection alone.
func TestGeneratedPackagesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests generated packages with the go command")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to compile generated code: %v", err)
	}
	root := t.TempDir()
	mod := "module example.com/generated\n\ngo 1.23\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	all := catalogues(t)
	for name, src := range singleProjections(t) {
		all[name] = src
	}
	for name, src := range all {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "errors.yaml"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runCLI(t, "generate", filepath.Join(dir, "errors.yaml")); code != 0 {
			t.Fatalf("%s: errgen generate exited %d:\n%s", name, code, stderr)
		}
	}
	// The output must hold the same files on every platform: a comment a
	// Go tool read as a build constraint would drop a file from some
	// platforms' builds. go list says which files each platform builds
	// without compiling the standard library for it, which a cold build
	// cache would pay for each platform; the code itself uses nothing
	// that differs between platforms.
	for _, goos := range []string{"linux", "windows", "darwin"} {
		cmd := exec.Command(goBin, "list", "-e", "-f", "{{.ImportPath}}: {{.IgnoredGoFiles}} {{.InvalidGoFiles}} {{.Error}}", "./...")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GOOS=%s go list in the generated module failed: %v\n%s", goos, err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if !strings.HasSuffix(line, ": [] [] <nil>") {
				t.Errorf("GOOS=%s: a package leaves out files or does not load: %s", goos, line)
			}
		}
	}
	// vet builds (type-checks) as it checks.
	for _, args := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s in the generated module failed: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestStaleGoldenNamesTheCommandThatRewritesIt: a golden file that no
// longer matches fails the generated test with the go test command line
// that rewrites it, naming the package by its import path: run from the
// module's root, or from another package's folder whose tests do not
// define -update, that command works where a bare go test -update does
// not.
func TestStaleGoldenNamesTheCommandThatRewritesIt(t *testing.T) {
	if testing.Short() {
		t.Skip("tests a generated package with the go command")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to test generated code: %v", err)
	}
	root := t.TempDir()
	for name, data := range map[string]string{
		"go.mod":              "module example.com/svc\n\ngo 1.23\n",
		"toolerr/errors.yaml": validCatalogue,
		"other/other_test.go": "package other\n\nimport \"testing\"\n\nfunc TestOther(*testing.T) {}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runCLI(t, "generate", filepath.Join(root, "toolerr", "errors.yaml")); code != 0 {
		t.Fatalf("errgen generate exited %d:\n%s", code, stderr)
	}
	golden := filepath.Join(root, "toolerr", "testdata", "tool_timeout.golden.json")
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	stale := bytes.Replace(data, []byte(`"retryable": true`), []byte(`"retryable": false`), 1)
	if bytes.Equal(stale, data) {
		t.Fatalf("%s has no retryable true to change:\n%s", golden, data)
	}
	if err := os.WriteFile(golden, stale, 0o644); err != nil {
		t.Fatal(err)
	}
	goTest := func(dir string, args ...string) (string, error) {
		cmd := exec.Command(goBin, append([]string{"test", "-count=1"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := goTest(root, "./...")
	const want = "testdata/tool_timeout.golden.json is stale; if the change is intended, run go test example.com/svc/toolerr -update and review the diff"
	if err == nil || !strings.Contains(out, want) {
		t.Fatalf("go test ./... with a stale golden file: %v\n%s\nwant it to say:\n%s", err, out, want)
	}
	// It shows where the file differs, not both files whole.
	line := bytes.Count(data[:bytes.Index(data, []byte(`"retryable": true`))], []byte("\n")) + 1
	for _, want := range []string{
		fmt.Sprintf("first difference at line %d (- want, + got):", line),
		`-     "retryable": false`,
		`+     "retryable": true`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("go test ./... with a stale golden file does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"user_message"`) {
		t.Errorf("go test ./... with a stale golden file prints lines far from the difference:\n%s", out)
	}
	// The command as printed, from another package's folder.
	if out, err := goTest(filepath.Join(root, "other"), "example.com/svc/toolerr", "-update"); err != nil {
		t.Fatalf("go test example.com/svc/toolerr -update: %v\n%s", err, out)
	}
	if out, err := goTest(root, "./..."); err != nil {
		t.Errorf("go test ./... after the rewrite: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(golden); !bytes.Equal(got, data) {
		t.Errorf("the rewritten golden file is not what errgen wrote:\n%s\nwant:\n%s", got, data)
	}
}

// TestSensitiveExamplesStayInTheirInputs: the examples of sensitive fields
// in testdata/gen/008-sensitive hold a canary. The generated tests build
// their errors from the examples, so errgen_test.go holds the canary (the
// test sees it); no golden file, no other generated file, no reference
// page and no explain output does.
func TestSensitiveExamplesStayInTheirInputs(t *testing.T) {
	const canary = "zq9canary"
	var src []byte
	for _, c := range genCases(t) {
		if c.name == "008-sensitive" {
			src = c.src
		}
	}
	if !bytes.Contains(src, []byte(canary)) {
		t.Fatal("testdata/gen/008-sensitive has no canary in its examples")
	}
	dir := t.TempDir()
	catalogue := filepath.Join(dir, "errors.yaml")
	if err := os.WriteFile(catalogue, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "generate", "--docs", "ERRORS.md", catalogue); code != 0 {
		t.Fatalf("errgen generate exited %d:\n%s", code, stderr)
	}
	outputs := readTree(t, dir)
	if !bytes.Contains(outputs["errgen_test.go"], []byte(canary)) {
		t.Errorf("errgen_test.go does not build its errors from the canary examples")
	}
	delete(outputs, "errgen_test.go")
	if _, ok := outputs["ERRORS.md"]; !ok {
		t.Fatal("no ERRORS.md was written")
	}
	for _, code := range []string{"auth_failed", "bad_request", "call_failed"} {
		_, stdout, stderr := runCLI(t, "explain", "--catalogue", catalogue, code)
		outputs["explain "+code] = []byte(stdout + stderr)
	}
	for name, data := range outputs {
		if bytes.Contains(data, []byte(canary)) {
			t.Errorf("%s shows a sensitive field's example:\n%s", name, data)
		}
	}
}

// TestGenerateRefusesAnotherCataloguesPackage: a second catalogue
// generated into the folder of another's package is refused at its
// package key, and nothing is written; once the first catalogue is gone,
// the same run is a rename and takes the package over.
func TestGenerateRefusesAnotherCataloguesPackage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "pkg")
	for _, name := range []string{"a.yaml", "b.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(validCatalogue), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runCLI(t, "generate", "-o", out, filepath.Join(dir, "a.yaml")); code != 0 {
		t.Fatalf("generate a.yaml exited %d:\n%s", code, stderr)
	}
	before, err := os.ReadFile(filepath.Join(out, "errgen.go"))
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "generate", "-o", out, filepath.Join(dir, "b.yaml"))
	line := 1 + strings.Count(validCatalogue[:strings.Index(validCatalogue, "\npackage:")+1], "\n")
	want := fmt.Sprintf("b.yaml:%d:1: ", line)
	if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "generated from") || !strings.Contains(stderr, "own -o folder") || !strings.Contains(stderr, "errgen.registry.yaml") {
		t.Errorf("generate b.yaml into a.yaml's package exited %d, want 1 and %q with its hint:\n%s", code, want, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "errgen.go")); !bytes.Equal(after, before) {
		t.Errorf("the refused run changed errgen.go:\n%s", after)
	}
	if err := os.Rename(filepath.Join(dir, "a.yaml"), filepath.Join(dir, "c.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "b.yaml")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "generate", "-o", out, filepath.Join(dir, "c.yaml")); code != 0 {
		t.Fatalf("generate of the renamed catalogue exited %d:\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "errgen.go")); !bytes.HasPrefix(got, []byte("// Code generated by errgen from c.yaml. DO NOT EDIT.\n")) {
		t.Errorf("after the rename errgen.go starts:\n%.80s", got)
	}
}
