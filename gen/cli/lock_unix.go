//go:build unix

package cli

import (
	"os"
	"syscall"

	"github.com/errgen/errgen/gen/fsafe"
)

// lockFolder takes an exclusive lock on the output folder (flock on the
// folder itself, so no lock file is left behind) and returns its release.
// Two errgen generate runs into one folder then take turns instead of
// leaving a package mixed from both. A folder that does not exist yet is
// created first, as writing would create it.
func lockFolder(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fsafe.PathError(err)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, fsafe.PathError(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fsafe.PathError(&os.PathError{Op: "lock", Path: dir, Err: err})
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
