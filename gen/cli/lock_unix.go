//go:build unix

package cli

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"

	"github.com/errgen/errgen/gen/fsafe"
)

// lockPoll is how often a run waiting for another run's lock tries again.
const lockPoll = 50 * time.Millisecond

// lockFolder takes an exclusive lock on the output folder, which exists
// (flock on the folder itself, so no lock file is left behind), and
// returns its release. Two errgen generate runs into one folder then take
// turns instead of leaving a package mixed from both. The wait for the
// other run's lock is interruptible: an interrupt returns errInterrupted.
func lockFolder(ctx context.Context, dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fsafe.PathError(err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fsafe.PathError(&os.PathError{Op: "lock", Path: dir, Err: err})
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, errInterrupted
		case <-time.After(lockPoll):
		}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
