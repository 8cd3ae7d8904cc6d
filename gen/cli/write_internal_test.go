package cli

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/errgen/errgen/gen/fsafe"
	"github.com/errgen/errgen/gen/synth"
)

// These tests make one write fail through the writeHook, which binds root
// too (permission bits do not): whoever runs them, a failure part way
// through must leave every file as it was.

// tree returns every file below dir by slash path, and fails on a
// temporary file left behind.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), fsafe.TempPrefix) {
			t.Errorf("temporary file left behind: %s", path)
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// staleFolder generates synth.Catalogue(3) into a new folder, the working
// directory, and replaces the catalogue with one of four variants: every
// Go file but the runtime changes, and variant_3 needs a golden file.
func staleFolder(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("errors.yaml", synth.Catalogue(3), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"generate"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatalf("first generation exited %d", code)
	}
	if err := os.WriteFile("errors.yaml", synth.Catalogue(4), 0o644); err != nil {
		t.Fatal(err)
	}
	return tree(t, ".")
}

// runHooked runs errgen in the working directory with hook under every
// write.
func runHooked(ctx context.Context, hook func(fsafe.Op, string) error, args ...string) (int, string) {
	var stdout, stderr bytes.Buffer
	code := run(ctx, &env{stdout: &stdout, stderr: &stderr, writeHook: hook}, args)
	return code, stderr.String()
}

// failAt returns a hook that fails op on the file named name with err.
func failAt(op fsafe.Op, name string, err error) func(fsafe.Op, string) error {
	return func(o fsafe.Op, path string) error {
		if o == op && filepath.ToSlash(path) == name {
			return err
		}
		return nil
	}
}

// TestFailedWriteChangesNothing: a write that fails after others were
// written (the new golden file's folder refuses it, the disk fills up)
// leaves every file as it was, and names the file being written, not the
// temporary file.
func TestFailedWriteChangesNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		hook func(fsafe.Op, string) error
		want string
	}{
		{"golden file's folder not writable", failAt(fsafe.OpCreate, "testdata/variant_3.golden.json", syscall.EACCES),
			"errgen: cannot write testdata/variant_3.golden.json: cannot create a file in testdata: permission denied; nothing was written\n"},
		{"output folder not writable", failAt(fsafe.OpCreate, "errgen.go", syscall.EACCES),
			"errgen: cannot write errgen.go: cannot create a file in .: permission denied; nothing was written\n"},
		{"disk full at the last Go file", failAt(fsafe.OpWrite, "errgen_test.go", syscall.ENOSPC),
			"errgen: cannot write errgen_test.go: no space left on device; nothing was written\n"},
		{"testdata cannot be made", failAt(fsafe.OpMkdir, "testdata", syscall.EROFS),
			"errgen: cannot create the folder testdata: read-only file system; nothing was written\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := staleFolder(t)
			if c.name == "testdata cannot be made" {
				if err := os.RemoveAll("testdata"); err != nil {
					t.Fatal(err)
				}
				before = tree(t, ".")
			}
			code, stderr := runHooked(context.Background(), c.hook, "generate")
			if code != ExitProblems || stderr != c.want {
				t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, c.want)
			}
			sameFiles(t, before, tree(t, "."))
			if _, err := os.Lstat("testdata"); c.name == "testdata cannot be made" && err == nil {
				t.Error("testdata was made")
			}
		})
	}
}

// sameFiles fails unless got holds exactly the files of want.
func sameFiles(t *testing.T, want, got map[string]string) {
	t.Helper()
	for name, data := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s is gone", name)
		} else if g != data {
			t.Errorf("%s changed", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s was written", name)
		}
	}
}

// TestFailedRenameSaysWhatWasWritten: once every file is written, a
// rename can still fail; the message says exactly which files are already
// the new ones, the others are unchanged, and no temporary file is left.
func TestFailedRenameSaysWhatWasWritten(t *testing.T) {
	before := staleFolder(t)
	code, stderr := runHooked(context.Background(), failAt(fsafe.OpRename, "testdata/variant_3.golden.json", syscall.EIO), "generate")
	const want = "errgen: cannot create testdata/variant_3.golden.json: input/output error; these files were already written: errgen.go (replaced), errgen_test.go (replaced); every other file is unchanged\n"
	if code != ExitProblems || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	now := tree(t, ".")
	for _, name := range []string{"errgen.go", "errgen_test.go"} {
		if now[name] == before[name] {
			t.Errorf("%s is said to be replaced, and is not", name)
		}
		delete(now, name)
		delete(before, name)
	}
	sameFiles(t, before, now)

	// The first rename failing changes nothing, and says so.
	before = staleFolder(t)
	code, stderr = runHooked(context.Background(), failAt(fsafe.OpRename, "errgen.go", syscall.EIO), "generate")
	if want := "errgen: cannot replace errgen.go: input/output error; nothing was written\n"; code != ExitProblems || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	sameFiles(t, before, tree(t, "."))
}

// TestInterruptWhileWritingChangesNothing: an interrupt that comes while
// the files are written, up to the last one, stops errgen with every file
// as it was.
func TestInterruptWhileWritingChangesNothing(t *testing.T) {
	for _, at := range []string{"errgen.go", "testdata/variant_3.golden.json"} {
		t.Run(at, func(t *testing.T) {
			before := staleFolder(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			hook := func(op fsafe.Op, path string) error {
				if op == fsafe.OpWrite && filepath.ToSlash(path) == at {
					cancel()
				}
				return nil
			}
			code, stderr := runHooked(ctx, hook, "generate")
			if want := "errgen: interrupted; nothing was written\n"; code != ExitProblems || stderr != want {
				t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
			}
			sameFiles(t, before, tree(t, "."))
		})
	}
}

// TestStoppedRunRemovesTheFolderItMade: a run into an -o folder that does
// not exist yet makes it; interrupted or failing before its renames, it
// removes the folders it made, the innermost first, each only while empty,
// and never one that was there before.
func TestStoppedRunRemovesTheFolderItMade(t *testing.T) {
	for _, c := range []struct {
		name, out string
		stop      func(cancel func()) error // what happens at the first write
		want      string
		left      []string // folders that must remain
		gone      string   // the outermost folder that must be gone
	}{
		{"interrupted, nested", "new/sub/out", func(cancel func()) error { cancel(); return nil },
			"errgen: interrupted; nothing was written\n", nil, "new"},
		{"interrupted, in a folder that was there", "kept/out", func(cancel func()) error { cancel(); return nil },
			"errgen: interrupted; nothing was written\n", []string{"kept"}, "kept/out"},
		{"failed", "new/out", func(func()) error { return syscall.ENOSPC },
			"errgen: cannot write new/out/errgen.go: no space left on device; nothing was written\n", nil, "new"},
		{"someone else's file in it", "new/out", func(cancel func()) error {
			cancel()
			return os.WriteFile("new/out/theirs.txt", nil, 0o644)
		}, "errgen: interrupted; nothing was written\n", []string{"new", "new/out"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := os.WriteFile("errors.yaml", synth.Catalogue(3), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir("kept", 0o755); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			first := true
			hook := func(op fsafe.Op, path string) error {
				if op == fsafe.OpWrite && first {
					first = false
					return c.stop(cancel)
				}
				return nil
			}
			code, stderr := runHooked(ctx, hook, "generate", "-o", c.out)
			if code != ExitProblems || stderr != c.want {
				t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, c.want)
			}
			for _, d := range c.left {
				if st, err := os.Stat(d); err != nil || !st.IsDir() {
					t.Errorf("%s is gone: %v", d, err)
				}
			}
			if c.gone != "" {
				if _, err := os.Lstat(c.gone); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s is left behind (%v)", c.gone, err)
				}
			}
			tree(t, ".") // no temporary file
		})
	}
}

// TestFailedPruneSaysWhatWasWritten: --prune deletes after the generated
// files are in place, so a deletion that fails says they were written and
// how many of the golden files it was to delete are gone; one that is
// already gone counts as deleted.
func TestFailedPruneSaysWhatWasWritten(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("errors.yaml", synth.Catalogue(4), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"generate"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatalf("first generation exited %d", code)
	}
	if err := os.WriteFile("errors.yaml", synth.Catalogue(2), 0o644); err != nil {
		t.Fatal(err)
	}
	before := tree(t, ".")
	code, stderr := runHooked(context.Background(), failAt(fsafe.OpRemove, "testdata/variant_3.golden.json", syscall.EPERM), "generate", "--prune")
	const want = "errgen: cannot delete testdata/variant_3.golden.json: operation not permitted; the generated files were written, and 1 of the 2 golden files no example writes were deleted\n"
	if code != ExitProblems || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	now := tree(t, ".")
	if now["errgen.go"] == before["errgen.go"] {
		t.Error("errgen.go is said to be written, and is not")
	}
	if _, ok := now["testdata/variant_2.golden.json"]; ok {
		t.Error("testdata/variant_2.golden.json is said to be deleted, and is not")
	}
	if _, ok := now["testdata/variant_3.golden.json"]; !ok {
		t.Error("testdata/variant_3.golden.json is gone")
	}

	// Gone before --prune came to it: what --prune asks for holds.
	code, stderr = runHooked(context.Background(), func(op fsafe.Op, path string) error {
		if op == fsafe.OpRemove {
			if err := os.Remove(path); err != nil {
				t.Error(err)
			}
		}
		return nil
	}, "generate", "--prune")
	if code != 0 || stderr != "" {
		t.Errorf("a golden file gone before --prune deleted it: exit %d, stderr:\n%s", code, stderr)
	}
}
