//go:build unix

package atomicout

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"sync"
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

// hostID names the host, boot and PID namespace of this process, in which
// a PID means a process: 8 hex digits of a hash of the host name, the boot
// id (/proc/sys/kernel/random/boot_id, Linux) and the PID namespace
// (/proc/self/ns/pid, "pid:[INODE]", Linux). Two containers that share an
// output directory differ in it, as do a run before and after a reboot.
var hostID = sync.OnceValue(func() string {
	h := fnv.New32a()
	host, _ := os.Hostname()
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	ns, _ := os.Readlink("/proc/self/ns/pid")
	fmt.Fprintf(h, "%s\x00%s\x00%s", host, bytes.TrimSpace(boot), ns)
	return fmt.Sprintf("%08x", h.Sum32())
})

// syncFile flushes f to disk (fsync).
func syncFile(f *os.File) error { return f.Sync() }

// syncDir flushes dir's entries to disk, where the file system allows it
// (fsync of a directory); an error is ignored: the files are written, only
// their durability across a crash is not assured.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close() // opened for reading
}
