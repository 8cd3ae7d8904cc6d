//go:build !unix

package fsafe

import (
	"io/fs"
	"os"
)

// openNoFollow opens path read-only after checking that its last element is
// not a symlink. Systems without O_NOFOLLOW have no FIFOs to block on.
func openNoFollow(path string) (*os.File, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, errSymlink
	}
	return os.Open(path)
}

type symlinkError struct{}

func (symlinkError) Error() string { return "symlink" }

var errSymlink error = symlinkError{}

func isLoop(err error) bool { return err == errSymlink }
