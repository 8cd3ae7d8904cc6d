package fsafe

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileRefusesLinksAndOddFiles(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "outside", "credentials")
	write(t, secret, "token=hunter2\n")
	link := filepath.Join(dir, "errors.yaml")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	data, err := ReadFile(link, 1<<20)
	if !errors.Is(err, ErrNotRegular) || data != nil {
		t.Fatalf("ReadFile(symlink) = %q, %v; want ErrNotRegular", data, err)
	}
	if strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("message %q", err)
	}
	if _, err := ReadFile(dir, 1<<20); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "folder") {
		t.Errorf("ReadFile(folder) = %v", err)
	}
	if _, err := ReadFile(os.DevNull, 1<<20); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "device") {
		t.Errorf("ReadFile(%s) = %v", os.DevNull, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 1<<20); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v", err)
	}
}

func TestReadFileCapsSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	write(t, path, strings.Repeat("x", 100))
	if data, err := ReadFile(path, 100); err != nil || len(data) != 100 {
		t.Fatalf("ReadFile at the cap = %d bytes, %v", len(data), err)
	}
	_, err := ReadFile(path, 99)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 100 || tl.Max != 99 {
		t.Fatalf("ReadFile over the cap = %v", err)
	}
	head, size, err := ReadHead(path, 10)
	if err != nil || string(head) != "xxxxxxxxxx" || size != 100 {
		t.Fatalf("ReadHead = %q, %d, %v", head, size, err)
	}
}

func TestCheckBelow(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "testdata", "a.json"), "{}")
	write(t, filepath.Join(t.TempDir(), "x"), "")
	if err := CheckBelow(dir, "testdata/a.json"); err != nil {
		t.Errorf("plain file: %v", err)
	}
	if err := CheckBelow(dir, "testdata/new.json"); err != nil {
		t.Errorf("missing file: %v", err)
	}
	if err := CheckBelow(dir, "new/x.json"); err != nil {
		t.Errorf("missing folder: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "testdata"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := CheckBelow(dir, "linked/a.json"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("linked folder: %v", err)
	}
	if err := CheckBelow(dir, "testdata"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("folder as a file: %v", err)
	}
	// A file where a folder goes is named for what it is, once: "a
	// regular file, not a folder".
	err := CheckBelow(dir, "testdata/a.json/x")
	if want := filepath.Join(dir, "testdata", "a.json") + " is a regular file, not a folder; errgen reads and writes files inside it"; !errors.Is(err, ErrNotFolder) || err.Error() != want {
		t.Errorf("file as a folder: %v\nwant: %s", err, want)
	}
}

func TestWriteAtomicKeepsOrSetsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "new.go")
	if err := WriteAtomic(path, []byte("a")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.FileMode(0o666) &^ umask(); st.Mode().Perm() != want {
		t.Errorf("new file mode %v, want %v (0666 less the umask)", st.Mode().Perm(), want)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("b")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("replaced file mode %v, want 0640 kept", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), TempPrefix) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// A Batch changes no file until Commit, and Abort leaves nothing behind:
// no temporary file, no folder it created.
func TestBatchIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.go")
	write(t, old, "old")
	var b Batch
	if err := b.Stage(old, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := b.Stage(filepath.Join(dir, "a", "b", "new.json"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(old); string(data) != "old" {
		t.Errorf("a staged file replaced its target before Commit: %q", data)
	}
	b.Abort()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "old.go" {
		t.Errorf("after Abort the folder holds %v, want old.go alone", entries)
	}
	if data, _ := os.ReadFile(old); string(data) != "old" {
		t.Errorf("Abort changed %s: %q", old, data)
	}

	b = Batch{}
	for _, p := range []string{old, filepath.Join(dir, "a", "new.json")} {
		if err := b.Stage(p, []byte("new")); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Abort() // nothing to undo after a Commit
	for _, p := range []string{old, filepath.Join(dir, "a", "new.json")} {
		if data, _ := os.ReadFile(p); string(data) != "new" {
			t.Errorf("%s after Commit: %q", p, data)
		}
	}
}

// A failure names the file being written, never the temporary file the
// file system names; a failed rename says which files are already new.
func TestBatchErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "errgen.go")
	b := Batch{Hook: func(op Op, path string) error {
		if op == OpCreate {
			return &fs.PathError{Op: "open", Path: filepath.Join(dir, TempPrefix+"x.tmp"), Err: fs.ErrPermission}
		}
		return nil
	}}
	err := b.Stage(target, []byte("x"))
	if want := "cannot write " + target + ": cannot create a file in " + dir + ": permission denied"; err == nil || err.Error() != want || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Stage = %v, want %s", err, want)
	}

	write(t, target, "old")
	second, third := filepath.Join(dir, "b.go"), filepath.Join(dir, "c.go")
	b = Batch{Hook: func(op Op, path string) error {
		if op == OpRename && path == third {
			return &os.LinkError{Op: "rename", Old: filepath.Join(dir, TempPrefix+"y.tmp"), New: third, Err: fs.ErrPermission}
		}
		return nil
	}}
	for _, p := range []string{target, second, third} {
		if err := b.Stage(p, []byte("new")); err != nil {
			t.Fatal(err)
		}
	}
	err = b.Commit()
	want := "cannot create " + third + ": permission denied; these files were already written: " + target + " (replaced), " + second + " (new); every other file is unchanged"
	var ce *CommitError
	if !errors.As(err, &ce) || err.Error() != want {
		t.Errorf("Commit = %v, want %s", err, want)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), TempPrefix) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if _, err := os.Lstat(third); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists after its rename failed", third)
	}
}

// A folder to write in that is a link to nothing is refused by name;
// MkdirAll does not create the link's target.
func TestMkdirAllRefusesDanglingLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "out")
	if err := os.Symlink(filepath.Join(dir, "missing"), link); err != nil {
		t.Skipf("cannot create symlinks here: %v", err)
	}
	for _, p := range []string{link, filepath.Join(link, "sub")} {
		var b Batch
		err := b.MkdirAll(p)
		var de *DanglingError
		if !errors.As(err, &de) || de.Path != link || !strings.Contains(err.Error(), "is a symlink to") {
			t.Errorf("MkdirAll(%s) = %v", p, err)
		}
		b.Abort()
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing")); err == nil {
		t.Error("the link's target was created")
	}
}
