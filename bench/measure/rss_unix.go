//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS returns the peak resident set of the process, in bytes. The kernel
// counts the largest of the process and the children it waited for, so for
// go build it is the largest compile or vet process.
func maxRSS(st *os.ProcessState) int64 {
	ru, ok := st.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) * 1024 // KiB
}
