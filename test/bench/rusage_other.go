//go:build !unix

package main

import "os"

// peakRSS is not measured on this platform.
func peakRSS(*os.ProcessState) int64 { return 0 }
