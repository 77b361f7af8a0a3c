// Package atomicout holds every file the generators write in memory until
// the whole run has succeeded, then writes them as controller-gen would,
// but atomically: through symbolic links (to the final target), keeping an
// existing file's mode, a new file with controller-gen's mode (0666 before
// umask). Every file of a commit is staged beside its target first
// (".NAME~controller-gen-default-HOST-PID-RAND"), synced to disk, and
// renamed over it only when all are staged; the directories are synced
// after the renames. A run with errors writes nothing; on an I/O error,
// SIGINT or SIGTERM the staged files are removed, and a later run removes
// those that a killed run of the same host and PID namespace left (or any
// older than an hour). A file being replaced is never seen half-written or
// truncated, nor empty after a crash.
package atomicout

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// Staging collects the output of a run.
type Staging struct {
	mu    sync.Mutex
	items []*item
	hooks hooks // tests only
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

// Commit writes every staged item through its rule. Files on disk are all
// staged, then renamed over their targets in the order opened (see
// writeFiles); only then do other rules (stdout, none) get their bytes, in
// order. An I/O error is an *Error.
func (s *Staging) Commit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var files []file
	var others []*item
	for _, it := range s.items {
		if outer, ok := it.rule.(rule); ok {
			// staged into another Staging: hand the bytes over, not a copy
			outer.s.mu.Lock()
			outer.s.items = append(outer.s.items, &item{rule: outer.inner, pkg: it.pkg, path: it.path, buf: it.buf})
			outer.s.mu.Unlock()
			continue
		}
		if path, ok := filePath(it.rule, it.pkg, it.path); ok {
			files = append(files, file{path: path, data: it.buf.Bytes()})
			continue
		}
		others = append(others, it)
	}
	if len(files) > 0 {
		if err := writeFiles(files, s.hooks); err != nil {
			return err
		}
	}
	for _, it := range others {
		if err := writeThrough(it); err != nil {
			var written []string
			for _, f := range files {
				written = append(written, f.path)
			}
			return &Error{Path: it.path, Err: err, Written: written, Through: ruleName(it.rule)}
		}
	}
	s.items = nil
	return nil
}

// writeThrough gives a rule that writes no file of its own the item's bytes.
func writeThrough(it *item) error {
	w, err := it.rule.Open(it.pkg, it.path)
	if err != nil {
		return err
	}
	if _, err := w.Write(it.buf.Bytes()); err != nil {
		_ = w.Close() // the write's error is the one to report
		return err
	}
	return w.Close()
}

// ruleName names a rule that writes no file of its own, for errors.
func ruleName(r genall.OutputRule) string {
	if r == genall.OutputToStdout {
		return "standard output"
	}
	return fmt.Sprintf("%T", r)
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
