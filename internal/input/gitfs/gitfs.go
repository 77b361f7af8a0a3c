// Package gitfs is the tree of one commit of a git repository as an
// io/fs.FS, read with the git command-line tool: `git rev-parse` names the
// commit, `git ls-tree` lists its tree once, and one long-lived `git
// cat-file --batch`, started at the first read and ended by Close (or
// the context), streams each file's content as it is read: no file is
// held whole, whatever its size (see blobs).
// Nothing is checked out, cloned or fetched, and the working tree is never
// touched: in a partial clone (git clone --filter), a file whose content
// the clone lacks is an error that names it, and git's lazy fetching is
// off (see noLazyFetch).
//
// Paths are as the checked-out tree has them: symbolic links are followed
// within the tree (relative targets that stay in the repository); a path
// in a submodule is an error that names the submodule and its commit.
//
// It is how `impact --old git://REF?path=PATH` reads the CRDs of a branch
// as crdify (kubernetes-sigs/crdify) does with go-git, but with the git
// users already have, so that every form of REF git understands works
// (origin/main, HEAD~1, a tag, a commit, :/message), shallow clones and
// worktrees included.
package gitfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"strings"
	"time"
)

// FS is the tree of one commit. Paths are relative to the repository's
// top directory, as in `git show REF:PATH`. Close ends its git process.
type FS struct {
	ctx    context.Context
	dir    string // where git runs
	ref    string // as given, for messages
	commit string
	time   time.Time
	// env is what the git it runs gets besides the environment; nil:
	// lazy fetching off (noLazyFetch), an empty one: nothing more.
	env []string
	// entries are the tree's files, links and directories by path ("."
	// is the top); children are a directory's entries' names, sorted;
	// submodules are the commits of its submodules by path.
	entries    map[string]entry
	children   map[string][]string
	submodules map[string]string
	blobs      *blobs
}

type entry struct {
	mode   fs.FileMode
	object string // the blob's id; "" for a directory
	size   int64  // 0 when missing: unknown
	// missing: the repository, a partial clone, lacks the blob
	missing bool
}

// New reads the tree of ref (anything `git rev-parse` takes that names a
// commit) of the repository that holds dir. The error says what git said.
// ctx bounds the FS's use: its end kills the git it runs.
func New(ctx context.Context, dir, ref string) (*FS, error) {
	f := &FS{ctx: ctx, dir: dir, ref: ref}
	if err := f.read(); err != nil {
		return nil, err
	}
	return f, nil
}

// read names the commit of f.ref and reads its tree, git run with f.env.
func (f *FS) read() error {
	commit, err := resolveRef(f.ctx, f.dir, f.env, f.ref)
	if err != nil {
		return err
	}
	// git log, not git show -s, which reads the commit's tree
	out, err := git(f.ctx, f.dir, f.env, nil, "log", "-1", "--format=%ct", commit)
	if err != nil {
		return err
	}
	var secs int64
	if _, err := fmt.Sscan(string(out), &secs); err != nil {
		return fmt.Errorf("git log %s: commit time %q: %w", commit, out, err)
	}
	f.commit, f.time = commit, time.Unix(secs, 0)
	f.entries = map[string]entry{".": {mode: fs.ModeDir | 0o555}}
	f.children, f.submodules = map[string][]string{}, map[string]string{}
	f.blobs = &blobs{ctx: f.ctx, dir: f.dir, env: f.env}
	return f.list()
}

// resolveRef is the commit ref names, git run with env (as command). A
// ref that git would read as an option (-h, --output=...) is refused,
// never passed. :/TEXT (the youngest commit whose message matches TEXT)
// is taken as it is: it names a commit, and a ^{commit} after it would be
// part of TEXT.
func resolveRef(ctx context.Context, dir string, env []string, ref string) (string, error) {
	if ref == "" || strings.HasPrefix(ref, "-") {
		return "", fmt.Errorf("%q is not a git revision", ref)
	}
	arg := ref + "^{commit}"
	if strings.HasPrefix(ref, ":/") {
		arg = ref
	}
	out, err := git(ctx, dir, env, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", arg)
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		// --quiet: git says nothing when the repository has no such commit
		return "", fmt.Errorf("%q is not a commit of the git repository at %s (git rev-parse --verify)", ref, dir)
	}
	if err != nil {
		return "", fmt.Errorf("%q is not a commit of a git repository at %s: %w", ref, dir, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Commit is the commit ref named.
func (f *FS) Commit() string { return f.commit }

// Close ends the git that reads files; files read after it fail.
func (f *FS) Close() error {
	f.blobs.closeAll()
	return nil
}

// Open opens a file or directory of the tree, symbolic links followed. A
// file's content is read from git as it is read.
func (f *FS) Open(name string) (fs.File, error) {
	p, e, err := f.resolve("open", name, true)
	if err != nil {
		return nil, err
	}
	info := fileInfo{name: path.Base(name), entry: e, time: f.time}
	if e.mode.IsDir() {
		return &dir{info: info, fs: f, path: p}, nil
	}
	if e.missing {
		return nil, &fs.PathError{Op: "open", Path: name, Err: f.missingError(p)}
	}
	return &file{info: info, fs: f, path: p}, nil
}

// Lstat is Stat without following a final symbolic link (fs.ReadLinkFS).
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	_, e, err := f.resolve("lstat", name, false)
	if err != nil {
		return nil, err
	}
	return fileInfo{name: path.Base(name), entry: e, time: f.time}, nil
}

// ReadLink is the target of the symbolic link name (fs.ReadLinkFS).
func (f *FS) ReadLink(name string) (string, error) {
	p, e, err := f.resolve("readlink", name, false)
	if err != nil {
		return "", err
	}
	if e.mode&fs.ModeSymlink == 0 {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fmt.Errorf("not a symbolic link: %w", fs.ErrInvalid)}
	}
	target, err := f.readLink(p, e)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return target, nil
}

type fileInfo struct {
	name  string
	entry entry
	time  time.Time
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.entry.size }
func (i fileInfo) Mode() fs.FileMode  { return i.entry.mode }
func (i fileInfo) ModTime() time.Time { return i.time }
func (i fileInfo) IsDir() bool        { return i.entry.mode.IsDir() }
func (i fileInfo) Sys() any           { return nil }

// file is an open file: its content streams from git as it is read
// (blobs).
type file struct {
	info   fileInfo
	fs     *FS
	path   string // in the tree, links followed
	off    int64  // the bytes read
	closed bool
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *file) Read(p []byte) (int, error) {
	n, err := f.fs.blobs.read(f, p)
	// a git failure that wraps io.EOF (its output cut short) is an error,
	// not the end of the file: errors.Is would take it for the end
	if err != nil && err != io.EOF { //nolint:errorlint // the end is io.EOF itself, as io.Reader returns it
		err = &fs.PathError{Op: "read", Path: f.path, Err: fmt.Errorf("at %s: %w", f.fs.ref, err)}
	}
	return n, err
}

func (f *file) Close() error {
	f.fs.blobs.close(f)
	return nil
}

// dir is an open directory (fs.ReadDirFile).
type dir struct {
	info   fileInfo
	fs     *FS
	path   string
	offset int
}

func (d *dir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dir) Close() error               { return nil }
func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: errors.New("is a directory")}
}

// ReadDir returns the directory's next n entries in name order (all of
// the rest for n <= 0), as fs.ReadDirFile says.
func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	names := d.fs.children[d.path]
	rest := names[d.offset:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && len(rest) > n {
		rest = rest[:n]
	}
	out := make([]fs.DirEntry, len(rest))
	for i, name := range rest {
		p := name
		if d.path != "." {
			p = d.path + "/" + name
		}
		out[i] = fs.FileInfoToDirEntry(fileInfo{name: name, entry: d.fs.entries[p], time: d.fs.time})
	}
	d.offset += len(rest)
	return out, nil
}
