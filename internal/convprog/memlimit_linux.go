package convprog

import (
	"syscall"
	"unsafe"
)

// limitMemory sets the RLIMIT_DATA of process pid (prlimit(2)), the
// size of its private writable mappings: the Go runtime's heap is mapped
// so, and a mapping past the limit fails, which the runtime reports as
// "fatal error: runtime: out of memory". The limit applies from when it is
// set: the API's package init functions, which run before, are not held
// to it.
func limitMemory(pid int, bytes int64) error {
	lim := struct{ cur, max uint64 }{uint64(bytes), uint64(bytes)}
	_, _, errno := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_DATA, uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
