package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/synth"
)

// A pull request controls every file in the repository, links included.
// These tests plant what it could (a link to a secret outside the
// repository, a link to an endless device, a huge file, a file of escape
// sequences and workflow commands) where errgen reads, and check that
// nothing of the secret is printed, nothing blocks, and what is printed of
// a planted file is bounded and inert.

const secret = "GITHUB_TOKEN=ghs_secretsecretsecret"

// plantSecret writes a secret outside dir and returns its path.
func plantSecret(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "credentials")
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func link(t *testing.T, target, name string) {
	t.Helper()
	os.Remove(name)
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func TestCheckDoesNotReadThroughLinks(t *testing.T) {
	secretPath := plantSecret(t)
	for _, name := range []string{"errgen_test.go", "errgen.go", "ERRORS.md", "testdata/ok.golden.json"} {
		t.Run(name, func(t *testing.T) {
			dir, path := generatedDir(t, synth.Catalogue(2))
			if code, _, stderr := runCLI(t, "generate", "--docs", "ERRORS.md", path); code != 0 {
				t.Fatal(stderr)
			}
			target := filepath.Join(dir, filepath.FromSlash(name))
			if strings.HasPrefix(name, "testdata/") {
				// A link in place of the golden folder.
				target = filepath.Join(dir, "testdata")
				os.RemoveAll(target)
			}
			link(t, secretPath, target)
			runs := [][]string{
				{"generate", "--check", "--docs", "ERRORS.md", path},
				{"generate", "--docs", "ERRORS.md", path},
			}
			if name == "ERRORS.md" {
				runs = append(runs, []string{"docs", "--check", "-o", target, path}, []string{"docs", "-o", target, path})
			}
			for _, args := range runs {
				code, stdout, stderr := runCLI(t, args...)
				if code != 1 {
					t.Errorf("errgen %s: exit %d", strings.Join(args, " "), code)
				}
				if strings.Contains(stdout+stderr, "ghs_") {
					t.Errorf("errgen %s printed the secret:\n%s%s", strings.Join(args, " "), stdout, stderr)
				}
			}
		})
	}
}

func TestCatalogueAndBaseAreNotReadThroughLinks(t *testing.T) {
	secretPath := plantSecret(t)
	dir := t.TempDir()
	catalogue := filepath.Join(dir, "errors.yaml")
	link(t, secretPath, catalogue)
	for _, args := range [][]string{
		{"lint", catalogue},
		{"generate", catalogue},
		{"explain", "--catalogue", catalogue, "x"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 1 || strings.Contains(stdout+stderr, "ghs_") || !strings.Contains(stderr, "symlink") {
			t.Errorf("errgen %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	real := filepath.Join(t.TempDir(), "errors.yaml")
	if err := os.WriteFile(real, synth.Catalogue(2), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"compat", "--against", catalogue, real},
		{"diff", "--against", catalogue, real},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 1 || strings.Contains(stdout+stderr, "ghs_") || !strings.Contains(stderr, "symlink") {
			t.Errorf("errgen %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

func TestCheckOfEndlessOrHugeFilesIsBounded(t *testing.T) {
	dir, path := generatedDir(t, synth.Catalogue(2))
	link(t, "/dev/zero", filepath.Join(dir, "errgen_test.go"))
	// A sparse file of a gigabyte costs no disk, and would cost a gigabyte
	// of memory if it were read.
	huge := filepath.Join(dir, "errgen.go")
	if err := os.Truncate(huge, 1<<30); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "generate", "--check", path)
	if code != 1 || !strings.Contains(stderr, "symlink") || !strings.Contains(stderr, "1073741824 bytes") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	if len(stdout) > 1<<20 {
		t.Errorf("printed %d bytes", len(stdout))
	}
}

func TestCheckDiffOfPlantedFileIsInert(t *testing.T) {
	dir, path := generatedDir(t, synth.Catalogue(2))
	target := filepath.Join(dir, "errgen_test.go")
	data, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	planted := strings.Replace(string(data), "package ", "// \x1b[2J\r::error::forged\n//   ::warning::x ##[error]y\npackage ", 1)
	if err := os.WriteFile(target, []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "generate", "--check", path)
	if code != 1 || !strings.Contains(stdout, `\x1b[2J\x0d::error::forged`) {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	checkOutput(t, stdout+stderr)
}
