package convprog

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// Options says what to build.
type Options struct {
	// Dir is where Patterns are resolved, as the generators resolve
	// theirs: the current directory if empty. The module that holds it is
	// the user's module; every package of Patterns must be in it.
	Dir string
	// Patterns are package patterns (./api/...), as go list takes them.
	// The packages among them that declare AddToScheme are registered;
	// the others are ignored.
	Patterns []string
	// CacheDir is where binaries are cached. Empty: the environment
	// variable CacheEnv if set ("off" turns the cache off), else
	// os.UserCacheDir()/controller-gen-default/convprog.
	CacheDir string
	// Log, if set, gets a line when go build runs (it takes a while the
	// first time: the program links the user's dependencies).
	Log io.Writer
}

// CacheEnv is the environment variable that sets the cache directory, or
// turns the cache off with "off".
const CacheEnv = "CONTROLLER_GEN_DEFAULT_CONVPROG_CACHE"

// Program is a built conversion program.
type Program struct {
	// Path is the binary.
	Path string
	// Module is the user's module path, ModuleDir its root.
	Module, ModuleDir string
	// Packages are the import paths of the packages it registers (those of
	// the patterns that declare AddToScheme), sorted.
	Packages []string
	// RootKinds are the types of those packages marked
	// +kubebuilder:object:root=true, as "importpath.Type"; Process.Kinds
	// says which the scheme serves and how they convert.
	RootKinds []string
	// Key is the content digest the binary is cached by.
	Key string
	// Cached: the binary came from the cache; go build did not run.
	Cached bool

	temp string // a directory to remove on Close (cache off)
}

// Close removes the binary when it is not cached.
func (p *Program) Close() error {
	if p.temp == "" {
		return nil
	}
	return os.RemoveAll(p.temp)
}

// BuildError is a failed go build of the program. Output is go build's,
// with the user's files named relative to the current directory.
type BuildError struct {
	Module string
	Output string
	Err    error
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("building the conversion program for %s failed (fix the errors below, then run again):\n%s", e.Module, e.Output)
}

func (e *BuildError) Unwrap() error { return e.Err }

// Build builds the conversion program for o.Patterns, or takes it from the
// cache.
func Build(ctx context.Context, o Options) (*Program, error) {
	if len(o.Patterns) == 0 {
		return nil, errors.New("convprog: no package patterns")
	}
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	m, err := findModule(ctx, dir)
	if err != nil {
		return nil, err
	}
	l, err := load(ctx, dir, m, o.Patterns)
	if err != nil {
		return nil, err
	}
	registry, err := withRegistry(l.controllerRuntime)
	if err != nil {
		return nil, err
	}
	p := &Program{Module: m.mod.Module.Path, ModuleDir: m.dir}
	for _, a := range l.apis {
		p.Packages = append(p.Packages, a.path)
		for _, k := range a.kinds {
			p.RootKinds = append(p.RootKinds, a.path+"."+k)
		}
	}
	src, err := mainSource(p.Packages, registry)
	if err != nil {
		return nil, err
	}
	mod := goMod(m.mod, m.dir)
	if p.Key, err = key(ctx, m, l, src, mod); err != nil {
		return nil, err
	}
	cacheDir, err := cacheDir(o.CacheDir)
	if err != nil {
		return nil, err
	}
	name := "convprog-" + p.Key
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if cacheDir != "" {
		p.Path = filepath.Join(cacheDir, name)
		if fi, err := os.Stat(p.Path); err == nil && fi.Mode().IsRegular() {
			p.Cached = true
			return p, nil
		}
		if err := os.MkdirAll(cacheDir, 0o755); err != nil {
			return nil, fmt.Errorf("conversion program cache: %w (set %s=off to build without it)", err, CacheEnv)
		}
	} else {
		if p.temp, err = os.MkdirTemp("", "convprog-bin-"); err != nil {
			return nil, err
		}
		p.Path = filepath.Join(p.temp, name)
		cacheDir = p.temp
	}
	if err := build(ctx, o.Log, m, src, mod, cacheDir, p.Path); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// cacheDir is the cache directory: "" when the cache is off.
func cacheDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	switch env := os.Getenv(CacheEnv); {
	case env == "off":
		return "", nil
	case env != "":
		return filepath.Abs(env)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("conversion program cache: %w (set %s to a directory, or to off)", err, CacheEnv)
	}
	return filepath.Join(base, "controller-gen-default", "convprog"), nil
}

// keyVersion changes when what the key covers changes.
const keyVersion = "convprog key 1\n"

// key is the content digest of what the binary is built from: the user's
// go.mod and go.sum, the files of the user's packages the program depends
// on (with their paths in the module), the Go toolchain and target, and
// the generated main.go and go.mod.
func key(ctx context.Context, m *module, l *loaded, src, mod []byte) (string, error) {
	h := sha256.New()
	io.WriteString(h, keyVersion)
	goEnv, err := goCmd(ctx, m.dir, nil, "env", "GOVERSION", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "CGO_ENABLED", "GOEXPERIMENT", "GOFLAGS")
	if err != nil {
		return "", err
	}
	part := func(name string, data []byte) {
		fmt.Fprintf(h, "%s %d\n", name, len(data))
		h.Write(data)
	}
	part("go env", goEnv)
	part("main.go", src)
	part("go.mod (program)", mod)
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(m.dir, f))
		if err != nil && !(f == "go.sum" && os.IsNotExist(err)) {
			return "", err
		}
		part(f, b)
	}
	for _, f := range l.files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		rel, err := filepath.Rel(m.dir, f)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = f // a local replacement outside the module
		}
		part("file "+filepath.ToSlash(rel), b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// build writes the temporary module and runs go build in it, to a
// temporary name in dir renamed to out when the build succeeds.
func build(ctx context.Context, log io.Writer, m *module, src, mod []byte, dir, out string) error {
	tmp, err := os.MkdirTemp("", "convprog-src-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "main.go"), src, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), mod, 0o644); err != nil {
		return err
	}
	if sum, err := os.ReadFile(filepath.Join(m.dir, "go.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(tmp, "go.sum"), sum, 0o644); err != nil {
			return err
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	var suffix [8]byte
	rand.Read(suffix[:])
	staged := filepath.Join(dir, "."+filepath.Base(out)+"-"+hex.EncodeToString(suffix[:]))
	defer os.Remove(staged)
	if log != nil {
		fmt.Fprintf(log, "convprog: go build of the conversion program for %s (the first build compiles its dependencies; later ones are cached)\n", m.mod.Module.Path)
	}
	start := time.Now()
	// -mod=mod on the command line overrides GOFLAGS' (-mod=vendor: the
	// user's vendor directory is not the program's); the rest of GOFLAGS
	// (-tags...) applies, as to the user's own builds
	cmd := exec.CommandContext(ctx, "go", "build", "-mod=mod", "-o", staged, ".")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off")
	output, err := cmd.CombinedOutput()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("the go command is needed to build the conversion program: %w", err)
		}
		return &BuildError{Module: m.mod.Module.Path, Output: userPositions(string(output), tmp), Err: err}
	}
	if log != nil {
		fmt.Fprintf(log, "convprog: built in %s\n", time.Since(start).Round(time.Millisecond))
	}
	return os.Rename(staged, out)
}

// position is a file:line[:col] at the start of a line or after space.
var position = regexp.MustCompile(`(?m)(^|\s)((?:[A-Za-z]:)?[^\s:]+\.go):(\d+)(:\d+)?`)

// userPositions rewrites go build's output so that it names files as go
// vet run in the current directory does: relative to it when that is
// shorter, else absolute; files of the temporary module are named
// "(conversion program)/NAME".
func userPositions(out, tmp string) string {
	cwd, _ := os.Getwd()
	out = position.ReplaceAllStringFunc(out, func(s string) string {
		sub := position.FindStringSubmatch(s)
		lead, file, rest := sub[1], sub[2], strings.TrimPrefix(s, sub[1]+sub[2])
		if !filepath.IsAbs(file) {
			file = filepath.Join(tmp, file)
		}
		if rel, err := filepath.Rel(tmp, file); err == nil && !strings.HasPrefix(rel, "..") {
			return lead + "(conversion program)/" + filepath.ToSlash(rel) + rest
		}
		return lead + shortPath(cwd, file) + rest
	})
	return strings.TrimSpace(out)
}

// shortPath is the go command's base.ShortPath: path relative to cwd when
// that is shorter.
func shortPath(cwd, path string) string {
	if rel, err := filepath.Rel(cwd, path); err == nil && len(rel) < len(path) {
		return rel
	}
	return path
}
