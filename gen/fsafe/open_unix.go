//go:build unix

package fsafe

import (
	"errors"
	"os"
	"syscall"
)

// openNoFollow opens path read-only without following a symlink in its last
// element (O_NOFOLLOW) and without blocking on a FIFO (O_NONBLOCK, which does
// not change how a regular file reads).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// isLoop reports whether err is what O_NOFOLLOW gives for a symlink.
func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}
