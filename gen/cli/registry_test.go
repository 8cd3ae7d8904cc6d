package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestRegistryLintGolden runs errgen lint on each case of
// testdata/registry-lint: the files of the archive in a folder of their
// own, linted through its errgen.registry.yaml, or with the arguments of
// its args file; want is what lint prints, the folder's path left out, and
// its exit status. go test -update rewrites want.
func TestRegistryLintGolden(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/registry-lint/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases in testdata/registry-lint: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			args := []string{"errgen.registry.yaml"}
			var want *txtar.File
			for i := range ar.Files {
				f := &ar.Files[i]
				switch f.Name {
				case "want":
					want = f
					continue
				case "args":
					args = strings.Fields(string(f.Data))
					continue
				}
				target := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(target, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want == nil {
				t.Fatal("no want section")
			}
			for i, a := range args {
				args[i] = filepath.Join(dir, a)
			}
			code, stdout, stderr := runCLI(t, append([]string{"lint"}, args...)...)
			got := strings.ReplaceAll(stdout+stderr, filepath.ToSlash(dir)+"/", "") + fmt.Sprintf("exit %d\n", code)
			if *update {
				want.Data = []byte(got)
				if err := os.WriteFile(p, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal([]byte(got), want.Data) {
				t.Errorf("lint printed:\n%s\nwant:\n%s", got, want.Data)
			}
		})
	}
}

// TestRegistryRepository: the three catalogues of testdata/registry (tool
// runtime, provider gateway, orchestrator) pass lint together, through
// their registry.
func TestRegistryRepository(t *testing.T) {
	code, stdout, stderr := runCLI(t, "lint", "../../testdata/registry/errgen.registry.yaml")
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("lint of testdata/registry exited %d:\n%s%s", code, stdout, stderr)
	}
}

// TestExportRegistry: errgen export through the registry of
// testdata/registry prints testdata/export/registry.json (which
// gen/export's golden test also holds to its schema), naming each
// catalogue by its path in the registry.
func TestExportRegistry(t *testing.T) {
	code, stdout, stderr := runCLI(t, "export", "../../testdata/registry/errgen.registry.yaml")
	want, err := os.ReadFile("../../testdata/export/registry.json")
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || stderr != "" || stdout != string(want) {
		t.Errorf("export exited %d, stderr %q, and printed what testdata/export/registry.json does not hold:\n%s", code, stderr, stdout)
	}
	if code, stdout, _ := runCLI(t, "schema", "--export"); code != 0 || !strings.Contains(stdout, `"title": "errgen export, version 1"`) {
		t.Errorf("schema --export exited %d:\n%s", code, stdout)
	}
}
