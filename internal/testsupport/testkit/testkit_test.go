package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSourceKey: the key changes with what the build reads (a Go file,
// go.mod, a file a package embeds) and only with that (not with a test
// file, testdata or a nested module), so that a shared build is never
// stale and not rebuilt for nothing.
func TestSourceKey(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := func() string {
		t.Helper()
		k, err := sourceKey(root)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write("go.mod", "module example.com/m\n\ngo 1.25\n")
	write("cmd/a/main.go", "package main\n\nfunc main() {}\n")
	write("static/static.go", "package static\n\nimport _ \"embed\"\n\n//go:embed data/x.txt\nvar X string\n")
	write("static/data/x.txt", "one")
	base := key()
	if again := key(); again != base {
		t.Fatalf("two keys of the same files: %s, %s", base, again)
	}
	for _, same := range []struct{ rel, content string }{
		{"cmd/a/main_test.go", "package main\n"},
		{"cmd/a/testdata/x.go", "package x\n"},
		{"cmd/a/README.md", "# a\n"},
		{"nested/go.mod", "module example.com/nested\n"},
		{"nested/n.go", "package nested\n"},
		{"bin/a", "a binary"},
	} {
		write(same.rel, same.content)
		if k := key(); k != base {
			t.Errorf("writing %s changed the key", same.rel)
		}
	}
	for _, changed := range []struct{ rel, content string }{
		{"cmd/a/main.go", "package main\n\nfunc main() { println() }\n"},
		{"cmd/a/other.go", "package main\n"},
		{"go.mod", "module example.com/m\n\ngo 1.26\n"},
		{"go.sum", "example.com/x v1.0.0 h1:x\n"},
		{"static/data/x.txt", "two"},
	} {
		write(changed.rel, changed.content)
		k := key()
		if k == base {
			t.Errorf("writing %s left the key as it was", changed.rel)
		}
		base = k
	}
}

// TestBuildRefusesOtherCommands: Build names what it builds, and builds
// nothing else.
func TestBuildRefusesOtherCommands(t *testing.T) {
	if _, err := Build("controller-gen-default-vet"); err == nil {
		t.Error("Build(controller-gen-default-vet) = nil error, want a refusal")
	}
}

// TestBinary builds both commands (or finds them built by another package
// of this go test run) and checks that they are the two commands, next to
// each other.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds controller-gen-default and controller-gen-default-objects; run without -short (make test-integration)")
	}
	gen, norm := Binary(t, Generator), Binary(t, Objects)
	if filepath.Dir(gen) != filepath.Dir(norm) || filepath.Base(gen) != Generator || filepath.Base(norm) != Objects {
		t.Fatalf("Binary: %s and %s, want %s and %s in one directory", gen, norm, Generator, Objects)
	}
	for _, bin := range []string{gen, norm} {
		if info, err := os.Stat(bin); err != nil || info.Mode()&0o111 == 0 {
			t.Errorf("%s: %v, mode %v", bin, err, info)
		}
	}
	if again := Binary(t, Generator); again != gen {
		t.Errorf("second Binary(%s) = %s, want %s", Generator, again, gen)
	}
}
