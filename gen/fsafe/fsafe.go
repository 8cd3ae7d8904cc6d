// Package fsafe reads and writes the files that a pull request controls
// (a catalogue, the generated files it claims to be up to date, a base
// catalogue) so that committing a symlink, a FIFO or a huge file cannot make
// errgen print a secret from outside the repository, hang, or run out of
// memory.
//
// Reading follows the rules writing always had: the last element of the path
// must not be a symlink, and below an output folder no element may be one;
// a file is opened without following links and without blocking, so a FIFO
// or a device is refused instead of waited on; only regular files are read,
// and never more than a stated number of bytes.
package fsafe

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/errgen/errgen/gen/diag"
)

// ErrNotRegular is returned for a path that exists but is not a regular
// file: a symlink, a folder, a FIFO, a device or a socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrNotFolder is returned for an element on the way to a file that exists
// but is not a folder: a regular file, a FIFO, a device or a socket (a
// symlink there is ErrNotRegular, like any link errgen refuses).
var ErrNotFolder = errors.New("not a folder")

// TooLargeError is returned when a file holds more bytes than the reader
// allows.
type TooLargeError struct {
	Path string
	Size int64 // the size the file reported, or at least Max+1
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %d bytes; errgen reads at most %d", diag.Path(e.Path), e.Size, e.Max)
}

// kindError describes a path that is not a regular file, or a symlink on
// the way to one (onTheWay).
type kindError struct {
	path, what string
	onTheWay   bool
}

func (e *kindError) Error() string {
	if e.onTheWay {
		return fmt.Sprintf("%s is %s; errgen reads and writes files inside folders, and never through a link", diag.Path(e.path), e.what)
	}
	return fmt.Sprintf("%s is %s, not a regular file; errgen reads and writes only regular files, and never through a link", diag.Path(e.path), e.what)
}

func (e *kindError) Unwrap() error { return ErrNotRegular }

// folderError describes an element on the way to a file that is not a
// folder.
type folderError struct {
	path, what string
}

func (e *folderError) Error() string {
	return fmt.Sprintf("%s is %s, not a folder; errgen reads and writes files inside it", diag.Path(e.path), e.what)
}

func (e *folderError) Unwrap() error { return ErrNotFolder }

// describe names what a non-regular file is.
func describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// Open opens the regular file at path for reading. The last element of path
// must not be a symlink; the file is opened without following one and
// without blocking, then refused unless it is a regular file.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNoFollow(path)
	if err != nil {
		if isLoop(err) {
			return nil, nil, &kindError{path: path, what: "a symlink"}
		}
		return nil, nil, PathError(err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, PathError(err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &kindError{path: path, what: describe(st.Mode())}
	}
	return f, st, nil
}

// ReadFile reads the regular file at path (see Open), refusing it with a
// *TooLargeError when it holds more than max bytes. Only max+1 bytes are
// ever read, whatever size the file reports.
func ReadFile(path string, max int64) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, &TooLargeError{path, st.Size(), max}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, PathError(err)
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{path, max + 1, max}
	}
	return data, nil
}

// ReadHead reads at most n bytes from the start of the regular file at path
// (see Open), and reports the file's size.
func ReadHead(path string, n int64) ([]byte, int64, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, n))
	if err != nil {
		return nil, 0, PathError(err)
	}
	return data, st.Size(), nil
}

// CheckBelow refuses a path rel (slash-separated, inside dir) when any of
// its elements below dir, the file included, is a symlink (ErrNotRegular)
// or something else that is not a folder on the way (ErrNotFolder) or a
// regular file at the end (ErrNotRegular). dir itself may be a link: the
// user chose it. Elements that do not exist yet are fine.
func CheckBelow(dir, rel string) error {
	p := dir
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return PathError(err)
		}
		last := i == len(parts)-1
		switch m := st.Mode(); {
		case m&fs.ModeSymlink != 0 && last:
			return &kindError{path: p, what: "a symlink"}
		case m&fs.ModeSymlink != 0:
			return &kindError{path: p, what: "a symlink", onTheWay: true}
		case !last && !m.IsDir():
			return &folderError{p, describe(m)}
		case last && !m.IsRegular():
			return &kindError{path: p, what: describe(m)}
		}
	}
	return nil
}

// Named returns err, an error of this package about a path or an
// *fs.PathError, naming that path as name does; other errors come back
// as they are. A caller that reads a file by one path and names it by
// another (from a repository's root) words the error so.
func Named(err error, name func(string) string) error {
	switch e := err.(type) {
	case *kindError:
		c := *e
		c.path = name(e.path)
		return &c
	case *folderError:
		c := *e
		c.path = name(e.path)
		return &c
	case *TooLargeError:
		c := *e
		c.Path = name(e.Path)
		return &c
	case *fs.PathError:
		c := *e
		c.Path = name(e.Path)
		return &c
	}
	return err
}

// PathError returns err with the path of an *fs.PathError made safe to
// print (see diag.Path); other errors come back as they are.
func PathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %s: %w", pe.Op, diag.Path(pe.Path), pe.Err)
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return fmt.Errorf("%s %s %s: %w", le.Op, diag.Path(le.Old), diag.Path(le.New), le.Err)
	}
	return err
}
