//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the peak resident set size of the process and of the children
// it waited for (go list), in bytes.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) //nolint:unconvert // bytes; Maxrss is an int32 on 32-bit platforms
	}
	return int64(ru.Maxrss) * 1024 //nolint:unconvert // kilobytes; Maxrss is an int32 on 32-bit platforms
}
