// Package atomicout holds every file the generators write in memory until
// the whole run has succeeded, then writes each one atomically (temporary
// file and rename). A run with errors writes nothing, and a file that is
// being replaced is never seen half-written or truncated.
package atomicout

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// Staging collects the output of a run.
type Staging struct {
	mu    sync.Mutex
	items []*item
}

type item struct {
	rule genall.OutputRule
	pkg  *loader.Package
	path string
	buf  bytes.Buffer
}

func (i *item) Write(p []byte) (int, error) { return i.buf.Write(p) }

// Close trims the buffer's spare capacity: a run holds every file until
// Commit, and growth by doubling would keep up to twice their size.
func (i *item) Close() error {
	if b := i.buf.Bytes(); cap(b) > len(b)+len(b)/8 {
		i.buf = *bytes.NewBuffer(bytes.Clone(b))
	}
	return nil
}

// rule stages what is written through inner.
type rule struct {
	inner genall.OutputRule
	s     *Staging
}

func (r rule) Open(pkg *loader.Package, path string) (io.WriteCloser, error) {
	it := &item{rule: r.inner, pkg: pkg, path: path}
	r.s.mu.Lock()
	r.s.items = append(r.s.items, it)
	r.s.mu.Unlock()
	return it, nil
}

// Rule returns a rule that stages into s what inner would write.
func (s *Staging) Rule(inner genall.OutputRule) genall.OutputRule { return rule{inner: inner, s: s} }

// Wrap returns rules that stage into s instead of writing.
func (s *Staging) Wrap(rules genall.OutputRules) genall.OutputRules {
	out := genall.OutputRules{Default: rule{inner: rules.Default, s: s}}
	if rules.ByGenerator != nil {
		out.ByGenerator = make(map[*genall.Generator]genall.OutputRule, len(rules.ByGenerator))
		for g, r := range rules.ByGenerator {
			out.ByGenerator[g] = rule{inner: r, s: s}
		}
	}
	return out
}

// Commit writes every staged item through its rule, in the order opened.
// Files on disk are replaced atomically; other rules (stdout, none) get the
// bytes as written.
func (s *Staging) Commit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range s.items {
		if err := commit(it); err != nil {
			return err
		}
	}
	s.items = nil
	return nil
}

func commit(it *item) error {
	if outer, ok := it.rule.(rule); ok {
		// staged into another Staging: hand the bytes over, not a copy
		outer.s.mu.Lock()
		outer.s.items = append(outer.s.items, &item{rule: outer.inner, pkg: it.pkg, path: it.path, buf: it.buf})
		outer.s.mu.Unlock()
		return nil
	}
	if path, ok := filePath(it.rule, it.pkg, it.path); ok {
		return WriteFile(path, it.buf.Bytes())
	}
	w, err := it.rule.Open(it.pkg, it.path)
	if err != nil {
		return err
	}
	if _, err := w.Write(it.buf.Bytes()); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// filePath returns where a directory-based controller-tools rule would
// create itemPath, mirroring genall.OutputToDirectory and
// genall.OutputArtifacts.
func filePath(r genall.OutputRule, pkg *loader.Package, itemPath string) (string, bool) {
	switch r := r.(type) {
	case genall.OutputToDirectory:
		return filepath.Join(string(r), itemPath), true
	case genall.OutputArtifacts:
		if pkg == nil {
			return filepath.Join(string(r.Config), itemPath), true
		}
		if r.Code != "" {
			return filepath.Join(string(r.Code), itemPath), true
		}
		if len(pkg.CompiledGoFiles) == 0 {
			return "", false
		}
		return filepath.Join(filepath.Dir(pkg.CompiledGoFiles[0]), itemPath), true
	}
	return "", false
}

// WriteFile replaces path with data atomically: it writes a temporary file
// in the same directory and renames it over path.
func WriteFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(name, path)
}

// Destination is the file that rule r would write itemPath to, through any
// staging; ok is false for rules that write no file of their own (stdout,
// none).
func Destination(r genall.OutputRule, pkg *loader.Package, itemPath string) (string, bool) {
	for {
		s, ok := r.(rule)
		if !ok {
			break
		}
		r = s.inner
	}
	return filePath(r, pkg, itemPath)
}

// Staged returns what the run has staged so far under the item path
// itemPath (the name a generator passed to Open), if anything.
func (s *Staging) Staged(itemPath string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range s.items {
		if it.path == itemPath {
			return it.buf.Bytes(), true
		}
	}
	return nil, false
}
