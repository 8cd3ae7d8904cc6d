package fsafe

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/diag"
)

// TempPrefix starts the name of every temporary file errgen writes; a file
// of that name left behind (only an uncatchable stop can leave one) is safe
// to delete.
const TempPrefix = ".errgen-"

// Op is a file-system operation of a Batch, as its Hook sees it.
type Op string

const (
	OpMkdir  Op = "mkdir"  // create a folder on the way to a file
	OpCreate Op = "create" // create a file's temporary file beside it
	OpWrite  Op = "write"  // write the temporary file and close it
	OpRename Op = "rename" // rename the temporary file over the file
	OpRemove Op = "remove" // delete a file (generate --prune), outside any Batch
)

// Batch writes several files all or nothing, as far as a file system
// allows: Stage writes each file to a temporary file in its folder, and
// Commit renames them into place only once every one is written. A failed
// Stage, or Abort, removes the temporary files and the folders the batch
// created, so that nothing changed. Only a rename failing in Commit after
// others succeeded leaves some files new and the rest old, which the
// *CommitError lists; the renames come one after another, with nothing
// written in between, so that window is as small as it can be.
//
// A file that exists keeps its permissions; a new one gets 0666 less the
// process's umask, as any tool that creates a file does. Folders on the way
// are created 0777 less the umask.
type Batch struct {
	// Hook, when set, is called before each operation with the path it
	// serves (the file, or the folder to create); an error it returns
	// fails the operation as the file system would. Tests use it to make
	// a write fail where permission bits cannot, as root.
	Hook func(op Op, path string) error

	staged  []staged
	created []string // the folders the batch created, outermost first
}

// staged is a file written to its temporary file, not yet renamed.
type staged struct {
	path, tmp string
	existed   bool
}

func (b *Batch) hook(op Op, path string) error {
	if b.Hook == nil {
		return nil
	}
	return b.Hook(op, path)
}

// MkdirAll creates the folder dir and any missing folder on the way, as
// part of the batch: Abort removes those it created if they are still
// empty. dir itself, or a folder on the way, may be a link to a folder, as
// an output folder the user chose may be; a link to nothing is refused
// (*DanglingError) rather than followed to create its target, and
// something that is not a folder on the way is refused with ErrNotFolder.
func (b *Batch) MkdirAll(dir string) error {
	if ok, err := lookFolder(dir); ok || err != nil {
		return err
	}
	// dir is missing, or could not be looked at: make its parent first,
	// which also finds a file or a link to nothing on the way.
	if parent := filepath.Dir(dir); parent != dir {
		if err := b.MkdirAll(parent); err != nil {
			return err
		}
	}
	err := b.hook(OpMkdir, dir)
	if err == nil {
		err = os.Mkdir(dir, 0o777)
	}
	if errors.Is(err, fs.ErrExist) {
		// Made since it was looked at: fine if it is a folder.
		if st, serr := os.Stat(dir); serr == nil && st.IsDir() {
			return nil
		}
	}
	if err != nil {
		return &MkdirError{Path: dir, Err: cause(err)}
	}
	b.created = append(b.created, dir)
	return nil
}

// lookFolder is what MkdirAll and CheckFolder see of dir: ok when it is a
// folder (or a link to one); an error when it is something else, or a
// link to nothing; neither when it is missing or could not be looked at.
func lookFolder(dir string) (ok bool, err error) {
	st, err := os.Stat(dir)
	switch {
	case err == nil && st.IsDir():
		return true, nil
	case err == nil:
		return false, &folderError{dir, describe(st.Mode())}
	case errors.Is(err, fs.ErrNotExist):
		if lst, lerr := os.Lstat(dir); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(dir)
			return false, &DanglingError{Path: dir, Target: target}
		}
	}
	return false, nil
}

// CheckFolder refuses, as MkdirAll would and without creating anything,
// a folder to write in that cannot be one: dir, or a folder on the way,
// is something other than a folder (ErrNotFolder), or a link to nothing
// (*DanglingError). A folder that does not exist yet is fine.
func CheckFolder(dir string) error {
	if ok, err := lookFolder(dir); ok || err != nil {
		return err
	}
	if parent := filepath.Dir(dir); parent != dir {
		return CheckFolder(parent)
	}
	return nil
}

// Stage writes data to a new temporary file in path's folder (created as
// MkdirAll does) with the mode path will have. It changes no file that
// exists. On failure the temporary file is removed and the error names
// path, never the temporary file: a *WriteError, or an error of MkdirAll.
func (b *Batch) Stage(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := b.MkdirAll(dir); err != nil {
		return err
	}
	var keep fs.FileMode
	existed, hasMode := false, false
	if st, err := os.Lstat(path); err == nil {
		existed = true
		if st.Mode().IsRegular() {
			keep, hasMode = st.Mode().Perm(), true
		}
	}
	err = b.hook(OpCreate, path)
	var tmp *os.File
	if err == nil {
		tmp, err = createTemp(dir)
	}
	if err != nil {
		return &WriteError{Path: path, Dir: dir, Err: cause(err)}
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	err = b.hook(OpWrite, path)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil && hasMode {
		err = tmp.Chmod(keep)
	}
	if err == nil {
		err = tmp.Close()
	}
	if err != nil {
		return &WriteError{Path: path, Err: cause(err)}
	}
	b.staged = append(b.staged, staged{path, tmp.Name(), existed})
	return nil
}

// Commit renames every staged file into place, in the order they were
// staged. If a rename fails, the files not yet renamed are left as they
// were, their temporary files removed, and the *CommitError says which
// files were already in place.
func (b *Batch) Commit() error {
	for i, s := range b.staged {
		err := b.hook(OpRename, s.path)
		if err == nil {
			err = os.Rename(s.tmp, s.path)
		}
		if err != nil {
			ce := &CommitError{Path: s.path, Existed: s.existed, Err: cause(err)}
			for _, d := range b.staged[:i] {
				ce.Done = append(ce.Done, Done{d.path, d.existed})
			}
			b.staged = b.staged[i:]
			b.Abort()
			return ce
		}
	}
	b.staged, b.created = nil, nil
	return nil
}

// Abort removes the temporary files of the files not yet renamed and the
// folders the batch created that are empty, the innermost first. It does
// nothing after a Commit that succeeded.
func (b *Batch) Abort() {
	for _, s := range b.staged {
		os.Remove(s.tmp)
	}
	for i := len(b.created) - 1; i >= 0; i-- {
		os.Remove(b.created[i]) // fails, and keeps it, unless it is empty
	}
	b.staged, b.created = nil, nil
}

// WriteAtomic writes data to path through a temporary file in the same
// folder, renamed into place, so a reader (or a crash) sees the old file or
// the new one, never half of one: a Batch of one file.
func WriteAtomic(path string, data []byte) error {
	var b Batch
	if err := b.Stage(path, data); err != nil {
		b.Abort()
		return err
	}
	return b.Commit()
}

// WriteError is a file that could not be written. Dir is set when its
// folder refused a new file in it (the temporary file, which is never
// named: it is gone).
type WriteError struct {
	Path, Dir string
	Err       error
}

func (e *WriteError) Error() string {
	if e.Dir != "" {
		return fmt.Sprintf("cannot write %s: cannot create a file in %s: %v", diag.Path(e.Path), diag.Path(e.Dir), e.Err)
	}
	return fmt.Sprintf("cannot write %s: %v", diag.Path(e.Path), e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

// MkdirError is a folder that could not be created.
type MkdirError struct {
	Path string
	Err  error
}

func (e *MkdirError) Error() string {
	return fmt.Sprintf("cannot create the folder %s: %v", diag.Path(e.Path), e.Err)
}

func (e *MkdirError) Unwrap() error { return e.Err }

// DanglingError is a folder to write in that is a symlink to nothing.
type DanglingError struct {
	Path, Target string
}

func (e *DanglingError) Error() string {
	return fmt.Sprintf("%s is a symlink to %s, which does not exist; errgen does not create a folder through a link", diag.Path(e.Path), diag.Quote(e.Target))
}

func (e *DanglingError) Unwrap() error { return fs.ErrNotExist }

// Done is a file a Commit put in place: new, or replacing one that existed.
type Done struct {
	Path    string
	Existed bool
}

// CommitError is a rename that failed in Commit: the file at Path (which
// existed before, or not) is unchanged, and so is every file after it; the
// files of Done, before it, are already the new ones.
type CommitError struct {
	Path    string
	Existed bool
	Err     error
	Done    []Done
}

func (e *CommitError) Error() string {
	verb := "create"
	if e.Existed {
		verb = "replace"
	}
	msg := fmt.Sprintf("cannot %s %s: %v; ", verb, diag.Path(e.Path), e.Err)
	if len(e.Done) == 0 {
		return msg + "nothing was written"
	}
	names := make([]string, len(e.Done))
	for i, d := range e.Done {
		how := "new"
		if d.Existed {
			how = "replaced"
		}
		names[i] = diag.Path(d.Path) + " (" + how + ")"
	}
	what := "these files were"
	if len(names) == 1 {
		what = "this file was"
	}
	return msg + what + " already written: " + strings.Join(names, ", ") + "; every other file is unchanged"
}

func (e *CommitError) Unwrap() error { return e.Err }

// cause is the reason an operation failed, without the path the file
// system names (the temporary file's, or a pair of them in a rename).
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		return se.Err
	}
	return err
}

// createTemp creates a new temporary file in dir with mode 0666, which the
// kernel reduces by the umask (os.CreateTemp would make it 0600).
func createTemp(dir string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, TempPrefix+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, errors.New("no free temporary file name")
}
