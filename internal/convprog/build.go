package convprog

import (
	"bytes"
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
	"slices"
	"strings"
	"sync"
	"time"
)

// Options says what to build.
type Options struct {
	// Dir is where Patterns are resolved, as the generators resolve
	// theirs: the current directory if empty. The module that holds it is
	// the user's module; every package of Patterns must be in it (or in a
	// module it replaces with a directory).
	Dir string
	// Patterns are package patterns (./... at the module's root, or
	// ./api/...), as go list takes them; Discover finds the conversions
	// among them.
	Patterns []string
	// Discovery is Discover's answer for Dir and Patterns, when the caller
	// has it already; nil: Build runs Discover.
	Discovery *Discovery
	// Setup is --setup: "importpath.Func", an exported func(), func()
	// error or func(context.Context) error that the program calls once
	// before it makes the converters and serves.
	Setup string
	// CacheDir is where binaries are cached. Empty: the environment
	// variable CacheEnv if set ("off" turns the cache off), else
	// os.UserCacheDir()/controller-gen-default/convprog.
	CacheDir string
	// Log, if set, gets what is built and why, and go build's progress
	// (a counter on a terminal, a line every 100 packages otherwise).
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
	// Packages are the import paths of the API packages it registers in
	// its scheme, sorted.
	Packages []string
	// RootKinds are the types of those packages marked
	// +kubebuilder:object:root=true, as "importpath.Type"; Process.Kinds
	// says which the scheme serves and how they convert.
	RootKinds []string
	// Registrations are the controller-runtime Converters it registers.
	Registrations []Registration
	// Setup is the --setup function it calls, if any.
	Setup string
	// MissingSetup are the calls of main that set state the conversions
	// read, when no Setup is given: the conversions that fail may fail
	// for want of it.
	MissingSetup []SetupCall
	// MemoryLimit is the memory limit, in bytes, each run of the program
	// gets (Start): 0 is DefaultMemoryLimit, a negative value none. On
	// Linux it is the run's RLIMIT_DATA, past which an allocation fails
	// ("fatal error: runtime: out of memory": a request it fails is a
	// *ProgramError with OutOfMemory), and three quarters of it its
	// GOMEMLIMIT; elsewhere only the GOMEMLIMIT, which makes the garbage
	// collector work harder but stops nothing.
	MemoryLimit int64
	// Key is the content digest the binary is cached by.
	Key string
	// Cached: the binary came from the cache; go build did not run.
	Cached bool

	temp string // a directory to remove on Close (cache off)
}

// FailuresUnknown is the rule by which a conversion the API's code fails
// in this program (refuses it, or exits or hangs on it) says nothing of
// the real webhook: main sets state the conversions read (MissingSetup),
// and the program, which does not run main, was given no Setup that sets
// it; with main's state the conversion may well succeed. Both commands
// apply it: conversion reports such failures as conversion-needs-setup,
// impact as conversion-unknown, neither as a failure of the API.
func (p *Program) FailuresUnknown() bool { return len(p.MissingSetup) > 0 }

// Close removes the binary when it is not cached.
func (p *Program) Close() error {
	if p.temp == "" {
		return nil
	}
	return os.RemoveAll(p.temp)
}

// BuildError is a failed go build of the program. Output is go build's,
// with the user's files named relative to the current directory and the
// generated ones "(conversion program)/NAME".
type BuildError struct {
	Module string
	Output string
	Err    error
	// Runtime is the controller-runtime the program was built against.
	Runtime ControllerRuntime
	// Generated: every error go build names a position for is in the
	// generated program, none in the user's files: the user has nothing
	// to fix, and the text says so.
	Generated bool
}

func (e *BuildError) Error() string {
	if e.Generated {
		return fmt.Sprintf("the conversion program that controller-gen-default generated for %s does not compile against its %s: the errors below are in the generated code, not in yours; please report them to controller-gen-default:\n%s", e.Module, e.Runtime, e.Output)
	}
	return fmt.Sprintf("building the conversion program for %s failed (fix the errors below, then run again):\n%s", e.Module, e.Output)
}

func (e *BuildError) Unwrap() error { return e.Err }

// ErrNothingToConvert is Build's error when Discover finds no conversion.
var ErrNothingToConvert = errors.New("no conversion: no type implements conversion.Hub or conversion.Convertible, and no controller-runtime Converter is registered (WithConverter, RegisterConverter)")

// Build builds the conversion program of what Discover finds in
// o.Patterns, or takes it from the cache.
func Build(ctx context.Context, o Options) (*Program, error) {
	d := o.Discovery
	if d == nil {
		var err error
		if d, err = Discover(ctx, o); err != nil {
			return nil, err
		}
	}
	if d.Empty() {
		return nil, ErrNothingToConvert
	}
	m := d.mod
	if o.Setup != "" {
		if i := strings.LastIndex(o.Setup, "."); i <= 0 || i == len(o.Setup)-1 || strings.HasSuffix(o.Setup[:i], "/") {
			return nil, fmt.Errorf("--setup %s: want IMPORTPATH.Func (sigs.k8s.io/cluster-api/hack/convsetup.Setup)", o.Setup)
		}
		if err := importable(programModule(m.mod.Module.Path), typePkg(o.Setup)); err != nil {
			return nil, fmt.Errorf("--setup %s: %w", o.Setup, err)
		}
	}
	p := &Program{Module: d.Module, ModuleDir: d.ModuleDir, Packages: d.APIPackages, RootKinds: d.RootKinds,
		Registrations: d.Registrations, Setup: o.Setup}
	if o.Setup == "" {
		p.MissingSetup = d.SetupCalls
	}
	imports := slices.Clone(d.APIPackages)
	for _, r := range d.Registrations {
		for _, ip := range r.Imports {
			imports = append(imports, ip)
		}
	}
	if o.Setup != "" {
		imports = append(imports, typePkg(o.Setup))
	}
	l, err := load(ctx, m.dir, m, dedupe(imports))
	if err != nil {
		return nil, err
	}
	var where []string
	for _, r := range d.Registrations {
		pos := r.Pos
		if rel, err := filepath.Rel(m.dir, pos.Filename); err == nil && !strings.HasPrefix(rel, "..") {
			pos.Filename = filepath.ToSlash(rel)
		}
		where = append(where, pos.String())
	}
	src, err := mainSource(genInput{APIs: d.APIPackages, Registrations: d.Registrations, Where: where, Setup: o.Setup, Converters: d.ControllerRuntime.Converters})
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
	if err := build(ctx, o.Log, m, l.packages, src, mod, cacheDir, p.Path); err != nil {
		_ = p.Close() // removes the temporary directory: the build's error is the one to report
		if be, ok := errors.AsType[*BuildError](err); ok {
			be.Runtime = *d.ControllerRuntime
			// an error at the --setup call is the user's (a function
			// the package does not have, or of another type)
			if o.Setup != "" && strings.Contains(be.Output, importAlias(typePkg(o.Setup))) {
				be.Generated = false
			}
		}
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
const keyVersion = "convprog key 2\n"

// key is the content digest of what the binary is built from: the user's
// go.mod and go.sum, the files of the user's packages the program depends
// on (with their paths in the module), the Go toolchain and target, and
// the generated main.go and go.mod.
func key(ctx context.Context, m *module, l *loaded, src, mod []byte) (string, error) {
	h := sha256.New()
	_, _ = io.WriteString(h, keyVersion) // a hash.Hash's Write never returns an error
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

// build writes the temporary module and runs go build -v in it, to a
// temporary name in dir renamed to out when the build succeeds. npkg is
// how many packages the program depends on, for the progress.
func build(ctx context.Context, log io.Writer, m *module, npkg int, src, mod []byte, dir, out string) error {
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
		fmt.Fprintf(log, "convprog: building the conversion program for %s: %d packages, it links the module's dependencies (the first build is long; cached afterwards)\n", m.mod.Module.Path, npkg)
	}
	start := time.Now()
	// -mod=mod on the command line overrides GOFLAGS' (-mod=vendor: the
	// user's vendor directory is not the program's); the rest of GOFLAGS
	// (-tags...) applies, as to the user's own builds. -v names each
	// package as it is compiled: the progress.
	cmd := exec.CommandContext(ctx, "go", "build", "-v", "-mod=mod", "-o", staged, ".")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off")
	pr := &progress{log: log, total: npkg, tty: isTerminal(log)}
	cmd.Stdout, cmd.Stderr = pr, pr
	err = cmd.Run()
	pr.done()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("the go command is needed to build the conversion program: %w", err)
		}
		out, generated := userPositions(pr.output.String(), tmp)
		return &BuildError{Module: m.mod.Module.Path, Output: out, Err: err, Generated: generated}
	}
	if log != nil {
		fmt.Fprintf(log, "convprog: built in %s (%d packages compiled)\n", time.Since(start).Round(time.Millisecond), pr.compiled)
	}
	return os.Rename(staged, out)
}

// progress reads go build -v's output: a line that is an import path is a
// package compiled, counted; the rest is kept for a BuildError.
type progress struct {
	log      io.Writer
	total    int
	tty      bool
	mu       sync.Mutex
	partial  []byte
	output   bytes.Buffer
	compiled int
	shown    bool
}

// importPathLine is a line of go build -v: an import path alone.
var importPathLine = regexp.MustCompile(`^[A-Za-z0-9_.~+\-/]+$`)

func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		line := string(p.partial[:i])
		p.partial = p.partial[i+1:]
		if !importPathLine.MatchString(line) || strings.HasSuffix(line, ".go") {
			p.output.WriteString(line + "\n")
			continue
		}
		p.compiled++
		switch {
		case p.log == nil:
		case p.tty:
			fmt.Fprintf(p.log, "\rconvprog: compiled %d of about %d packages", p.compiled, p.total)
			p.shown = true
		case p.compiled%100 == 0:
			fmt.Fprintf(p.log, "convprog: compiled %d of about %d packages\n", p.compiled, p.total)
		}
	}
	return len(b), nil
}

// done ends the counter's line and keeps what is left.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.output.Write(p.partial)
	if p.shown {
		fmt.Fprintln(p.log)
	}
}

// isTerminal says whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// position is a file:line[:col] at the start of a line or after space.
var position = regexp.MustCompile(`(?m)(^|\s)((?:[A-Za-z]:)?[^\s:]+\.go):(\d+)(:\d+)?`)

// userPositions rewrites go build's output so that it names files as go
// vet run in the current directory does: relative to it when that is
// shorter, else absolute; files of the temporary module are named
// "(conversion program)/NAME". generated says whether it names
// positions, all of them in the temporary module's files.
func userPositions(out, tmp string) (_ string, generated bool) {
	cwd, _ := os.Getwd()
	positions, user := 0, 0
	out = position.ReplaceAllStringFunc(out, func(s string) string {
		sub := position.FindStringSubmatch(s)
		lead, file, rest := sub[1], sub[2], strings.TrimPrefix(s, sub[1]+sub[2])
		if !filepath.IsAbs(file) {
			file = filepath.Join(tmp, file)
		}
		positions++
		if rel, err := filepath.Rel(tmp, file); err == nil && !strings.HasPrefix(rel, "..") {
			return lead + "(conversion program)/" + filepath.ToSlash(rel) + rest
		}
		user++
		return lead + shortPath(cwd, file) + rest
	})
	return strings.TrimSpace(out), positions > 0 && user == 0
}

// shortPath is the go command's base.ShortPath: path relative to cwd when
// that is shorter.
func shortPath(cwd, path string) string {
	if rel, err := filepath.Rel(cwd, path); err == nil && len(rel) < len(path) {
		return rel
	}
	return path
}
