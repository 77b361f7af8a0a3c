//go:build !unix

package atomicout

import (
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"sync"
)

// processAlive is true: without a way to ask, another process's staged
// files are never taken for stale.
func processAlive(int) bool { return true }

func keepOwner(*os.File, fs.FileInfo) {}

// hostID names the host of this process (see proc_unix.go).
var hostID = sync.OnceValue(func() string {
	h := fnv.New32a()
	host, _ := os.Hostname()
	h.Write([]byte(host))
	return fmt.Sprintf("%08x", h.Sum32())
})

// syncFile flushes f to disk.
func syncFile(f *os.File) error { return f.Sync() }

// syncDir does nothing: directories cannot be synced here.
func syncDir(string) {}
