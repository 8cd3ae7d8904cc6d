package golang_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/golang"
)

var update = flag.Bool("update", false, "rewrite the stand-in files")

// TestStandinIsCurrent keeps the runtime package's stand-in up to date: its
// standin.go and standin_test.go are what errgen generates (errgen.go and
// errgen_test.go) for runtime/testdata/standin.yaml, and its golden files
// are errgen's, so the runtime is vetted and tested on its own against real
// generated code. go test ./gen/golang -update rewrites them.
func TestStandinIsCurrent(t *testing.T) {
	dir := "runtime"
	src, err := os.ReadFile(filepath.Join(dir, "testdata", "standin.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, diags := gen.Parse("standin.yaml", src)
	if m == nil {
		t.Fatal(diags)
	}
	files, err := gen.Generate(m)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{golang.CodeFile: "standin.go", golang.TestFile: "standin_test.go"}
	for _, f := range files {
		name, ok := names[f.Path]
		switch {
		case ok:
		case strings.HasPrefix(f.Path, "testdata/"):
			name = f.Path
		default:
			continue // the runtime's own files
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		if *update {
			if err := os.WriteFile(path, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(have, f.Data) {
			t.Errorf("%s is stale (run go test ./gen/golang -update): %v", path, err)
		}
	}
}

// TestFixedFilesAreCopies checks that errgen_runtime.go and
// errgen_runtime_test.go are the runtime package's files with only their
// first line and package clause changed.
func TestFixedFilesAreCopies(t *testing.T) {
	m, diags := gen.Parse("errors.yaml", []byte(layoutCatalogue))
	if m == nil {
		t.Fatal(diags)
	}
	files, err := golang.Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{golang.RuntimeFile: "runtime/runtime.go", golang.HarnessFile: "runtime/harness_test.go"} {
		orig, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(string(orig), "package runtime\n", "package layout\n", 1)
		_, want, _ = strings.Cut(want, "\n")
		want = golang.Header("errors.yaml") + "\n" + want
		if got := string(files[name]); got != want {
			t.Errorf("%s is not %s with its header and package clause changed", name, src)
		}
	}
}
