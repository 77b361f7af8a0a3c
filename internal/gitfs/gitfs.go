// Package gitfs is the tree of one commit of a git repository as an
// io/fs.FS, read with the git command-line tool: `git rev-parse` names the
// commit, `git ls-tree` lists its tree once, and `git cat-file` reads a
// file when it is opened. Nothing is checked out, cloned or fetched, and
// the working tree is never touched.
//
// It is how `impact --old git://REF?path=PATH` reads the CRDs of a branch
// as crdify (kubernetes-sigs/crdify) does with go-git, but with the git
// users already have, so that every form of REF git understands works
// (origin/main, HEAD~1, a tag, a commit), shallow clones and worktrees
// included.
package gitfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"strings"
	"time"
)

// FS is the tree of one commit. Paths are relative to the repository's
// top directory, as in `git show REF:PATH`.
type FS struct {
	ctx    context.Context
	dir    string // where git runs
	commit string
	time   time.Time
	// entries are the tree's files and directories by path ("." is the
	// top); children are a directory's entries' names, sorted.
	entries  map[string]entry
	children map[string][]string
}

type entry struct {
	mode   fs.FileMode
	object string // the blob's id; "" for a directory
	size   int64
}

// New reads the tree of ref (anything `git rev-parse` takes that names a
// commit) of the repository that holds dir. The error says what git said.
func New(ctx context.Context, dir, ref string) (*FS, error) {
	if ref == "" || strings.HasPrefix(ref, "-") {
		return nil, fmt.Errorf("%q is not a git revision", ref)
	}
	out, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		// --quiet: git says nothing when the repository has no such commit
		return nil, fmt.Errorf("%q is not a commit of the git repository at %s (git rev-parse --verify)", ref, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("%q is not a commit of a git repository at %s: %w", ref, dir, err)
	}
	commit := strings.TrimSpace(string(out))
	out, err = git(ctx, dir, "show", "-s", "--format=%ct", commit)
	if err != nil {
		return nil, err
	}
	var secs int64
	if _, err := fmt.Sscan(string(out), &secs); err != nil {
		return nil, fmt.Errorf("git show %s: commit time %q: %w", commit, out, err)
	}
	out, err = git(ctx, dir, "ls-tree", "-r", "-t", "-z", "--long", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	f := &FS{ctx: ctx, dir: dir, commit: commit, time: time.Unix(secs, 0),
		entries: map[string]entry{".": {mode: fs.ModeDir | 0o555}}, children: map[string][]string{}}
	if err := f.index(out); err != nil {
		return nil, err
	}
	return f, nil
}

// Commit is the commit ref named.
func (f *FS) Commit() string { return f.commit }

// index reads `git ls-tree -r -t -z --long` output: for each entry
// "MODE TYPE OBJECT SIZE\tPATH\x00".
func (f *FS) index(out []byte) error {
	for line := range bytes.SplitSeq(out, []byte{0}) {
		if len(line) == 0 {
			continue
		}
		meta, name, ok := bytes.Cut(line, []byte{'\t'})
		fields := strings.Fields(string(meta))
		if !ok || len(fields) != 4 {
			return fmt.Errorf("git ls-tree: unexpected line %q", line)
		}
		e, keep := entryOf(fields[0], fields[2], fields[3])
		if !keep {
			continue
		}
		p := string(name)
		f.entries[p] = e
		f.children[path.Dir(p)] = append(f.children[path.Dir(p)], path.Base(p))
	}
	for _, names := range f.children {
		slices.Sort(names)
	}
	return nil
}

// entryOf is one entry of the tree by its git mode: a directory (040000),
// a file (100644, or 100755 executable) or a symbolic link (120000, whose
// content is its target, as git stores it). A submodule (160000) is a
// commit of another repository, not in this tree: it is left out.
func entryOf(mode, object, size string) (entry, bool) {
	switch mode {
	case "040000":
		return entry{mode: fs.ModeDir | 0o555}, true
	case "100644":
		return entry{mode: 0o444, object: object, size: parseSize(size)}, true
	case "100755":
		return entry{mode: 0o555, object: object, size: parseSize(size)}, true
	case "120000":
		return entry{mode: fs.ModeSymlink | 0o777, object: object, size: parseSize(size)}, true
	}
	return entry{}, false
}

func parseSize(s string) int64 {
	var n int64
	fmt.Sscan(s, &n)
	return n
}

// Open opens a file or directory of the tree. A file's content is read
// from git when it is opened.
func (f *FS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	e, ok := f.entries[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	info := fileInfo{name: path.Base(name), entry: e, time: f.time}
	if e.mode.IsDir() {
		return &dir{info: info, fs: f, path: name}, nil
	}
	data, err := git(f.ctx, f.dir, "cat-file", "blob", e.object)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &file{info: info, Reader: bytes.NewReader(data)}, nil
}

// git runs git in dir and returns its standard output; the error holds
// what git wrote to its standard error.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out, nil
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

// file is an open file: its content, read whole from git.
type file struct {
	info fileInfo
	*bytes.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

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
