package fsafe

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// TempPrefix starts the name of every temporary file errgen writes; a file
// of that name left behind (only an uncatchable stop can leave one) is safe
// to delete.
const TempPrefix = ".errgen-"

// WriteAtomic writes data to path through a temporary file in the same
// folder, renamed into place, so a reader (or a crash) sees the old file or
// the new one, never half of one. A file that exists keeps its permissions;
// a new one gets 0666 less the process's umask, as any tool that creates a
// file does. Folders on the way are created 0777 less the umask.
func WriteAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return PathError(err)
	}
	var keep fs.FileMode
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
		keep = st.Mode().Perm()
	}
	tmp, err := createTemp(dir)
	if err != nil {
		return PathError(err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return PathError(err)
	}
	if keep != 0 {
		if err = tmp.Chmod(keep); err != nil {
			return PathError(err)
		}
	}
	if err = tmp.Close(); err != nil {
		return PathError(err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return PathError(err)
	}
	return nil
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
	return nil, &fs.PathError{Op: "create", Path: dir, Err: errors.New("no free temporary file name")}
}
