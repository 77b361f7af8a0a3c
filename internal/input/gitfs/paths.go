package gitfs

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
)

// maxLinks is how many symbolic links a path may go through, as Linux
// allows (MAXSYMLINKS): more is a loop, or as good as one.
const maxLinks = 40

// maxTarget is the longest target of a symbolic link that is followed
// (PATH_MAX).
const maxTarget = 4096

// link is a symbolic link followed, for messages.
type link struct{ path, target string }

// resolve finds name in the tree as the checked-out tree would: each
// symbolic link on the way followed (the last one too when followLast),
// its target taken from the link's directory, element by element (.. is
// the parent of where the path is then, as the kernel takes it). A link
// to an absolute path, or whose .. climbs out of the repository, is not
// followed: the tree holds only the repository. It returns the path
// reached, links followed, and its entry.
func (f *FS) resolve(op, name string, followLast bool) (string, entry, error) {
	fail := func(err error) (string, entry, error) {
		return "", entry{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	if !fs.ValidPath(name) {
		return fail(f.invalidPath(name))
	}
	cur, e := ".", f.entries["."]
	todo := strings.Split(name, "/")
	var via *link
	for links := 0; len(todo) > 0; {
		elem := todo[0]
		todo = todo[1:]
		switch {
		case elem == "." || elem == "":
			continue
		case elem == "..":
			if cur == "." {
				return fail(f.outside(via))
			}
			cur = path.Dir(cur)
			e = f.entries[cur]
			continue
		case !e.mode.IsDir():
			return fail(fs.ErrNotExist) // under a file
		}
		p := path.Join(cur, elem)
		next, ok := f.entries[p]
		if !ok {
			return fail(f.notFound(p, todo))
		}
		if next.mode&fs.ModeSymlink == 0 || len(todo) == 0 && !followLast {
			cur, e = p, next
			continue
		}
		if links++; links > maxLinks {
			return fail(fmt.Errorf("more than %d symbolic links on the way at %s (a loop? the last: %s -> %s)", maxLinks, f.ref, via.path, via.target))
		}
		target, err := f.readLink(p, next)
		if err != nil {
			return fail(err)
		}
		via = &link{p, target}
		if path.IsAbs(target) {
			return fail(f.outside(via))
		}
		todo = append(strings.Split(target, "/"), todo...) // from cur, the link's directory
	}
	return cur, e, nil
}

// readLink is the target of the symbolic link at p, read from git.
func (f *FS) readLink(p string, e entry) (string, error) {
	if e.missing {
		return "", f.missingError(p)
	}
	if e.size > maxTarget {
		return "", fmt.Errorf("symbolic link %s at %s has a target of %d bytes, longer than a path can be", p, f.ref, e.size)
	}
	fl := &file{info: fileInfo{entry: e}, fs: f, path: p}
	defer func() { _ = fl.Close() }() // a git blob, read only; file.Close cannot fail
	target, err := io.ReadAll(fl)
	return string(target), err
}

// explained is an error of io/fs (fs.ErrNotExist, fs.ErrInvalid) with a
// message that says why and what to do.
type explained struct {
	msg string
	err error
}

func (e *explained) Error() string { return e.msg }
func (e *explained) Unwrap() error { return e.err }

// invalidPath says why name is not a path of the tree.
func (f *FS) invalidPath(name string) error {
	const rule = "paths are relative to the top of the repository, as in git show REF:PATH (config/crd/bases)"
	why := "not a path of the tree"
	switch clean := path.Clean(name); {
	case path.IsAbs(name):
		why = "an absolute path, not in the tree"
	case clean == ".." || strings.HasPrefix(clean, "../"):
		why = "out of the repository"
	case strings.Contains(name, ".."):
		why = "a path with .., which the tree's paths do not have"
	}
	return &explained{fmt.Sprintf("%s at %s: %s; %s", name, f.ref, why, rule), fs.ErrInvalid}
}

// outside says that the link via leads out of the repository.
func (f *FS) outside(via *link) error {
	if via == nil { // a valid path has no .. of its own: unreachable
		return &explained{"out of the repository", fs.ErrInvalid}
	}
	return &explained{fmt.Sprintf("symbolic link %s at %s points to %s, out of the repository: git:// follows links that stay in it; "+
		"read the target from where it is, or commit the file in place of the link", via.path, f.ref, via.target), fs.ErrNotExist}
}

// notFound is the error for p, absent from the tree: a submodule is
// named with its commit; rest is what the path had after p.
func (f *FS) notFound(p string, rest []string) error {
	commit, ok := f.submodules[p]
	if !ok {
		return fs.ErrNotExist
	}
	inside := path.Join(append([]string{"."}, rest...)...)
	return &explained{fmt.Sprintf("%s at %s is in submodule %s (commit %s), a repository of its own, which git:// does not read: "+
		"read it from the submodule's repository (there, as git://%s?path=%s)",
		path.Join(p, inside), f.ref, p, commit, commit, inside), fs.ErrNotExist}
}

// missingError says that the blob of p is not in the repository, a
// partial clone, and how to get it without git:// fetching it.
func (f *FS) missingError(p string) error {
	return &explained{fmt.Sprintf("%s at %s is not in this repository: it is a partial clone (git clone --filter), which fetches files when something needs them, and git:// fetches nothing; "+
		"fetch them first without touching the working tree (git archive %s %s >/dev/null fetches the directory's files), or clone without --filter",
		p, f.ref, f.commit, path.Dir(p)), fs.ErrNotExist}
}
