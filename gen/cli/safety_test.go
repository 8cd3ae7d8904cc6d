package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/cli"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/synth"
)

// The safety tests hold errgen's writes to docs/hardening.md: a refused or
// failed run leaves every file as it was and no temporary file behind, a
// symlink in the output folder cannot send a write outside it, a
// hand-written file is never overwritten, and no catalogue can forge
// terminal escapes or CI workflow commands in errgen's own output.

// helperEnv makes the test binary run errgen's cli.Main instead of the
// tests (see TestSafetyHelperProcess).
const helperEnv = "ERRGEN_SAFETY_HELPER_ARGS"

// TestSafetyHelperProcess is not a test: run by errgenProcess with the
// arguments in its environment, it is errgen as a process, with Main's
// signal handling, and exits with errgen's status.
func TestSafetyHelperProcess(t *testing.T) {
	raw := os.Getenv(helperEnv)
	if raw == "" {
		return
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		os.Exit(99)
	}
	limitFileSize()
	os.Exit(cli.Main(args))
}

// errgenProcess returns a command that runs errgen with args in a child
// process (this test binary, re-executed).
func errgenProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSafetyHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+string(raw))
	return cmd
}

// snapshot returns every file below dir by slash path, and fails on any
// temporary file errgen may have left.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".errgen-") {
			t.Errorf("temporary file left behind: %s", path)
		}
		if d.Type()&fs.ModeSymlink != 0 || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails unless the files below dir are exactly want.
func sameTree(t *testing.T, dir string, want map[string][]byte) {
	t.Helper()
	got := snapshot(t, dir)
	for name, data := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s is gone", name)
		} else if !bytes.Equal(g, data) {
			t.Errorf("%s changed", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s was written", name)
		}
	}
}

// generatedDir generates the catalogue src into a new folder and returns
// the folder and the catalogue's path.
func generatedDir(t *testing.T, src []byte) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "errors.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "generate", path); code != 0 {
		t.Fatalf("errgen generate exited %d:\n%s", code, stderr)
	}
	return dir, path
}

func TestSymlinksInOutputFolderAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		// plant puts a link into the generated folder dir; outside is a
		// folder outside it, with a file secret.txt.
		plant func(t *testing.T, dir, outside string)
	}{
		{"file link to a file outside", func(t *testing.T, dir, outside string) {
			replaceWithLink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "errgen.go"))
		}},
		{"file link to a missing file outside", func(t *testing.T, dir, outside string) {
			replaceWithLink(t, filepath.Join(outside, "new.go"), filepath.Join(dir, "errgen_test.go"))
		}},
		{"file link to a file inside", func(t *testing.T, dir, outside string) {
			replaceWithLink(t, filepath.Join(dir, "errors.yaml"), filepath.Join(dir, "errgen_runtime.go"))
		}},
		{"folder link", func(t *testing.T, dir, outside string) {
			if err := os.RemoveAll(filepath.Join(dir, "testdata")); err != nil {
				t.Fatal(err)
			}
			replaceWithLink(t, outside, filepath.Join(dir, "testdata"))
		}},
		{"golden file link", func(t *testing.T, dir, outside string) {
			replaceWithLink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "testdata", "tool_timeout.golden.json"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, path := generatedDir(t, []byte(validCatalogue))
			outside := t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("not errgen's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.plant(t, dir, outside)
			// A change to the catalogue makes every generated file stale.
			changed := strings.Replace(validCatalogue, "Execution timeout", "Timed out", 1)
			if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
				t.Fatal(err)
			}
			before, outsideBefore := snapshot(t, dir), snapshot(t, outside)
			code, _, stderr := runCLI(t, "generate", path)
			if code != 1 || !strings.Contains(stderr, "is a symlink") || !strings.Contains(stderr, "nothing was written") {
				t.Errorf("exit %d, stderr:\n%s", code, stderr)
			}
			sameTree(t, dir, before)
			sameTree(t, outside, outsideBefore)
		})
	}
}

// TestDanglingOutputFolderIsRefused: an output folder may be a link the
// user chose, but a link to nothing is refused, by name, rather than
// followed to create a folder where it points (or failing with "mkdir:
// file exists").
func TestDanglingOutputFolderIsRefused(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("errors.yaml", []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	replaceWithLink(t, "nowhere", "dangling")
	const refusal = `errgen: dangling is a symlink to "nowhere", which does not exist; errgen does not create a folder through a link; nothing was written` + "\n"
	for _, args := range [][]string{
		{"generate", "-o", "dangling"},
		{"generate", "-o", "dangling/sub"},
		{"docs", "-o", "dangling/ERRORS.md"},
	} {
		before := snapshot(t, dir)
		code, _, stderr := runCLI(t, args...)
		if code != 1 || stderr != refusal {
			t.Errorf("errgen %s: exit %d, stderr:\n%s\nwant:\n%s", strings.Join(args, " "), code, stderr, refusal)
		}
		sameTree(t, dir, before)
		if _, err := os.Lstat("nowhere"); err == nil {
			t.Errorf("errgen %s created the link's target", strings.Join(args, " "))
		}
	}
}

// TestCheckRefusesAnOutputFolderGenerateRefuses: --check refuses an
// output folder that is a file, or a link to nothing, once and as writing
// refuses it, rather than one error per file or a list of files to
// create that generate would refuse to create.
func TestCheckRefusesAnOutputFolderGenerateRefuses(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("errors.yaml", []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("afile", []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	replaceWithLink(t, "nowhere", "dangling")
	// A file where the golden files' folder goes.
	if err := os.MkdirAll("out", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("out", "testdata"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const file = "errgen: afile is a regular file, not a folder; errgen reads and writes files inside it\n"
	const link = `errgen: dangling is a symlink to "nowhere", which does not exist; errgen does not create a folder through a link` + "\n"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--check", "-o", "afile"}, file},
		{[]string{"generate", "--check", "-o", "afile/sub"}, file},
		{[]string{"generate", "--check", "-o", "dangling"}, link},
		{[]string{"generate", "--check", "-o", "dangling/sub"}, link},
		{[]string{"docs", "--check", "-o", "afile/ERRORS.md"}, file},
		{[]string{"docs", "--check", "-o", "dangling/ERRORS.md"}, link},
		{[]string{"generate", "--check", "-o", "out"}, "errgen: out/testdata is a regular file, not a folder; errgen reads and writes files inside it\n"},
	} {
		code, stdout, stderr := runCLI(t, c.args...)
		if code != 1 || stdout != "" || stderr != c.want {
			t.Errorf("errgen %s: exit %d, stdout:\n%.300s\nstderr:\n%s\nwant:\n%s", strings.Join(c.args, " "), code, stdout, stderr, c.want)
		}
	}
}

// replaceWithLink makes link a symlink to target, replacing any file.
func replaceWithLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Remove(link); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symlinks here: %v", err)
	}
}

func TestHandWrittenFilesAreNeverOverwritten(t *testing.T) {
	for name, data := range map[string]string{
		"no marker":                  "package toolerr\n\nconst Mine = 1\n",
		"marker after the package":   "package toolerr\n\n// Code generated by hand. DO NOT EDIT.\n\nconst Mine = 1\n",
		"marker in a string":         "package toolerr\n\nconst Header = `\n// Code generated by errgen from errors.yaml. DO NOT EDIT.\n`\n",
		"marker in a later comment":  "// Package toolerr is mine.\npackage toolerr\n\n/*\n// Code generated by x. DO NOT EDIT.\n*/\n",
		"marker not on its own line": "// Not: // Code generated by errgen. DO NOT EDIT.\n\npackage toolerr\n",
		"marker without the period":  "// Code generated by errgen from errors.yaml. DO NOT EDIT\n\npackage toolerr\n",
		"not Go at all":              "\x00\x01binary",
		"empty":                      "",
	} {
		t.Run(name, func(t *testing.T) {
			path := writeCatalogue(t, validCatalogue)
			dir := filepath.Dir(path)
			if err := os.WriteFile(filepath.Join(dir, "errgen_test.go"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, dir)
			code, _, stderr := runCLI(t, "generate", path)
			if code != 1 || !strings.Contains(stderr, "was not generated by errgen") || !strings.Contains(stderr, "nothing was written") {
				t.Errorf("exit %d, stderr:\n%s", code, stderr)
			}
			sameTree(t, dir, before)
		})
	}
}

// TestRefusalQuotesTheMarkerOfTheFilesKind: refusing a file errgen did not
// generate quotes the generated-file line errgen looks for in a file of
// that kind, and names what to change: the -o folder for the package's Go
// files, the flag that chose the Markdown file for the reference.
func TestRefusalQuotesTheMarkerOfTheFilesKind(t *testing.T) {
	const (
		goRefusal = `errgen: errgen.go exists and was not generated by errgen (it has no "// Code generated by errgen ... DO NOT EDIT." line); move it away or choose another -o folder`
		mdRefusal = `errgen: README.md exists and was not generated by errgen (it has no "<!-- Code generated by errgen from ... DO NOT EDIT. -->" first line); move it away or choose another %s file`
	)
	for _, c := range []struct {
		args []string
		mine string
		want []string
	}{
		{[]string{"generate"}, "errgen.go", []string{goRefusal}},
		{[]string{"generate", "--docs", "README.md"}, "README.md", []string{fmt.Sprintf(mdRefusal, "--docs")}},
		{[]string{"docs", "-o", "README.md"}, "README.md", []string{fmt.Sprintf(mdRefusal, "-o")}},
	} {
		dir := t.TempDir()
		t.Chdir(dir)
		if err := os.WriteFile("errors.yaml", []byte(validCatalogue), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c.mine, []byte("# Mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		code, _, stderr := runCLI(t, c.args...)
		if want := strings.Join(c.want, "\n") + "\nerrgen: nothing was written\n"; code != 1 || stderr != want {
			t.Errorf("errgen %s: exit %d, stderr:\n%s\nwant:\n%s", strings.Join(c.args, " "), code, stderr, want)
		}
		sameTree(t, dir, before)
	}
}

// A generated file checked out with CRLF line endings (git's autocrlf) is
// still errgen's to replace.
func TestGeneratedFileWithCRLFIsReplaced(t *testing.T) {
	dir, path := generatedDir(t, []byte(validCatalogue))
	target := filepath.Join(dir, "errgen.go")
	data, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "generate", path); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if now, _ := os.ReadFile(target); !bytes.Equal(now, data) {
		t.Error("the CRLF copy of a generated file was not regenerated")
	}
}

// A checkout with git's core.autocrlf holds every generated file with CRLF
// line endings; --check compares them as LF, or it would fail forever.
func TestCheckAcceptsCRLFCheckout(t *testing.T) {
	dir, path := generatedDir(t, []byte(validCatalogue))
	for _, name := range []string{"errgen.go", "errgen_runtime.go", "errgen_test.go"} {
		target := filepath.Join(dir, name)
		data, err := os.ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, stdout, stderr := runCLI(t, "generate", "--check", path); code != 0 {
		t.Errorf("exit %d:\n%s%s", code, stdout, stderr)
	}
	// A real change still shows.
	target := filepath.Join(dir, "errgen.go")
	data, _ := os.ReadFile(target)
	if err := os.WriteFile(target, append(data, "// edited\r\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, _ := runCLI(t, "generate", "--check", path); code != 1 || !strings.Contains(stdout, "-// edited") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

func TestTargetThatIsAFolderIsRefused(t *testing.T) {
	dir, path := generatedDir(t, synth.Catalogue(3))
	if err := os.Remove(filepath.Join(dir, "errgen_test.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "errgen_test.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, synth.Catalogue(4), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	code, _, stderr := runCLI(t, "generate", path)
	if code != 1 || !strings.Contains(stderr, "not a regular file") || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	sameTree(t, dir, before)
}

// A testdata that is a file refuses every golden file below it for one
// reason, given once, naming it as the file it is where a folder must be;
// --check says it once too.
func TestTestdataThatIsAFileIsOneRefusal(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("errors.yaml", synth.Catalogue(46), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata", []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	const refusal = "errgen: testdata is a regular file, not a folder; errgen reads and writes files inside it\n"
	code, _, stderr := runCLI(t, "generate")
	if want := refusal + "errgen: nothing was written\n"; code != 1 || stderr != want {
		t.Errorf("generate: exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	sameTree(t, dir, before)
	code, _, stderr = runCLI(t, "generate", "--check")
	if code != 1 || strings.Count(stderr, refusal) != 1 {
		t.Errorf("generate --check: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestReadOnlyFolderKeepsOldFiles(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which ignores permission bits; TestFullDiskKeepsOldFiles makes the writes fail with a file-size limit instead")
	}
	dir, path := generatedDir(t, synth.Catalogue(3))
	// The catalogue lives elsewhere, so only the output folder is locked.
	src := filepath.Join(t.TempDir(), "errors.yaml")
	if err := os.WriteFile(src, synth.Catalogue(4), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = path
	before := snapshot(t, dir)
	for _, d := range []string{filepath.Join(dir, "testdata"), dir} {
		if err := os.Chmod(d, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(d, 0o755) })
	}
	code, _, stderr := runCLI(t, "generate", "-o", dir, src)
	// The folder is named, not the temporary file errgen tried there.
	if want := "errgen: cannot write " + filepath.Join(dir, "errgen.go") + ": cannot create a file in " + dir + ": permission denied; nothing was written\n"; code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	sameTree(t, dir, before)
}

// TestReadOnlyTestdataKeepsOldFiles: a catalogue that adds a variant
// needs a new golden file in a testdata that is not writable. Every Go
// file would change and could be written, but none is: the golden file is
// written (to a temporary file) before any file is renamed into place.
func TestReadOnlyTestdataKeepsOldFiles(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which ignores permission bits; TestFailedWriteChangesNothing makes the same write fail through a hook")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("pw", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("pw/errors.yaml", []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "generate", "pw/errors.yaml"); code != 0 {
		t.Fatalf("errgen generate exited %d:\n%s", code, stderr)
	}
	added := validCatalogue + `      - name: ToolTimeout2
        code: tool_timeout2
        num: 1005
        category: timeout
        message: "timed out again: {tool}"
        fields:
          - {name: tool, type: string, payload: true}
`
	if err := os.WriteFile("pw/errors.yaml", []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, "pw")
	if err := os.Chmod("pw/testdata", 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "pw", "testdata"), 0o755) })
	code, _, stderr := runCLI(t, "generate", "pw/errors.yaml")
	if want := "errgen: cannot write pw/testdata/tool_timeout2.golden.json: cannot create a file in pw/testdata: permission denied; nothing was written\n"; code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	sameTree(t, "pw", before)
}

// hostileTexts are what a catalogue might hold to forge errgen's output:
// terminal escapes (colour, window title, cursor moves), a line break
// followed by a GitHub Actions workflow command, a carriage return that
// overwrites the line, and bidi controls.
var hostileTexts = []string{
	"\x1b[31mred\x1b[0m",
	"\x1b]0;owned\x07",
	"\x1b[2J\x1b[H",
	"ok\n::error::forged",
	"ok\r\n::error file=errors.yaml,line=1::forged",
	"ok\rforged",
	"\u202eevil\u202c",
	"\u2028::error::forged",
	"\x9b31m",
	"##[error]forged",
	"ok\n  ::warning::indented",
	"zero\u200bwidth",
	"\U000e0049\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065 hidden",
}

func TestOutputCannotBeForged(t *testing.T) {
	type hostile struct {
		src string
		// refused is false where the text is allowed: a doc may span
		// lines, so a line break in it is text, not an error.
		refused bool
	}
	var catalogues []hostile
	for _, h := range hostileTexts {
		// Text that is all printable ("##[error]x") is a fine message or
		// comment: only its output must be inert.
		unprintable := strings.ContainsFunc(h, func(r rune) bool { return !unicode.IsPrint(r) || diag.Invisible(r) })
		for _, enc := range []func(string) string{rawText, escapedText} {
			s := enc(h)
			for _, c := range []hostile{
				{strings.Replace(validCatalogue, "code: tool_timeout", "code: "+s, 1), true},
				{strings.Replace(validCatalogue, "name: ToolTimeout", "name: "+s, 1), true},
				{strings.Replace(validCatalogue, `message: "Execution timeout after {seconds}s: {tool}"`, "message: "+s, 1), true},
				{strings.Replace(validCatalogue, "category: timeout", "category: "+s, 1), true},
				{strings.Replace(validCatalogue, "retryable: true", s+": true", 1), true},
				{strings.Replace(validCatalogue, "type: uint64", "type: "+s, 1), true},
				{strings.Replace(validCatalogue, "payload_type: tool_error", "payload_type: tool_error\n    doc: "+s, 1),
					strings.ContainsFunc(h, func(r rune) bool { return r != '\n' && (r < 0x20 || r > 0x7e) }) || enc(h) == h},
				{"# " + h + "\n" + validCatalogue, true},
			} {
				c.refused = c.refused && unprintable
				catalogues = append(catalogues, c)
			}
		}
	}
	for i, c := range catalogues {
		path := writeCatalogue(t, c.src)
		for _, args := range [][]string{{"lint", path}, {"generate", "--check", path}, {"generate", path}} {
			code, stdout, stderr := runCLI(t, args...)
			if c.refused && code == 0 {
				t.Errorf("catalogue %d: errgen %s accepted %q", i, strings.Join(args[:len(args)-1], " "), c.src)
			}
			checkOutput(t, stdout+stderr)
		}
	}

	// The names of files and folders are user text too, and so are the
	// arguments and flags: every command that prints one is run with each
	// hostile name, on a broken catalogue, a valid one and a base to
	// compare with, so that each kind of message is printed.
	for _, h := range hostileTexts {
		dir := t.TempDir()
		broken := filepath.Join(dir, h+".yaml")
		if err := os.WriteFile(broken, []byte("version: 2\n"), 0o644); err != nil {
			t.Skipf("cannot create a file named %q here: %v", h, err)
		}
		good := filepath.Join(dir, h+".good.yaml")
		if err := os.WriteFile(good, []byte(validCatalogue), 0o644); err != nil {
			t.Fatal(err)
		}
		changed := filepath.Join(dir, h+".changed.yaml")
		if err := os.WriteFile(changed, []byte(strings.Replace(validCatalogue, "retryable: true", "retryable: false", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, h+"-out")
		for _, args := range [][]string{
			{"lint", broken},
			{"generate", broken},
			{"lint", broken + ".missing"},
			{"generate", "-v", "-o", out, good},
			{"generate", "--check", "-o", out + "-missing", good},
			{"generate", "--docs", h + ".md", "-o", out, "--check", good},
			{"compat", "--against", good, changed},
			{"compat", "--against", good, "--format", "github", changed},
			{"compat", "--against", broken, changed},
			{"compat", "--against", "git:" + h, changed},
			{"diff", "--against", good, changed},
			{"diff", "--against", good, "--format", "markdown", changed},
			{"diff", "--against", good, "--format", "json", changed},
			{"explain", h, good},
			{"explain", "tool_timeout", broken},
			{"docs", "-o", out + ".md", good},
			{"generate", "--format", h, good},
			{"generate", "--" + h, good},
			{h},
		} {
			_, stdout, stderr := runCLI(t, args...)
			checkOutput(t, stdout+stderr)
		}
		// And a stale file in a folder of that name: the --check diff.
		stale := filepath.Join(dir, h+"-stale")
		if code, _, errOut := runCLI(t, "generate", "-o", stale, good); code != 0 {
			t.Fatalf("generate into %q: %s", stale, errOut)
		}
		edit(t, filepath.Join(stale, "errgen.go"), func(s string) string { return s + "// " + h + "\n" })
		code, stdout, stderr := runCLI(t, "generate", "--check", "-o", stale, good)
		if code != 1 {
			t.Errorf("--check of an edited file: exit %d", code)
		}
		checkOutput(t, stdout+stderr)
	}
}

// ownAnnotation is the shape of the workflow commands errgen writes: its
// properties hold no ":" or "," of their own (the runner's escapes %3A and
// %2C stand for them).
var ownAnnotation = regexp.MustCompile(`^::(error|warning|notice) (file=[^:,]*(,line=[0-9]+,col=[0-9]+)?,)?title=[A-Za-z_ ()]+::[^\r]*$`)

func edit(t *testing.T, path string, fn func(string) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(fn(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rawText writes s into the YAML as it stands; escapedText as a
// double-quoted scalar whose escapes produce it.
func rawText(s string) string { return s }

func escapedText(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\x1b':
			b.WriteString(`\e`)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case r < 0x20 || (r >= 0x7f && r < 0xa0) || r > 0x7e:
			b.WriteString(`\u`)
			const hex = "0123456789abcdef"
			b.WriteByte(hex[r>>12&0xf])
			b.WriteByte(hex[r>>8&0xf])
			b.WriteByte(hex[r>>4&0xf])
			b.WriteByte(hex[r&0xf])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checkOutput fails on anything in errgen's output that a terminal or a CI
// runner would act on: control characters other than line feed and tab
// (ESC, CR, BEL, C1 controls), bidi controls, line separators, invalid UTF-8, and a
// line that starts a workflow command.
func checkOutput(t *testing.T, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("output is not valid UTF-8: %q", out)
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f ||
			r == 0x061c || r == 0x2028 || r == 0x2029 ||
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || (r >= 0x200b && r <= 0x200d) ||
			r == 0x2060 || (r >= 0xe0000 && r <= 0xe0fff) {
			i := strings.IndexRune(out, r)
			t.Errorf("output holds %U: %q", r, out[max(0, i-80):min(len(out), i+80)])
			return
		}
	}
	for _, line := range strings.Split(out, "\n") {
		// errgen compat --format github writes workflow commands of its
		// own, one a line; nothing of the catalogue may change their
		// shape, and no other line may be one.
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") && !ownAnnotation.MatchString(line) {
			t.Errorf("output line starts a workflow command: %q", line)
		}
		if strings.Contains(line, "##[") {
			t.Errorf("output line holds a log command (##[): %q", line)
		}
	}
}

// TestOutputTargetsMustNotCollide: a --docs file that is a golden file or
// the folder of the golden files (in any case) is refused while planning,
// each file named by what it is: exit 1, nothing written.
func TestOutputTargetsMustNotCollide(t *testing.T) {
	for docs, want := range map[string]string{
		"testdata/tool_timeout.golden.json": `"testdata/tool_timeout.golden.json" would be written twice, as a golden file and as the Markdown reference; choose another --docs file`,
		"TestData/Tool_Timeout.golden.json": `"TestData/Tool_Timeout.golden.json" would be written twice, as a golden file and as the Markdown reference; choose another --docs file`,
		"testdata":                          `"testdata" is a folder of "testdata/tool_timeout.golden.json", and would also be written as the Markdown reference; choose another --docs file`,
		"TestData":                          `"testdata" is a folder of "testdata/tool_timeout.golden.json", and would also be written as the Markdown reference; choose another --docs file`,
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "errors.yaml")
		if err := os.WriteFile(path, []byte(validCatalogue), 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		code, _, stderr := runCLI(t, "generate", "--docs", docs, path)
		if code != 1 || stderr != "errgen: "+want+"\n" {
			t.Errorf("--docs %s: exit %d, stderr:\n%s", docs, code, stderr)
		}
		sameTree(t, dir, before)
	}
}

// TestReferenceIsNeverAGoFile: Markdown in a .go file would break the
// package (and errgen would then refuse its own file), as it would in any
// other file the go command reads (C or assembly it builds into the
// package, go.mod), so such a reference path, in any case, is a usage
// error of generate --docs and docs -o: exit 2, nothing written, whatever
// the file is (a generated one, the gRPC file, a test file, a new one).
func TestReferenceIsNeverAGoFile(t *testing.T) {
	for _, args := range [][]string{
		{"generate", "--docs", "ERRORS.go"},
		{"generate", "--docs", "errgen.go"},
		{"generate", "--docs", "./errgen_test.go"},
		{"generate", "--docs", "sub/../errgen_runtime.go"},
		{"generate", "--docs", "ERRGEN.GO"},
		{"generate", "--docs", "errgen_grpc.go"},
		{"generate", "--docs", "docs_test.go"},
		{"docs", "-o", "x.go"},
		{"docs", "-o", "ERRORS.Go"},
		{"docs", "--check", "-o", "errgen.go"},
		// The other files the go command reads.
		{"generate", "--docs", "ERRORS.c"},
		{"generate", "--docs", "errors.S"},
		{"generate", "--docs", "go.mod"},
		{"generate", "--docs", "sub/GO.SUM"},
		{"docs", "-o", "ERRORS.syso"},
		{"docs", "-o", "go.work"},
	} {
		dir := t.TempDir()
		t.Chdir(dir)
		if err := os.WriteFile("errors.yaml", []byte(validCatalogue), 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		code, stdout, stderr := runCLI(t, args...)
		flag := args[len(args)-2]
		if code != 2 || stdout != "" || !strings.Contains(stderr, flag+" "+diag.Quote(args[len(args)-1])+" names ") ||
			!strings.Contains(stderr, ", which the go command reads, and the Markdown reference in it would break the package; write it to a Markdown file such as ERRORS.md") {
			t.Errorf("errgen %s: exit %d, stderr:\n%s", strings.Join(args, " "), code, stderr)
		}
		sameTree(t, dir, before)
	}
}

// TestReferenceIsNeverAFolder: a reference path that can only name a
// folder (a trailing slash, or . or .. last) is a usage error of generate
// --docs and docs -o: exit 2, nothing written. dir/ was the file dir/dir.
func TestReferenceIsNeverAFolder(t *testing.T) {
	for _, args := range [][]string{
		{"generate", "--docs", "sub/"},
		{"generate", "--docs", "."},
		{"docs", "-o", "out/"},
		{"docs", "-o", "sub/"},
		{"docs", "-o", "."},
		{"docs", "-o", "sub/.."},
		{"docs", "--check", "-o", "sub/"},
	} {
		dir := t.TempDir()
		t.Chdir(dir)
		if err := os.WriteFile("errors.yaml", []byte(validCatalogue), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir("sub", 0o755); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		code, stdout, stderr := runCLI(t, args...)
		flag := args[len(args)-2]
		if code != 2 || stdout != "" || !strings.Contains(stderr, flag+" "+diag.Quote(args[len(args)-1])+" names a folder; give the file to write") {
			t.Errorf("errgen %s: exit %d, stderr:\n%s", strings.Join(args, " "), code, stderr)
		}
		sameTree(t, dir, before)
	}
}

// TestUsageErrorsComeFirst: a wrong command line is a usage error (exit 2)
// before any file is read, so a broken or missing catalogue does not turn
// it into exit 1 with the catalogue's diagnostics.
func TestUsageErrorsComeFirst(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("broken.yaml", []byte("version: 1\npackage: [x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"generate", "--check", "--prune", "broken.yaml"},
		{"generate", "--docs", "../x.md", "broken.yaml"},
		{"generate", "--docs", "/abs/x.md", "broken.yaml"},
		{"generate", "--docs", "x.go", "broken.yaml"},
		{"generate", "--check", "--prune", "missing.yaml"},
		{"docs", "-o", "x.go", "broken.yaml"},
		{"docs", "--check", "broken.yaml"},
		{"compat", "--against", "git:", "broken.yaml"},
		{"compat", "--against", "git:HEAD:", "broken.yaml"},
		{"diff", "--against", "git:-x", "broken.yaml"},
		{"diff", "--against", "git::errors.yaml", "broken.yaml"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != 2 || strings.Contains(stderr, "broken.yaml:") || strings.Contains(stderr, "missing.yaml") || !strings.Contains(stderr, "usage: errgen "+args[0]) {
			t.Errorf("errgen %s: exit %d, stderr:\n%s", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestOrphanGoldenFiles: a golden file whose code left the catalogue is
// reported by generate (a warning, the file kept), fails --check, and is
// deleted by --prune, which deletes nothing else: not the package's own
// tests' golden files, named like errgen's but holding something else.
func TestOrphanGoldenFiles(t *testing.T) {
	two := validCatalogue + `      - name: ToolGone
        code: tool_gone
        num: 1005
        category: timeout
        message: "gone"
`
	dir, path := generatedDir(t, []byte(two))
	if err := os.WriteFile(path, []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(dir, "testdata", "tool_gone.golden.json")
	keep := filepath.Join(dir, "testdata", "notes.txt")
	if err := os.WriteFile(keep, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(keep, filepath.Join(dir, "testdata", "linked.golden.json")); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(dir, "testdata", "handler_response.golden.json")
	if err := os.WriteFile(own, []byte(`{"users": [1, 2]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A copy of an errgen golden file under another code's name is not
	// the golden file of that code either.
	copied := filepath.Join(dir, "testdata", "renamed_copy.golden.json")
	data, err := os.ReadFile(filepath.Join(dir, "testdata", "tool_timeout.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}

	code, _, stderr := runCLI(t, "generate", path)
	if code != 0 || !strings.Contains(stderr, "warning: "+filepath.Join(dir, "testdata", "tool_gone.golden.json")+" is the golden file of a code the catalogue no longer has; delete it, or run errgen generate --prune") {
		t.Errorf("generate: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(orphan); err != nil {
		t.Errorf("generate without --prune deleted the orphan: %v", err)
	}
	code, _, stderr = runCLI(t, "generate", "--check", path)
	if code != 1 || !strings.Contains(stderr, "no longer has; run errgen generate --prune") {
		t.Errorf("--check: exit %d, stderr:\n%s", code, stderr)
	}
	if code, _, _ = runCLI(t, "generate", "--check", "--prune", path); code != 2 {
		t.Errorf("--check --prune: exit %d, want 2", code)
	}
	code, stdout, stderr := runCLI(t, "generate", "--prune", "-v", path)
	if code != 0 || !strings.Contains(stdout, "tool_gone.golden.json (deleted)") {
		t.Errorf("--prune: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(orphan); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("--prune kept the orphan: %v", err)
	}
	if strings.Contains(stderr, "handler_response") || strings.Contains(stderr, "renamed_copy") || strings.Contains(stdout, "handler_response") {
		t.Errorf("a golden file errgen did not write is reported or deleted:\n%s%s", stdout, stderr)
	}
	for _, p := range []string{keep, own, copied, filepath.Join(dir, "testdata", "linked.golden.json"), filepath.Join(dir, "testdata", "tool_timeout.golden.json")} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("--prune deleted %s: %v", p, err)
		}
	}
	if code, _, stderr := runCLI(t, "generate", "--check", path); code != 0 {
		t.Errorf("--check after --prune: exit %d\n%s", code, stderr)
	}
}

// TestPackageMustMatchFolder: a folder holding Go files of another package
// is refused at the catalogue's package: line, naming the file; errgen's
// own files, a file no build includes and an external test package do
// not count.
// TestGoldenOfASubcodeExample: a variant's example selects its first
// sub-code, so adding one leaves the golden file of the variant's own code
// behind; generate says so, naming the file the example writes now, not
// that the catalogue lost the code, and --prune deletes it.
func TestGoldenOfASubcodeExample(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "errors.yaml")
	if err := os.WriteFile(path, []byte(validCatalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "generate", path); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	withSub := strings.Replace(validCatalogue, "        code: tool_timeout\n", "        code: tool_timeout\n        subcodes: [{code: tool_timeout_hard, doc: No time left at all.}]\n", 1)
	if withSub == validCatalogue {
		t.Fatal("the catalogue has no tool_timeout to give a sub-code")
	}
	if err := os.WriteFile(path, []byte(withSub), 0o644); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "testdata", "tool_timeout.golden.json") + ` is the golden file of "tool_timeout", which no example selects now: its variant's example selects "tool_timeout_hard" (testdata/tool_timeout_hard.golden.json)`
	if code, _, stderr := runCLI(t, "generate", path); code != 0 || !strings.Contains(stderr, want) || strings.Contains(stderr, "no longer has") {
		t.Errorf("generate: exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	if code, stdout, _ := runCLI(t, "generate", "--prune", "-v", path); code != 0 || !strings.Contains(stdout, "tool_timeout.golden.json (deleted)") {
		t.Errorf("--prune: exit %d\n%s", code, stdout)
	}
}

// packageFolder returns a new folder holding validCatalogue as
// errors.yaml, the catalogue's path, and a function that writes a file
// into the folder.
func packageFolder(t *testing.T) (dir, path string, write func(name, src string)) {
	dir = t.TempDir()
	write = func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("errors.yaml", validCatalogue)
	return dir, filepath.Join(dir, "errors.yaml"), write
}

// TestOwnFilesKeepTheirNames: a file of the package's own beside the
// generated ones that declares a name they declare too (a runtime helper
// such as now, a type, a method on a generated type) is refused at its
// declaration, before anything is written, by generate and generate
// --check: the package would not build. Names the generated files do not
// declare, init, _, and the external test package's are fine.
func TestOwnFilesKeepTheirNames(t *testing.T) {
	dir, path, write := packageFolder(t)
	write("helpers.go", "package toolerr\n\nfunc init() {}\n\nvar _ = 1\n\nfunc describe() string { return \"\" }\n")
	write("x_test.go", "package toolerr_test\n\nvar now = 1\n")
	if code, _, stderr := runCLI(t, "generate", path); code != 0 {
		t.Fatalf("names of its own: exit %d\n%s", code, stderr)
	}
	write("clock.go", "package toolerr\n\nimport \"time\"\n\nvar now = time.Now\n\ntype field struct{}\n\nfunc (*ToolTimeout) Code() Code { return \"\" }\n")
	write("clock_test.go", "package toolerr\n\nfunc TestErrgenGolden() {}\n")
	// Names the generated files take otherwise: an import of theirs, a
	// field of a generated struct; and an import of this file's named
	// like a generated declaration.
	write("order.go", "package toolerr\n\nimport render \"strings\"\n\nvar _ = render.ToUpper\n\nfunc sort() {}\n\nfunc (*ToolTimeout) Seconds() uint64 { return 0 }\n")
	before := snapshot(t, dir)
	write("errors.yaml", strings.Replace(validCatalogue, "retryable: true", "retryable: false", 1))
	before["errors.yaml"], _ = os.ReadFile(path)
	for _, args := range [][]string{{"generate", path}, {"generate", "--check", path}} {
		code, _, stderr := runCLI(t, args...)
		for _, want := range []string{
			filepath.Join(dir, "clock.go") + `:5:5: the name "now" is declared by the generated package too (errgen_runtime.go:`,
			filepath.Join(dir, "clock.go") + `:7:6: the name "field" is declared by the generated package too (errgen_runtime.go:`,
			filepath.Join(dir, "clock.go") + `:9:21: the method "Code" of "ToolTimeout" is declared by the generated package too (errgen.go:`,
			filepath.Join(dir, "clock_test.go") + `:3:6: the name "TestErrgenGolden" is declared by the generated package too (errgen_runtime_test.go:`,
			filepath.Join(dir, "order.go") + `:3:8: this file imports a package as "render", a name the generated package declares (errgen_runtime.go:`,
			filepath.Join(dir, "order.go") + `:7:6: the name "sort" is a package a generated file imports (errgen_runtime.go:`,
			filepath.Join(dir, "order.go") + `:9:21: the method "Seconds" of "ToolTimeout" has the name of a field the generated "ToolTimeout" has (errgen.go:`,
		} {
			if code != 1 || !strings.Contains(stderr, want) {
				t.Errorf("%v: exit %d, stderr:\n%s\nwant:\n%s", args, code, stderr, want)
			}
		}
	}
	sameTree(t, dir, before)
}

// TestOwnFilesImportNothingWithADot: a dot import in a file of the
// package's own, or in a test file of the same package, is refused at the
// import before anything is written: it puts every name the imported
// package exports beside the generated names, and os/user's Lookup, or
// strings' Reader with a variant named Reader, would not build. The
// external test package's dot imports are its own.
func TestOwnFilesImportNothingWithADot(t *testing.T) {
	dir, path, write := packageFolder(t)
	write("x_test.go", "package toolerr_test\n\nimport . \"os/user\"\n\nvar _ = Lookup\n")
	if code, _, stderr := runCLI(t, "generate", path); code != 0 {
		t.Fatalf("a dot import in the external test package: exit %d\n%s", code, stderr)
	}
	write("own.go", "package toolerr\n\nimport . \"strings\"\n\nvar _ = Contains\n")
	write("own_test.go", "package toolerr\n\nimport (\n\t\"testing\"\n\t. \"os/user\"\n\t. \"gopkg.in/yaml.v3\"\n)\n\nfunc TestUser(*testing.T) { _, _ = Current(); _ = Marshal }\n")
	before := snapshot(t, dir)
	write("errors.yaml", strings.Replace(validCatalogue, "retryable: true", "retryable: false", 1))
	before["errors.yaml"], _ = os.ReadFile(path)
	for _, args := range [][]string{{"generate", path}, {"generate", "--check", path}} {
		code, _, stderr := runCLI(t, args...)
		for _, want := range []string{
			filepath.Join(dir, "own.go") + `:3:8: this file dot-imports "strings", which puts every name that package exports beside the names the generated package declares`,
			`; import it without the dot, as import "strings", and write strings.Name for its names`,
			filepath.Join(dir, "own_test.go") + `:5:2: this file dot-imports "os/user", `,
			`, as import "os/user", and write user.Name for its names`,
			`, as import "gopkg.in/yaml.v3", and write yaml.Name for its names`,
		} {
			if code != 1 || !strings.Contains(stderr, want) {
				t.Errorf("%v: exit %d, stderr:\n%s\nwant:\n%s", args, code, stderr, want)
			}
		}
	}
	sameTree(t, dir, before)
}

func TestPackageMustMatchFolder(t *testing.T) {
	dir, path, write := packageFolder(t)
	write("gen.go", "//go:build ignore\n\npackage main\n")
	write("x_test.go", "package toolerr_test\n")
	write("doc.go", "// Package toolerr holds the tool errors.\npackage toolerr\n")
	// The go command ignores a file whose name starts with _ or .
	write("_scratch.go", "package scratch\n\nfunc broken() {\n")
	write(".hidden.go", "package hidden\n")
	if code, _, stderr := runCLI(t, "generate", path); code != 0 {
		t.Fatalf("a folder of the same package: exit %d\n%s", code, stderr)
	}
	// A file of the user's own whose name starts like errgen's counts.
	write("errgen_gen.go", "package tools\n")
	code, _, stderr := runCLI(t, "generate", path)
	if want := `errgen_gen.go is package "tools"`; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("a user's errgen_gen.go of another package: exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
	if err := os.Remove(filepath.Join(dir, "errgen_gen.go")); err != nil {
		t.Fatal(err)
	}
	write("other.go", "package tools\n")
	before := snapshot(t, dir)
	write("errors.yaml", strings.Replace(validCatalogue, "retryable: true", "retryable: false", 1))
	before["errors.yaml"], _ = os.ReadFile(path)
	for _, args := range [][]string{{"generate", path}, {"generate", "--check", path}} {
		code, _, stderr := runCLI(t, args...)
		want := path + `:2:1: package "toolerr" does not match the Go files already in ` + dir + `: other.go is package "tools"; change package: or write elsewhere with -o`
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant:\n%s", args, code, stderr, want)
		}
	}
	// Run in the folder, as go generate runs it, errgen says so rather
	// than name the folder ".".
	t.Chdir(dir)
	code, _, stderr = runCLI(t)
	if want := `errors.yaml:2:1: package "toolerr" does not match the Go files already in this folder: other.go is package "tools"; change package: or write elsewhere with -o` + "\n"; code != 1 || stderr != want {
		t.Errorf("errgen in the folder: exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	sameTree(t, dir, before)
}
