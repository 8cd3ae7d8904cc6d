package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/gen/load"
)

const validCatalogue = `version: 1
package: toolerr
user_message: The tool failed ({code}).
categories:
  timeout: The tool ran past its time limit.
families:
  - name: ToolError
    payload_type: tool_error
    variants:
      - name: ToolTimeout
        code: tool_timeout
        num: 1004
        category: timeout
        message: "Execution timeout after {seconds}s: {tool}"
        retryable: true
        fields:
          - {name: tool, type: string, payload: true}
          - {name: seconds, type: uint64}
`

// writeCatalogue writes a catalogue into a new folder and returns its path.
func writeCatalogue(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "errors.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLint(t *testing.T) {
	good := writeCatalogue(t, validCatalogue)
	if code, out, errOut := runCLI(t, "lint", good); code != 0 || out != "" || errOut != "" {
		t.Errorf("lint of a valid catalogue: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	bad := writeCatalogue(t, strings.Replace(validCatalogue, "retryable: true", "retriable: true", 1))
	code, _, errOut := runCLI(t, "lint", bad)
	if code != 1 {
		t.Errorf("lint of a broken catalogue: exit %d, want 1", code)
	}
	if !strings.Contains(errOut, `:15:9: unknown key "retriable" in a variant; did you mean "retryable"?`) {
		t.Errorf("lint did not report the misspelt key with its position:\n%s", errOut)
	}
	warn := writeCatalogue(t, strings.Replace(validCatalogue, "categories:\n", "categories:\n  unused: Nobody uses it.\n", 1))
	if code, _, errOut := runCLI(t, "lint", warn); code != 0 || !strings.Contains(errOut, "warning: category \"unused\"") {
		t.Errorf("a warning must print and exit 0: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "lint", filepath.Join(t.TempDir(), "missing.yaml")); code != 1 || !strings.HasPrefix(errOut, "errgen: open ") {
		t.Errorf("lint of a missing file: exit %d, stderr %q", code, errOut)
	}
}

func TestLintNamesFilesAsGiven(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("errors.yaml", []byte("version: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, errOut := runCLI(t, "lint")
	if !strings.HasPrefix(errOut, "errors.yaml:1:1: ") {
		t.Errorf("diagnostics must name the file relative to the working directory:\n%s", errOut)
	}
	_, _, errOut = runCLI(t, "lint", filepath.Join(dir, "errors.yaml"))
	if !strings.HasPrefix(errOut, "errors.yaml:1:1: ") {
		t.Errorf("an absolute path below the working directory must print relative:\n%s", errOut)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"frobnicate"},
		{"lint", "--nope"},
		{"explain", "a", "b"},
		{"generate", "-o"},
		{"schema", "extra"},
		{"help", "frobnicate"},
		// An empty argument, as an unset shell variable gives.
		{"generate", ""},
		{"lint", "errors.yaml", ""},
		{"explain", ""},
		{"explain", "--catalogue", "", "x"},
		// A registry where one catalogue goes: it lists catalogues.
		{"generate", "../../testdata/registry/errgen.registry.yaml"},
		{"-o", "out", "../../testdata/registry/errgen.registry.yaml"},
		{"explain", "--catalogue", "../../testdata/registry/errgen.registry.yaml", "rate_limited"},
		{"compat", "--against", "../../testdata/registry/errgen.registry.yaml", "../../testdata/registry/tools/errors.yaml"},
		{"diff", "--against", "git:HEAD:testdata/registry/errgen.registry.yaml", "../../testdata/registry/tools/errors.yaml"},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != 2 {
			t.Errorf("errgen %s: exit %d, want 2", strings.Join(args, " "), code)
		}
		if out != "" || !strings.Contains(errOut, "errgen") {
			t.Errorf("errgen %s: usage errors go to stderr: stdout %q, stderr %q", strings.Join(args, " "), out, errOut)
		}
	}
}

// TestCatalogueWhereACommandGoes: `errgen api/errors.yaml` names the
// command that would read it; a word that is no file gets no such hint.
func TestCatalogueWhereACommandGoes(t *testing.T) {
	code, _, errOut := runCLI(t, "api/errors.yaml")
	if code != 2 || !strings.Contains(errOut, `errgen generate "api/errors.yaml"`) {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	// A registry is not generated from: lint checks its catalogues.
	if code, _, errOut := runCLI(t, "sub/errgen.registry.yaml"); code != 2 || strings.Contains(errOut, "errgen generate") ||
		!strings.Contains(errOut, `errgen lint "sub/errgen.registry.yaml"`) {
		t.Errorf("a registry where the command goes: exit %d, stderr:\n%s", code, errOut)
	}
	if _, _, errOut := runCLI(t, "frobnicate"); strings.Contains(errOut, "errgen generate") {
		t.Errorf("a word that names no file got a catalogue hint:\n%s", errOut)
	}
}

// TestMisspeltCommand: a command misspelt names the nearest one, here and
// in help; a word near none gets no suggestion.
func TestMisspeltCommand(t *testing.T) {
	for args, want := range map[string]string{
		"lnt":              `errgen: unknown command "lnt"; did you mean "lint"?`,
		"genrate":          `errgen: unknown command "genrate"; did you mean "generate"?`,
		"explian x":        `errgen: unknown command "explian"; did you mean "explain"?`,
		"compta --tier go": `errgen: unknown command "compta"; did you mean "compat"?`,
		"help lnt":         `errgen help: unknown command "lnt"; did you mean "lint"?`,
		"frobnicate":       `errgen: unknown command "frobnicate"` + "\n",
	} {
		code, _, errOut := runCLI(t, strings.Fields(args)...)
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("errgen %s: exit %d, want 2 and %q in stderr:\n%s", args, code, want, errOut)
		}
	}
}

// TestUsageLineHasNoTrailingSpace: a command without arguments ends its
// usage line at its name.
func TestUsageLineHasNoTrailingSpace(t *testing.T) {
	_, out, _ := runCLI(t, "help", "version")
	if line, _, _ := strings.Cut(out, "\n"); line != "usage: errgen version" {
		t.Errorf("help version starts %q", line)
	}
	if _, _, errOut := runCLI(t, "version", "--nope"); !strings.Contains(errOut, "usage: errgen version\n") {
		t.Errorf("version --nope:\n%q", errOut)
	}
}

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := runCLI(t, "--help")
	if code != 0 || !strings.Contains(out, "generate") || !strings.Contains(out, "lint") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "help", "generate")
	if code != 0 || !strings.Contains(out, "--check") || !strings.Contains(out, "usage: errgen generate") {
		t.Errorf("help generate: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "version")
	if code != 0 || !strings.HasPrefix(out, "errgen ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

func TestSchemaIsJSON(t *testing.T) {
	code, out, _ := runCLI(t, "schema")
	var v map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v["$schema"] == nil {
		t.Errorf("schema: exit %d, output is not a JSON Schema:\n%.200s", code, out)
	}
	for _, key := range load.Keys["variant"] {
		if !strings.Contains(out, `"`+key+`"`) {
			t.Errorf("schema does not mention variant key %q", key)
		}
	}
}

func TestGenerateWritesNothingOnProblems(t *testing.T) {
	path := writeCatalogue(t, strings.Replace(validCatalogue, "num: 1004", "num: 0x10", 1))
	code, _, errOut := runCLI(t, "generate", path)
	if code != 1 || !strings.Contains(errOut, "num must be a plain decimal whole number") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("generate wrote files despite problems: %v", entries)
	}
}

func TestGenerateDefaultCommand(t *testing.T) {
	dir := filepath.Dir(writeCatalogue(t, validCatalogue))
	t.Chdir(dir)
	if code, _, errOut := runCLI(t); code != 0 {
		t.Fatalf("bare errgen: exit %d\n%s", code, errOut)
	}
	for _, name := range []string{"errgen.go", "errgen_runtime.go", "errgen_test.go", "testdata/tool_timeout.golden.json"} {
		st, err := os.Stat(name)
		if err != nil {
			t.Errorf("bare errgen did not write %s: %v", name, err)
			continue
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644", name, st.Mode().Perm())
		}
	}
	// Flags without a command belong to generate.
	if code, _, errOut := runCLI(t, "--check"); code != 0 {
		t.Errorf("errgen --check right after generating: exit %d\n%s", code, errOut)
	}
}

// TestDefaultCommandTakesACatalogueAfterItsFlags: without a command,
// generate's flags come first and a catalogue may follow them, as help
// and the README say; a catalogue alone is read as a command
// (TestCatalogueWhereACommandGoes).
func TestDefaultCommandTakesACatalogueAfterItsFlags(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("sub/errors.yaml", []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "-o", "out", "--docs", "ERRORS.md", "sub/errors.yaml"); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, name := range []string{"out/errgen.go", "out/ERRORS.md", "out/testdata/tool_timeout.golden.json"} {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	if code, _, errOut := runCLI(t, "sub/errors.yaml"); code != 2 || !strings.Contains(errOut, `errgen generate "sub/errors.yaml"`) {
		t.Errorf("a catalogue alone: exit %d\n%s", code, errOut)
	}
}

func TestGenerateOutputFolder(t *testing.T) {
	path := writeCatalogue(t, validCatalogue)
	out := filepath.Join(t.TempDir(), "pkg", "toolerr")
	if code, _, errOut := runCLI(t, "generate", "-o", out, path); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "errgen.go")); err != nil {
		t.Errorf("-o folder not used: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "errgen.go")); err == nil {
		t.Error("with -o, nothing may be written beside the catalogue")
	}
}

func TestGenerateSkipsUnchangedFiles(t *testing.T) {
	path := writeCatalogue(t, validCatalogue)
	dir := filepath.Dir(path)
	if code, _, errOut := runCLI(t, "generate", path); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	old := time.Now().Add(-time.Hour)
	target := filepath.Join(dir, "errgen.go")
	if err := os.Chtimes(target, old, old); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "generate", "-v", path)
	if code != 0 || out != "" {
		t.Errorf("a second run must write nothing: exit %d, wrote %q", code, out)
	}
	if st, _ := os.Stat(target); !st.ModTime().Equal(old) {
		t.Error("an unchanged file was rewritten")
	}
}

func TestGenerateKeepsGoldenFiles(t *testing.T) {
	path := writeCatalogue(t, validCatalogue)
	dir := filepath.Dir(path)
	if code, _, _ := runCLI(t, "generate", path); code != 0 {
		t.Fatal("generate failed")
	}
	golden := filepath.Join(dir, "testdata", "tool_timeout.golden.json")
	accepted := []byte("{\"accepted\": true}\n")
	if err := os.WriteFile(golden, accepted, 0o644); err != nil {
		t.Fatal(err)
	}
	// A wire change: the message changes, so the payload would too.
	changed := strings.Replace(validCatalogue, "Execution timeout", "Timed out", 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "generate", path); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if data, _ := os.ReadFile(golden); string(data) != string(accepted) {
		t.Error("generate overwrote an existing golden file")
	}
	// --check does not count an existing golden file as stale either: the
	// generated test is what judges it.
	if code, _, errOut := runCLI(t, "generate", "--check", path); code != 0 {
		t.Errorf("--check after generate: exit %d\n%s", code, errOut)
	}
}

// TestGenerateCheckNamesItsOwnFix: generate --check names the command
// line that writes what it checks, with its -o, --docs and catalogue, and
// running that line makes the check pass; a golden file left over is
// deleted by the same line with --prune.
func TestGenerateCheckNamesItsOwnFix(t *testing.T) {
	path := writeCatalogue(t, validCatalogue)
	t.Chdir(filepath.Dir(path))
	args := []string{"-o", "pkg", "--docs", "ERRORS.md", "errors.yaml"}
	fix := `errgen generate -o "pkg" --docs "ERRORS.md" "errors.yaml"`
	code, _, errOut := runCLI(t, append([]string{"generate", "--check"}, args...)...)
	if want := "run " + fix + "\n"; code != 1 || !strings.HasSuffix(errOut, want) {
		t.Errorf("generate --check into an empty folder: exit %d, stderr:\n%s\nwant it to end: %s", code, errOut, want)
	}
	if code, _, errOut := runCLI(t, append([]string{"generate"}, args...)...); code != 0 {
		t.Fatalf("the command it names: exit %d\n%s", code, errOut)
	}
	if code, out, errOut := runCLI(t, append([]string{"generate", "--check"}, args...)...); code != 0 {
		t.Errorf("generate --check after it: exit %d\n%s%s", code, out, errOut)
	}
	// A golden file of a code the catalogue does not have.
	data, err := os.ReadFile(filepath.Join("pkg", "testdata", "tool_timeout.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join("pkg", "testdata", "tool_gone.golden.json")
	if err := os.WriteFile(gone, bytes.ReplaceAll(data, []byte("tool_timeout"), []byte("tool_gone")), 0o644); err != nil {
		t.Fatal(err)
	}
	prune := `errgen generate --prune -o "pkg" --docs "ERRORS.md" "errors.yaml"`
	if code, _, errOut := runCLI(t, append([]string{"generate", "--check"}, args...)...); code != 1 || !strings.Contains(errOut, "; run "+prune+"\n") ||
		!strings.HasSuffix(errOut, "errgen: 1 generated file(s) stale, missing or left over; run "+prune+"\n") {
		t.Errorf("generate --check with a golden file left over: exit %d, stderr:\n%s\nwant, also last: run %s", code, errOut, prune)
	}
	if code, _, errOut := runCLI(t, append([]string{"generate"}, args...)...); code != 0 || !strings.Contains(errOut, "delete it, or run "+prune+"\n") {
		t.Errorf("generate with a golden file left over: exit %d, stderr:\n%s\nwant: run %s", code, errOut, prune)
	}
	if code, _, errOut := runCLI(t, append([]string{"generate", "--prune"}, args...)...); code != 0 {
		t.Fatalf("the command it names: exit %d\n%s", code, errOut)
	}
	if code, out, errOut := runCLI(t, append([]string{"generate", "--check"}, args...)...); code != 0 {
		t.Errorf("generate --check after --prune: exit %d\n%s%s", code, out, errOut)
	}
}

// TestCheckRefusesWhatGenerateRefuses: a file of the package's that errgen
// did not generate, where it would write one, fails --check with the
// reason generate refuses it, not as a stale file it would replace.
func TestCheckRefusesWhatGenerateRefuses(t *testing.T) {
	path := writeCatalogue(t, validCatalogue)
	t.Chdir(filepath.Dir(path))
	if err := os.WriteFile("errgen_test.go", []byte("package toolerr\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, refused := runCLI(t, "generate", "errors.yaml")
	code, out, errOut := runCLI(t, "generate", "--check", "errors.yaml")
	if code != 1 || strings.Contains(out, "+++ errgen_test.go") || !strings.Contains(errOut, "errgen_test.go exists and was not generated by errgen") || !strings.Contains(refused, "errgen_test.go exists and was not generated by errgen") {
		t.Errorf("generate --check with a hand-written errgen_test.go: exit %d\nstdout:\n%.300s\nstderr:\n%s\ngenerate said:\n%s", code, out, errOut, refused)
	}
	// Its closing line says to move the file away first: generate alone
	// would refuse again.
	if want := "1 file(s) errgen would refuse to replace; move them away (see above); then run errgen generate \"errors.yaml\"\n"; !strings.HasSuffix(errOut, want) {
		t.Errorf("generate --check with a hand-written errgen_test.go ends:\n%s\nwant:\n%s", errOut, want)
	}
}

// TestDocsCheckNamesItsOwnFix: a stale reference that errgen docs -o
// writes is fixed by that command, not by errgen generate, which never
// writes it (nor, for a registry, the index).
func TestDocsCheckNamesItsOwnFix(t *testing.T) {
	path := writeCatalogue(t, validCatalogue)
	t.Chdir(filepath.Dir(path))
	code, out, errOut := runCLI(t, "docs", "--check", "-o", "REF.md", "errors.yaml")
	if code != 1 || !strings.Contains(out, "+++ REF.md\n") ||
		errOut != "errgen: 1 generated file(s) stale, missing or left over; run errgen docs -o \"REF.md\" \"errors.yaml\"\n" {
		t.Errorf("docs --check with REF.md missing: exit %d\nstdout:\n%.300s\nstderr:\n%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "docs", "-o", "REF.md", "errors.yaml"); code != 0 {
		t.Fatalf("the command it names: exit %d\n%s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "docs", "--check", "-o", "REF.md", "errors.yaml"); code != 0 || out != "" {
		t.Errorf("docs --check after it: exit %d\n%s%s", code, out, errOut)
	}
}

func TestCheckReportsStaleFiles(t *testing.T) {
	path := writeCatalogue(t, validCatalogue)
	dir := filepath.Dir(path)
	t.Chdir(dir)
	if code, out, errOut := runCLI(t, "generate", "--check", "errors.yaml"); code != 1 ||
		!strings.Contains(out, "+++ errgen.go\n") || !strings.Contains(errOut, "stale, missing or left over") {
		t.Errorf("--check with nothing generated: exit %d\nstdout:\n%.300s\nstderr:\n%s", code, out, errOut)
	}
	if code, _, _ := runCLI(t, "generate", "errors.yaml"); code != 0 {
		t.Fatal("generate failed")
	}
	if code, out, errOut := runCLI(t, "generate", "--check", "errors.yaml"); code != 0 || out != "" {
		t.Fatalf("--check right after generate: exit %d\n%s%s", code, out, errOut)
	}
	// A hand edit of a generated file.
	data, _ := os.ReadFile("errgen.go")
	edited := strings.Replace(string(data), `Code = "tool_timeout"`, `Code = "tool_slow"`, 1)
	if edited == string(data) {
		t.Fatal("test setup: the code literal was not found")
	}
	if err := os.WriteFile("errgen.go", []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "generate", "--check", "errors.yaml")
	if code != 1 {
		t.Errorf("--check after a hand edit: exit %d, want 1", code)
	}
	for _, want := range []string{"--- errgen.go\n", "+++ errgen.go (generated)\n", "-\tCodeToolTimeout Code = \"tool_slow\"", "+\tCodeToolTimeout Code = \"tool_timeout\"", "@@ "} {
		if !strings.Contains(out, want) {
			t.Errorf("--check diff lacks %q:\n%s", want, out)
		}
	}
	if now, _ := os.ReadFile("errgen.go"); string(now) != edited {
		t.Error("--check wrote a file")
	}
}

func TestGenerateRefusesHandWrittenFile(t *testing.T) {
	path := writeCatalogue(t, validCatalogue)
	dir := filepath.Dir(path)
	mine := []byte("package toolerr\n\n// Mine is hand-written.\nconst Mine = 1\n")
	if err := os.WriteFile(filepath.Join(dir, "errgen.go"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "generate", path)
	if code != 1 || !strings.Contains(errOut, "was not generated by errgen") || !strings.Contains(errOut, "nothing was written") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "errgen.go")); string(data) != string(mine) {
		t.Error("a hand-written file was overwritten")
	}
	if _, err := os.Stat(filepath.Join(dir, "errgen_runtime.go")); err == nil {
		t.Error("other files were written although the run was refused")
	}
}

// TestWrongFolderSaysWhereTheCataloguesAre: run where no errors.yaml is,
// errgen names the catalogues below the folder; given a folder, it names
// the catalogue in it.
func TestWrongFolderSaysWhereTheCataloguesAre(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, stderr := runCLI(t, "lint")
	if want := "errgen: no errors.yaml in this folder; give the catalogue's path, or create one (errgen schema prints its format)\n"; code != 1 || stderr != want {
		t.Errorf("lint in an empty folder: exit %d\n%s\nwant:\n%s", code, stderr, want)
	}
	// One that cannot be read, and one too deep, are passed by.
	if err := os.MkdirAll(filepath.Join("a", "b", "c", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("a", "b", "c", "deep", "errors.yaml"), []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("aa_locked", 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "aa_locked"), 0o755) })
	for _, sub := range []string{"svc", "api", "billing", "zeta"} {
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "errors.yaml"), []byte(validCatalogue), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Each names the command line that reads the first, as it was given:
	// following the hint must not be a usage error.
	for _, c := range []struct {
		args []string
		line string
	}{
		{[]string{"generate"}, `errgen generate "api/errors.yaml"`},
		{[]string{"--docs", "ERRORS.md", "-v"}, `errgen generate --docs "ERRORS.md" -v "api/errors.yaml"`},
		{[]string{"lint"}, `errgen lint "api/errors.yaml"`},
		{[]string{"explain", "tool_timeout"}, `errgen explain --catalogue "api/errors.yaml" "tool_timeout"`},
		{[]string{"compat", "--against", "git:HEAD", "--tier", "json"}, `errgen compat --against "git:HEAD" --tier "json" "api/errors.yaml"`},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if want := `errgen: no errors.yaml in this folder; give the catalogue's path: "api/errors.yaml", "billing/errors.yaml", "svc/errors.yaml" and 1 more (for the first: ` + c.line + ")\n"; code != 1 || stderr != want {
			t.Errorf("%v in the repository's root: exit %d\n%s\nwant:\n%s", c.args, code, stderr, want)
		}
	}
	code, _, stderr = runCLI(t, "generate", "svc")
	if want := `; did you mean "svc/errors.yaml"?` + "\n"; code != 1 || !strings.HasSuffix(stderr, want) {
		t.Errorf("generate of a folder: exit %d\n%s\nwant it to end:\n%s", code, stderr, want)
	}
	// A base named errors.yaml that is not there is missing: the hint is
	// the catalogue's, whose command line it would get wrong.
	code, _, stderr = runCLI(t, "compat", "--against", "errors.yaml", "api/errors.yaml")
	if want := "errgen: base: open errors.yaml: file does not exist\n"; code != 1 || stderr != want {
		t.Errorf("compat against a missing errors.yaml: exit %d\n%s\nwant:\n%s", code, stderr, want)
	}
}

// TestWrongFolderOfAModuleSaysWhereItsCatalogueIs: run in a folder of a
// module with no catalogue below it, as go generate runs a go:generate line
// put in another package, errgen names the module's catalogue, from the
// folder, in the command line that reads it; the hint run as printed
// works.
func TestWrongFolderOfAModuleSaysWhereItsCatalogueIs(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"go.mod":                    "module example.com/svc\n\ngo 1.24\n",
		"agenterr/errors.yaml":      validCatalogue,
		"cmd/agent/main.go":         "package main\n\nfunc main() {}\n",
		"cmd/agent/testdata/x.json": "{}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(dir, "cmd", "agent"))
	code, _, stderr := runCLI(t, "--docs", "ERRORS.md")
	want := `errgen: no errors.yaml in this folder; give the catalogue's path: errgen generate --docs "ERRORS.md" "../../agenterr/errors.yaml"` + "\n"
	if code != 1 || stderr != want {
		t.Fatalf("errgen --docs ERRORS.md in another package's folder: exit %d\n%s\nwant:\n%s", code, stderr, want)
	}
	if code, _, stderr := runCLI(t, "generate", "--docs", "ERRORS.md", "../../agenterr/errors.yaml"); code != 0 {
		t.Fatalf("the command line of the hint: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "agenterr", "ERRORS.md")); err != nil {
		t.Errorf("the hint's command line did not write the reference beside the catalogue: %v", err)
	}
	// At the module's root, below which nothing is found, errgen has
	// nothing to name.
	t.Chdir(dir)
	if err := os.Rename("agenterr", ".agenterr"); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "lint")
	if want := "errgen: no errors.yaml in this folder; give the catalogue's path, or create one (errgen schema prints its format)\n"; code != 1 || stderr != want {
		t.Errorf("lint at the module's root: exit %d\n%s\nwant:\n%s", code, stderr, want)
	}
}

// TestCompatGitHubAnnotatesCatalogueErrors: with --format github the
// catalogue's errors are annotations, as its warnings are, so the line
// that fails the job is marked in the pull request too.
func TestCompatGitHubAnnotatesCatalogueErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("base.yaml", []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(validCatalogue, "retryable: true", "retriable: true", 1)
	if err := os.WriteFile("errors.yaml", []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "compat", "--format", "github", "--against", "base.yaml")
	const want = "::error file=errors.yaml,line=15,col=9,title=errgen::unknown key \"retriable\" in a variant; did you mean \"retryable\"?\n"
	if code != 1 || stdout != want || stderr != "" {
		t.Errorf("compat --format github of a broken catalogue: exit %d\nstdout:\n%s\nstderr:\n%s\nwant stdout:\n%s", code, stdout, stderr, want)
	}
	// Elsewhere the errors stay plain lines on stderr.
	code, stdout, stderr = runCLI(t, "compat", "--against", "base.yaml")
	if code != 1 || stdout != "" || stderr != "errors.yaml:15:9: unknown key \"retriable\" in a variant; did you mean \"retryable\"?\n" {
		t.Errorf("compat of a broken catalogue: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestMissingCatalogueHintRunsInAShell: the command line of the hint, run
// by a shell as printed, reads the catalogue, whose folder's name holds
// what a shell reads inside double quotes ($, `) or starts as a flag.
func TestMissingCatalogueHintRunsInAShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, folder := range []string{"-x$HOME", "a`b`c", "it's", "café"} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, folder), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, folder, "errors.yaml"), []byte(validCatalogue), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		_, _, stderr := runCLI(t, "lint")
		_, line, ok := strings.Cut(strings.TrimSpace(stderr), "give the catalogue's path: ")
		if !ok || !strings.HasPrefix(line, "errgen lint ") {
			t.Fatalf("folder %q: no command line in %q", folder, stderr)
		}
		// The shell prints the argument it passes.
		script := "set -- " + strings.TrimPrefix(line, "errgen lint ") + `; printf '%s\n' "$@"`
		out, err := exec.Command(sh, "-c", script).Output()
		if err != nil {
			t.Fatalf("folder %q: %s: %v", folder, script, err)
		}
		got := strings.TrimSuffix(string(out), "\n")
		if got != folder+"/errors.yaml" && got != "./"+folder+"/errors.yaml" {
			t.Errorf("folder %q: the hint %s passes %q", folder, line, got)
		}
		if strings.HasPrefix(got, "-") {
			t.Errorf("folder %q: the hint %s passes a flag", folder, line)
		}
	}
}
