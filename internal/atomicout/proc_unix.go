//go:build unix

package atomicout

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// processAlive reports whether a process with this pid exists (a process
// of another user counts).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// keepOwner gives f the owner and group of the file it replaces, as far as
// the process may (root may; others may keep the group if they are in it).
// Writing through the path, as controller-gen does, keeps both.
func keepOwner(f *os.File, info fs.FileInfo) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	uid, gid := int(st.Uid), int(st.Gid)
	if uid == os.Geteuid() && gid == os.Getegid() {
		return
	}
	if f.Chown(uid, gid) != nil {
		_ = f.Chown(-1, gid)
	}
}
