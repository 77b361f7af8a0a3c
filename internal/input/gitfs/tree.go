package gitfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
)

// GIT_NO_LAZY_FETCH and GIT_ALLOW_PROTOCOL are what git runs with,
// besides the environment, unless an FS says otherwise (FS.env): lazy
// fetching off. In a partial clone (git clone --filter), git fetches a
// missing object from the promisor remote as soon as a command needs it,
// and writes it to .git; GIT_NO_LAZY_FETCH (git 2.44, and the maintenance
// releases of May 2024: 2.39.4, 2.40.2, ... 2.43.4) turns that off. Gits
// without it would still fetch: for them, missing objects are found first
// without fetching (list), and GIT_ALLOW_PROTOCOL, an allow-list that
// names no transport, makes a fetch that still starts fail before it
// connects.
const (
	noLazyFetch = "GIT_NO_LAZY_FETCH=1"
	noProtocol  = "GIT_ALLOW_PROTOCOL="
)

// command is git run in dir with env besides the environment; nil env:
// lazy fetching off (noLazyFetch, noProtocol), an empty one: nothing.
func command(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	if env == nil {
		env = []string{noLazyFetch, noProtocol}
	}
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// git runs git in dir with env (as command), stdin its input, and returns
// its standard output; the error holds what git wrote to its standard
// error.
func git(ctx context.Context, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	cmd := command(ctx, dir, env, args...)
	cmd.Stdin = bytes.NewReader(stdin)
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

// list reads the commit's tree. Where git may fetch (a partial clone),
// the objects missing are found first (missing); the tree is then listed
// without sizes, which would need the missing blobs, and the sizes of the
// blobs present are asked for apart.
func (f *FS) list() error {
	partial, err := f.partial()
	if err != nil {
		return err
	}
	var missing map[string]bool
	if partial {
		if missing, err = f.missing(""); err != nil {
			return err
		}
	}
	if len(missing) == 0 {
		out, err := git(f.ctx, f.dir, f.env, nil, "ls-tree", "-r", "-t", "-z", "--long", "--full-tree", f.commit)
		if err != nil {
			return err
		}
		return f.index(out, nil)
	}
	if err := f.treesPresent(); err != nil {
		return err
	}
	out, err := git(f.ctx, f.dir, f.env, nil, "ls-tree", "-r", "-t", "-z", "--full-tree", f.commit)
	if err != nil {
		return err
	}
	if err := f.index(out, missing); err != nil {
		return err
	}
	return f.sizes()
}

// partial: whether git may fetch missing objects of the repository: it
// has a promisor remote (remote.NAME.promisor, or the older
// extensions.partialClone).
func (f *FS) partial() (bool, error) {
	_, err := git(f.ctx, f.dir, f.env, nil, "config", "--get-regexp", `^(remote\..*\.promisor|extensions\.partialclone)$`)
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 { // none
		return false, nil
	}
	return err == nil, err
}

// missing is the objects of the commit's tree that the repository does
// not have, as `git rev-list --missing=print` finds them, without
// fetching; filter is a --filter=SPEC that leaves objects out of the
// search.
func (f *FS) missing(filter string) (map[string]bool, error) {
	args := []string{"rev-list", "--objects", "--no-walk", "--missing=print"}
	if filter != "" {
		args = append(args, "--filter="+filter)
	}
	out, err := git(f.ctx, f.dir, f.env, nil, append(args, f.commit)...)
	if err != nil {
		return nil, err
	}
	missing := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		if oid, ok := strings.CutPrefix(strings.TrimSpace(line), "?"); ok {
			missing[oid] = true
		}
	}
	return missing, nil
}

// treesPresent: the commit's trees are all there (a clone with
// --filter=tree:0 may lack them), so that listing them fetches nothing.
func (f *FS) treesPresent() error {
	trees, err := f.missing("blob:none")
	if err != nil || len(trees) == 0 {
		return err
	}
	return fmt.Errorf("the tree of %s (commit %s) is not all in this repository: it is a partial clone (git clone --filter), which fetches what it lacks when needed, and git:// fetches nothing; "+
		"fetch the tree first (git ls-tree -r %s >/dev/null), or clone without --filter", f.ref, f.commit, f.commit)
}

// index reads `git ls-tree -r -t -z [--long]` output: for each entry
// "MODE TYPE OBJECT[ SIZE]\tPATH\x00"; objects in missing are marked so.
func (f *FS) index(out []byte, missing map[string]bool) error {
	for line := range bytes.SplitSeq(out, []byte{0}) {
		if len(line) == 0 {
			continue
		}
		meta, name, ok := bytes.Cut(line, []byte{'\t'})
		fields := strings.Fields(string(meta))
		if !ok || len(fields) != 3 && len(fields) != 4 {
			return fmt.Errorf("git ls-tree: unexpected line %q", line)
		}
		p := string(name)
		if fields[0] == "160000" {
			f.submodules[p] = fields[2]
			continue
		}
		size := "" // without --long, sizes are set by sizes
		if len(fields) == 4 {
			size = fields[3]
		}
		e, keep := entryOf(fields[0], fields[2], size)
		if !keep {
			continue
		}
		e.missing = missing[e.object]
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
// commit of another repository, not in this tree: it is not an entry.
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
	_, _ = fmt.Sscan(s, &n) // no number (no --long): 0, unknown
	return n
}

// sizes sets the sizes of the blobs present, from `git cat-file
// --batch-check`, which fetches nothing for objects that are there.
func (f *FS) sizes() error {
	var ids []byte
	for _, e := range f.entries {
		if e.object != "" && !e.missing {
			ids = append(append(ids, e.object...), '\n')
		}
	}
	out, err := git(f.ctx, f.dir, f.env, ids, "cat-file", "--batch-check=%(objectname) %(objectsize)")
	if err != nil {
		return err
	}
	size := map[string]int64{}
	for line := range strings.Lines(string(out)) {
		var oid string
		var n int64
		if _, err := fmt.Sscan(line, &oid, &n); err != nil {
			return fmt.Errorf("git cat-file --batch-check: unexpected line %q", line)
		}
		size[oid] = n
	}
	for p, e := range f.entries {
		if e.object != "" && !e.missing {
			e.size = size[e.object]
			f.entries[p] = e
		}
	}
	return nil
}
