package convprog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// modFile is a go.mod as `go mod edit -json` prints it (the go command's
// own parser).
type modFile struct {
	Module    struct{ Path string }
	Go        string
	Toolchain string
	Require   []struct{ Path, Version string }
	Exclude   []struct{ Path, Version string }
	Replace   []struct {
		Old, New struct{ Path, Version string }
	}
}

// module is the user's module.
type module struct {
	dir   string // its root, absolute
	gomod string // its go.mod
	mod   *modFile
}

// findModule finds the module that holds dir, as the go command does
// (go env GOMOD).
func findModule(ctx context.Context, dir string) (*module, error) {
	out, err := goCmd(ctx, dir, nil, "env", "GOMOD")
	if err != nil {
		return nil, err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return nil, fmt.Errorf("%s is in no Go module (no go.mod in it or above it): run from the module that holds the API packages", dir)
	}
	out, err = goCmd(ctx, dir, nil, "mod", "edit", "-json", gomod)
	if err != nil {
		return nil, err
	}
	m := &modFile{}
	if err := json.Unmarshal(out, m); err != nil {
		return nil, fmt.Errorf("go mod edit -json %s: %w", gomod, err)
	}
	return &module{dir: filepath.Dir(gomod), gomod: gomod, mod: m}, nil
}

// loaded is what Build needs of the packages the program imports.
type loaded struct {
	// files are the files of the packages the program depends on that
	// belong to the user's module or a local replacement, absolute and
	// sorted.
	files []string
	// packages is how many packages the program depends on.
	packages int
	// controllerRuntime is the directory of the module
	// sigs.k8s.io/controller-runtime the packages use ("": none).
	controllerRuntime string
}

const controllerRuntimeModule = "sigs.k8s.io/controller-runtime"

// load lists the import paths (from dir, of module m) with the packages
// they depend on (go list -deps: no type-checking).
func load(ctx context.Context, dir string, m *module, importPaths []string) (*loaded, error) {
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Env:     append(os.Environ(), "GOWORK=off"),
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedEmbedFiles | packages.NeedImports |
			packages.NeedDeps | packages.NeedModule,
	}
	roots, err := packages.Load(cfg, importPaths...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(importPaths, " "), err)
	}
	var errs []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s:\n%s", strings.Join(importPaths, " "), strings.Join(errs, "\n"))
	}
	l := &loaded{}
	files := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		l.packages++
		if p.Module == nil {
			return
		}
		if p.Module.Path == controllerRuntimeModule {
			l.controllerRuntime = p.Module.Dir
		}
		local := p.Module.Main || p.Module.Replace != nil && p.Module.Replace.Version == ""
		if !local {
			return
		}
		for _, list := range [][]string{p.GoFiles, p.OtherFiles, p.EmbedFiles} {
			for _, f := range list {
				files[f] = true
			}
		}
	})
	for f := range files {
		l.files = append(l.files, f)
	}
	slices.Sort(l.files)
	if l.controllerRuntime == "" {
		return nil, fmt.Errorf("the packages %s do not use %s: no type of theirs can implement its conversion.Hub or conversion.Convertible, and no converter of its is registered", strings.Join(importPaths, " "), controllerRuntimeModule)
	}
	return l, nil
}

// isRoot says whether a doc comment has +kubebuilder:object:root=true.
func isRoot(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		t := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if t == "+kubebuilder:object:root=true" || t == "+kubebuilder:object:root" {
			return true
		}
	}
	return false
}

// goCmd runs the go command in dir with env added to the environment, and
// returns its standard output; its error holds its standard error.
func goCmd(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("the go command is needed to build the conversion program: %w", err)
		}
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
