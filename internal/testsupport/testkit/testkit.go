// Package testkit is test support, for the tests of this module only (and
// for test helper packages such as internal/testsupport/realapis/realapistest): the
// module's two commands, controller-gen-default and
// controller-gen-default-objects, built once per go test run instead of
// once per package that runs them.
//
// A go test run is one process per package, so a sync.Once alone would
// still build them once per package: the binaries go into a directory
// shared by the processes, os.TempDir()/controller-gen-default-testkit/KEY,
// where KEY is a digest of what the build reads (the module's Go files,
// go.mod, go.sum and the go command's settings). A process that finds the
// directory uses it; one that does not builds both commands into a
// temporary directory beside it and renames that into place, which is
// atomic: packages that build at the same time both succeed, and the
// second rename, which loses, throws its build away. Another checkout with
// the same source shares the directory; an edit to a Go file of the module
// makes a new one. Directories that no test has used for an hour are
// removed. The key leaves out the VCS state, so the version that go build
// stamps into a binary (its commit, +dirty) is that of the build that made
// it; no test reads it.
package testkit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// module is the path of this module, whose go.mod moduleRoot looks for.
const module = "github.com/controller-gen-default/controller-gen-default"

// Generator and Objects are the commands Binary builds: both at once,
// into one directory, as make build and go install lay them out, so that
// controller-gen-default's normalize, impact and conversion subcommands
// find controller-gen-default-objects next to it whichever a test asked
// for first.
const (
	Generator = "controller-gen-default"
	Objects   = "controller-gen-default-objects"
)

var commands = []string{Generator, Objects}

// keepFor is how long a build directory that no test process has used is
// kept: longer than the longest test timeout (30 minutes in the Makefile),
// so that no running package loses its binaries, and short enough that an
// afternoon of edits (about 140 MB each) does not fill the disk.
const keepFor = time.Hour

// TB is what Binary needs of a test: *testing.T, *testing.B and Ginkgo's
// GinkgoT() all have it.
type TB interface {
	Helper()
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Binary returns the path of the command name (Generator or Objects)
// built from this checkout, building both commands if this go test run
// has not yet; it fails the test when they do not build.
func Binary(t TB, name string) string {
	t.Helper()
	bin, err := Build(name)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return bin
}

// GeneratorOrEnv is Binary(t, Generator), unless $CGD_BIN names another
// build of controller-gen-default to test: then that one.
func GeneratorOrEnv(t TB) string {
	t.Helper()
	if bin := os.Getenv("CGD_BIN"); bin != "" {
		abs, err := filepath.Abs(bin) // generators run in other directories
		if err != nil {
			t.Fatalf("CGD_BIN: %v", err)
		}
		t.Logf("using CGD_BIN=%s instead of building ./cmd/controller-gen-default", abs)
		return abs
	}
	return Binary(t, Generator)
}

// Build is Binary for a caller that handles the error itself (a test that
// goes on, skipping what needs the command, when it does not build).
func Build(name string) (string, error) {
	known := false
	for _, c := range commands {
		known = known || c == name
	}
	if !known {
		return "", fmt.Errorf("testkit builds %s only, not %q", strings.Join(commands, " and "), name)
	}
	dir, err := build()
	if err != nil {
		return "", err
	}
	// Used now: not removed by another process's clean-up for keepFor.
	now := time.Now()
	if err := os.Chtimes(dir, now, now); err != nil {
		return "", fmt.Errorf("testkit: %w (removed by a clean-up that thought it unused?)", err)
	}
	return filepath.Join(dir, name), nil
}

// build makes (or finds) the directory of both commands, once per process.
var build = sync.OnceValues(func() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	key, err := sourceKey(root)
	if err != nil {
		return "", fmt.Errorf("testkit: %w", err)
	}
	parent := filepath.Join(os.TempDir(), "controller-gen-default-testkit")
	final := filepath.Join(parent, key)
	if _, err := os.Stat(final); err == nil {
		return final, nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("testkit: %w", err)
	}
	clean(parent, final)
	tmp, err := os.MkdirTemp(parent, key+".tmp-")
	if err != nil {
		return "", fmt.Errorf("testkit: %w", err)
	}
	args := []string{"build", "-o", tmp + string(filepath.Separator)}
	for _, c := range commands {
		args = append(args, "./cmd/"+c)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another package of the run renamed its build into place first:
		// the same source, so the same commands.
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(final); statErr != nil {
			return "", fmt.Errorf("testkit: %w", err)
		}
	}
	return final, nil
})

// clean removes the build directories (and temporary directories of
// builds that died) beside keep that no test has used for keepFor.
func clean(parent, keep string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(parent, e.Name())
		if p == keep {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > keepFor {
			os.RemoveAll(p)
		}
	}
}

// moduleRoot is the module's root: the nearest directory above the working
// directory (a package's, under go test) whose go.mod declares module.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.Contains(b, []byte("module "+module+"\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testkit: no go.mod of " + module + " above the working directory")
		}
		dir = parent
	}
}

// embedDirective is the start of a //go:embed line.
var embedDirective = regexp.MustCompile(`(?m)^//go:embed\s`)

// sourceKey digests what go build reads for the commands, so that two
// builds with one key are the same commands: the go command's version and
// settings, go.mod and go.sum, and every file of the module's packages
// that the build can read (Go files other than tests, assembly, C and
// syso files, and the whole directory of a package that embeds files). It
// reads more than the two commands need (every package of the module, not
// their imports alone): a key that changes too often costs a build, one
// that changes too rarely would test stale code. internal/apiserver/checkcache/codeid names the
// running executable, a different test binary in each package, so it
// cannot key a directory that the packages share.
func sourceKey(root string) (string, error) {
	h := sha256.New()
	env := exec.Command("go", "env", "GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOWORK", "GOAMD64", "GOARM64")
	env.Dir = root
	out, err := env.Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	h.Write(out)
	var embedding []string // directories of packages with //go:embed
	add := func(path string) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
		if strings.HasSuffix(path, ".go") && embedDirective.Match(b) {
			embedding = append(embedding, filepath.Dir(path))
		}
		return nil
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == root {
				return nil
			}
			// What the go command leaves out of the module's packages:
			// testdata, directories named with . or _, nested modules;
			// and the Makefile's outputs.
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				path == filepath.Join(root, "bin") || path == filepath.Join(root, "out") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if path == filepath.Join(root, "go.mod") || path == filepath.Join(root, "go.sum") {
			return add(path)
		}
		switch filepath.Ext(name) {
		case ".go":
			if strings.HasSuffix(name, "_test.go") {
				return nil
			}
		case ".s", ".S", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".m", ".f", ".F", ".for", ".f90", ".syso":
		default:
			return nil
		}
		return add(path)
	})
	if err != nil {
		return "", err
	}
	// An embedded file can be anything below its package's directory,
	// testdata included: hash it all, in order.
	for _, dir := range embedding {
		fmt.Fprintf(h, "embed\x00")
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(root, path)
				fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
				h.Write(b)
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}
