package atomicout

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Error is an I/O error of a commit: the output file, what failed, and how
// to fix it. When it is returned, every file is either as it was or wholly
// replaced: staged files are removed, and only a failed rename (Written not
// empty) leaves some files replaced.
type Error struct {
	Path    string   // the output file, as the generator's rule names it
	Err     error    // what failed
	Fix     string   // one line: how to fix it, or empty when the error says it
	Written []string // files replaced before a rename failed
	// Through is the stream that Path went to when the rule writes no
	// file ("standard output"); empty for a file.
	Through string
}

func (e *Error) Error() string {
	if e.Through != "" {
		msg := fmt.Sprintf("writing %s to %s: %v", e.Path, e.Through, e.Err)
		if len(e.Written) > 0 {
			msg += fmt.Sprintf("; the files were written before it: %s", strings.Join(e.Written, ", "))
		}
		return msg
	}
	msg := fmt.Sprintf("writing %s: %v", e.Path, e.Err)
	if len(e.Written) == 0 {
		return msg + "; no file was written"
	}
	return fmt.Sprintf("%s; %d file(s) were replaced before it: %s; the others were left as they were",
		msg, len(e.Written), strings.Join(e.Written, ", "))
}

func (e *Error) Unwrap() error { return e.Err }

// file is one output file of a commit.
type file struct {
	path string // as the rule names it
	data []byte
}

// staged is a file written in full beside its target, waiting for rename.
type staged struct {
	path   string // as the rule names it
	name   string // the staged file
	target string // the file it replaces: path, or the final target of its links
}

// hooks are what a test watches in one write, each nil unless a test
// sets it: per call, not per package, so tests run in parallel.
type hooks struct {
	// staged runs once every file of a commit is staged and before any
	// is renamed.
	staged func()
	// synced is told each staged file and each directory synced.
	synced func(path string)
}

// writeFiles replaces every file atomically, all or nothing as far as the
// file system allows: each is staged in its target's directory first, and
// only when all are staged are they renamed over their targets, in order.
// On error, and on SIGINT or SIGTERM (see watch), staged files are removed,
// and so are the directories this call created.
func writeFiles(files []file, h hooks) (err error) {
	var (
		pending []staged
		created []string // directories that prepare made
		cleaned = map[string]bool{}
	)
	defer func() {
		if err == nil {
			return
		}
		reg.Lock()
		for _, s := range pending {
			os.Remove(s.name)
			delete(reg.live, s.name)
		}
		reg.changedLocked()
		reg.Unlock()
		// deepest first, so that a parent made for one file goes after a
		// child made for another
		slices.SortFunc(created, func(a, b string) int { return len(b) - len(a) })
		for _, d := range created {
			os.Remove(d) // only if empty: never what someone else put there
		}
	}()
	for _, f := range files {
		target, info, made, err := prepare(f.path)
		created = append(created, made...)
		if err != nil {
			return err
		}
		if dir := filepath.Dir(target); !cleaned[dir] {
			cleaned[dir] = true
			removeStale(dir)
		}
		name, err := stage(f.path, target, info, f.data, h)
		if name != "" {
			pending = append(pending, staged{path: f.path, name: name, target: target})
		}
		if err != nil {
			return err
		}
	}
	if h.staged != nil {
		h.staged()
	}
	// Renames hold the registry's lock: a signal that arrives now waits for
	// them (they take microseconds), so a run is never left half-renamed by
	// SIGINT or SIGTERM. The directories are synced after, without it.
	var renamed []staged
	defer func() { syncDirs(renamed, h) }()
	reg.Lock()
	defer func() {
		reg.changedLocked()
		reg.Unlock()
	}()
	for i, s := range pending {
		if err := os.Rename(s.name, s.target); err != nil {
			var written []string
			for _, w := range pending[:i] {
				written = append(written, w.path)
			}
			for _, rest := range pending[i:] {
				os.Remove(rest.name)
				delete(reg.live, rest.name)
			}
			pending, created = nil, nil
			return &Error{Path: s.path, Err: err, Written: written,
				Fix: fmt.Sprintf("check %s and run again", filepath.Dir(s.target))}
		}
		delete(reg.live, s.name)
		renamed = append(renamed, s)
	}
	pending = nil
	return nil
}

// syncDirs makes the renames into the targets' directories durable (each
// directory's entry now names the new file), where the system allows it.
func syncDirs(renamed []staged, h hooks) {
	synced := map[string]bool{}
	for _, s := range renamed {
		if dir := filepath.Dir(s.target); !synced[dir] {
			synced[dir] = true
			syncDir(dir)
			if h.synced != nil {
				h.synced(dir)
			}
		}
	}
}

// maxLinks is how many symbolic links prepare follows, as Linux's open(2).
const maxLinks = 40

// prepare creates path's directory, as controller-gen's output rules do
// (os.MkdirAll, mode 0777 before umask), and returns the file that writing
// to path writes: path itself, or the final target of its symbolic links,
// with its FileInfo if it exists. made lists the directories it created,
// deepest first.
func prepare(path string) (target string, info fs.FileInfo, made []string, err error) {
	dir := filepath.Dir(path)
	made = missingDirs(dir)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", nil, made, &Error{Path: path, Err: fmt.Errorf("cannot create its directory: %w", err),
			Fix: fmt.Sprintf("%s must be a directory that can be created and written: check the output rule (output:<generator>:dir=... or output:<generator>:artifacts:config=...)", dir)}
	}
	target = path
	for links := 0; ; links++ {
		fi, err := os.Lstat(target)
		if errors.Is(err, fs.ErrNotExist) {
			if target == path {
				return target, nil, made, nil // a new file
			}
			// A dangling link: writing through it creates its target, as
			// controller-gen's os.Create does, when the target's directory
			// exists.
			if d, err := os.Stat(filepath.Dir(target)); err != nil || !d.IsDir() {
				return "", nil, made, &Error{Path: path, Err: fmt.Errorf("it is a symbolic link to %s, whose directory %s does not exist", target, filepath.Dir(target)),
					Fix: fmt.Sprintf("create the directory %s, or remove the link %s, and run again", filepath.Dir(target), path)}
			}
			return target, nil, made, nil
		}
		if err != nil {
			return "", nil, made, &Error{Path: path, Err: err, Fix: fmt.Sprintf("check %s and run again", target)}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.Mode().IsRegular() {
				return "", nil, made, notRegular(path, target, fi.Mode())
			}
			return target, fi, made, nil
		}
		if links == maxLinks {
			return "", nil, made, &Error{Path: path, Err: fmt.Errorf("more than %d symbolic links from %s (a cycle?)", maxLinks, path),
				Fix: fmt.Sprintf("fix the symbolic links from %s and run again", path)}
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", nil, made, &Error{Path: path, Err: err, Fix: fmt.Sprintf("check %s and run again", target)}
		}
		if !filepath.IsAbs(link) {
			// relative to the link's directory as the kernel sees it: ".."
			// in a directory reached through a link is the target's parent
			d, err := filepath.EvalSymlinks(filepath.Dir(target))
			if err != nil {
				return "", nil, made, &Error{Path: path, Err: err, Fix: fmt.Sprintf("check %s and run again", filepath.Dir(target))}
			}
			link = filepath.Join(d, link)
		}
		target = link
	}
}

// notRegular is the error for an output path that is, or leads through
// symbolic links to, something other than a regular file: it cannot be
// replaced by a rename. The fix is about what the author controls: the
// path itself, or the link to a device or directory that is not theirs to
// move (a link to /dev/null).
func notRegular(path, target string, mode fs.FileMode) *Error {
	what := "not a regular file"
	switch {
	case mode.IsDir():
		what = "a directory"
	case mode&fs.ModeDevice != 0:
		what = "a device"
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	}
	if target == path {
		return &Error{Path: path, Err: fmt.Errorf("%s is %s", path, what),
			Fix: fmt.Sprintf("move %s out of the way, or choose another output directory, and run again", path)}
	}
	return &Error{Path: path, Err: fmt.Errorf("it is a symbolic link to %s, which is %s: the output is written to a new file and renamed over the old one", target, what),
		Fix: fmt.Sprintf("remove the link %s, or choose another output directory, and run again", path)}
}

// missingDirs lists dir and its ancestors that do not exist, deepest first.
func missingDirs(dir string) []string {
	var out []string
	for {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		dir = parent
	}
}

// stage writes data to a new staged file beside target and returns its
// name, also on an error once it is created (the caller removes it). A new file gets controller-gen's mode (os.Create: 0666 before
// umask); a file that is replaced keeps its mode and, where the process may
// set them, its owner and group.
func stage(path, target string, info fs.FileInfo, data []byte, h hooks) (name string, err error) {
	dir := filepath.Dir(target)
	perm := fs.FileMode(0o666)
	if info != nil {
		perm = 0o600 // until its mode is set below
	}
	var f *os.File
	for range 100 {
		name = filepath.Join(dir, stagedName(filepath.Base(target), hostID(), os.Getpid(), rand.Uint32()))
		// created and registered under the lock, so that a signal handler
		// never misses it
		reg.Lock()
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			reg.live[name] = true
			reg.changedLocked()
		}
		reg.Unlock()
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", &Error{Path: path, Err: fmt.Errorf("cannot create a file in %s: %w", dir, err),
			Fix: fmt.Sprintf("%s must be writable: each file is written beside the one it replaces, then renamed over it", dir)}
	}
	fail := func(err error) (string, error) {
		_ = f.Close() // the caller removes the staged file; err is the one to report
		return name, &Error{Path: path, Err: err, Fix: fmt.Sprintf("check the file system of %s (space, quota) and run again", dir)}
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if info != nil {
		keepOwner(f, info)
		if err := f.Chmod(info.Mode().Perm()); err != nil {
			return fail(err)
		}
	}
	// on disk before the rename makes it the file: else a crash after the
	// rename can leave the target empty (ext4, XFS and others order the
	// rename before the data)
	if err := syncFile(f); err != nil {
		return fail(err)
	}
	if h.synced != nil {
		h.synced(name)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	return name, nil
}

// stagedSuffix marks staged files:
// ".NAME~controller-gen-default-HOST-PID-RAND", hidden, and with no
// extension that a YAML or Go tool would pick up. HOST is hostID: the PID
// is only meaningful to the host, boot and PID namespace that gave it.
const stagedSuffix = "~controller-gen-default-"

var (
	stagedPattern = regexp.MustCompile(`^\..*~controller-gen-default-([0-9a-f]{8})-([1-9][0-9]{0,9})-[0-9a-f]{8}$`)
	// legacyPattern is the name earlier versions gave (no HOST): whose PID
	// it is cannot be told.
	legacyPattern = regexp.MustCompile(`^\..*~controller-gen-default-([1-9][0-9]{0,9})-[0-9a-f]{8}$`)
)

// stagedName is the name of a staged file for base, short enough for any
// file system (255 bytes).
func stagedName(base string, host string, pid int, r uint32) string {
	const maxBase = 200
	if len(base) > maxBase {
		base = base[:maxBase]
		for !utf8.ValidString(base) {
			base = base[:len(base)-1]
		}
	}
	return fmt.Sprintf(".%s%s%s-%d-%08x", base, stagedSuffix, host, pid, r)
}

// staleAge is the age past which any staged file is a dead run's: a run
// stages its files and renames them within seconds.
const staleAge = time.Hour

// isStale is the rule that decides whether a staged file (a regular file
// whose name matches stagedPattern or legacyPattern) was left by a run
// that is gone, and may be removed: either it is older than staleAge,
// or it was staged under this process's own hostID (same host name, boot
// and PID namespace) by a process that is gone or has this process's pid
// (an earlier run: PID 1 in a container) and is not one of this process's
// own live files. A PID from another host, boot or PID namespace (two CI
// containers sharing a volume) says nothing here, so such a file is left
// until it is old, as is a legacy file, whose namespace is unknown.
func isStale(name string, modTime time.Time, live bool, now time.Time) bool {
	if live {
		return false
	}
	if now.Sub(modTime) > staleAge {
		return true
	}
	m := stagedPattern.FindStringSubmatch(name)
	if m == nil || m[1] != hostID() {
		return false
	}
	pid, err := strconv.Atoi(m[2])
	if err != nil {
		return false
	}
	return pid == os.Getpid() || !processAlive(pid)
}

// removeStale removes the staged files that a run killed before it could
// clean up (SIGKILL, a crash, power loss) left in dir: regular files whose
// name has the staged pattern and that isStale says are a dead run's.
// Anything else, and the staged files of runs still going, here or in
// another container, are left alone.
func removeStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := time.Now()
	for _, e := range entries {
		if !e.Type().IsRegular() || (!stagedPattern.MatchString(e.Name()) && !legacyPattern.MatchString(e.Name())) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		name := filepath.Join(dir, e.Name())
		reg.Lock()
		if isStale(e.Name(), info.ModTime(), reg.live[name], now) {
			os.Remove(name)
		}
		reg.Unlock()
	}
}
