package convprog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
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

// apiPackage is a package of the patterns that declares AddToScheme.
type apiPackage struct {
	path string
	// kinds are its types marked +kubebuilder:object:root=true.
	kinds []string
}

// loaded is what Build needs of the user's packages.
type loaded struct {
	apis []apiPackage
	// files are the files of the packages the program depends on that
	// belong to the user's module or a local replacement, absolute and
	// sorted.
	files []string
	// controllerRuntime is the directory of the module
	// sigs.k8s.io/controller-runtime the packages use.
	controllerRuntime string
}

const controllerRuntimeModule = "sigs.k8s.io/controller-runtime"

// load loads patterns in dir (of module m), with the packages they depend
// on, and finds the AddToScheme of each.
func load(ctx context.Context, dir string, m *module, patterns []string) (*loaded, error) {
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedEmbedFiles | packages.NeedImports |
			packages.NeedDeps | packages.NeedModule,
	}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	var errs []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s:\n%s", strings.Join(patterns, " "), strings.Join(errs, "\n"))
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("no package matches %s in %s", strings.Join(patterns, " "), dir)
	}
	l := &loaded{}
	for _, p := range roots {
		if p.Module == nil || p.Module.Path != m.mod.Module.Path {
			return nil, fmt.Errorf("package %s is not in module %s (%s): give the API packages of the module", p.PkgPath, m.mod.Module.Path, m.gomod)
		}
		api, ok, err := scanPackage(p)
		if err != nil {
			return nil, err
		}
		if ok {
			l.apis = append(l.apis, api)
		}
	}
	if len(l.apis) == 0 {
		return nil, fmt.Errorf("no package of %s declares AddToScheme (kubebuilder's groupversion_info.go): give the packages of the API's versions", strings.Join(patterns, " "))
	}
	slices.SortFunc(l.apis, func(a, b apiPackage) int { return strings.Compare(a.path, b.path) })
	files := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
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
		return nil, fmt.Errorf("the packages of %s do not use %s: no type of theirs can implement its conversion.Hub or conversion.Convertible", strings.Join(patterns, " "), controllerRuntimeModule)
	}
	return l, nil
}

// scanPackage parses p's files for a package-level AddToScheme and the
// types marked +kubebuilder:object:root=true.
func scanPackage(p *packages.Package) (apiPackage, bool, error) {
	api := apiPackage{path: p.PkgPath}
	found := false
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return api, false, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "AddToScheme" {
					found = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						if d.Tok == token.VAR && slices.ContainsFunc(s.Names, func(n *ast.Ident) bool { return n.Name == "AddToScheme" }) {
							found = true
						}
					case *ast.TypeSpec:
						doc := s.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						if isRoot(doc) {
							api.kinds = append(api.kinds, s.Name.Name)
						}
					}
				}
			}
		}
	}
	slices.Sort(api.kinds)
	return api, found, nil
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

// withRegistry says whether the controller-runtime in crDir has
// NewWebhookHandler(scheme, registry) (as v0.24 and v0.25 do) rather than
// NewWebhookHandler(scheme), from its source.
func withRegistry(crDir string) (bool, error) {
	name := filepath.Join(crDir, "pkg", "webhook", "conversion", "conversion.go")
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
	if err != nil {
		return false, fmt.Errorf("controller-runtime's conversion webhook: %w", err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "NewWebhookHandler" {
			return fd.Type.Params.NumFields() == 2, nil
		}
	}
	return false, fmt.Errorf("%s has no NewWebhookHandler", name)
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
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
