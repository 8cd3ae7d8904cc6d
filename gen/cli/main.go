package cli

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// Main runs errgen as a process: like Run, and an interrupt (Ctrl-C or
// SIGTERM) lets the file being written finish its rename, then stops before
// the next one, so no file is left half-written and no temporary file is
// left behind.
func Main(args []string) int {
	var stop atomic.Bool
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		for range sig {
			stop.Store(true)
		}
	}()
	return run(&env{stdout: os.Stdout, stderr: os.Stderr, interrupted: stop.Load}, args)
}
