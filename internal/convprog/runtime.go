package convprog

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// MinControllerRuntime is the oldest sigs.k8s.io/controller-runtime the
// conversion program supports: controller-runtime v0.15.0 pkg/webhook/
// conversion introduced NewWebhookHandler(scheme), the handler it serves
// with (v0.14's Webhook took its scheme from InjectScheme, which v0.15.0
// removed with pkg/runtime/inject).
const MinControllerRuntime = "v0.15.0"

// ControllerRuntime is the sigs.k8s.io/controller-runtime of the user's
// build list, and what the conversion program serves with it.
type ControllerRuntime struct {
	// Version is its version in the build list (v0.20.4); Replace is
	// what the user's go.mod replaces it with, if anything (a directory,
	// or "example.com/fork v0.20.4-fork.1").
	Version, Replace string
	// Dir is the directory of its package pkg/webhook/conversion.
	Dir string
	// Converters: that package declares Converter, Registry, NewRegistry
	// and NewWebhookHandler(scheme, registry) (controller-runtime v0.23.0
	// on): the program registers the user's Converters in a Registry.
	// Otherwise it declares NewWebhookHandler(scheme) (v0.15.0 to
	// v0.22): Hub and Convertible methods only.
	Converters bool
}

// String is the module and its version, as a message names them.
func (c ControllerRuntime) String() string {
	s := controllerRuntimeModule + " " + c.Version
	if c.Replace != "" {
		s += " => " + c.Replace
	}
	return s
}

// UnsupportedError is a controller-runtime the conversion program cannot
// be built against, found before anything is built: older than
// MinControllerRuntime, or whose pkg/webhook/conversion lacks what the
// program serves with. Its text is one line.
type UnsupportedError struct {
	// Module is the user's module.
	Module string
	// Runtime is its controller-runtime.
	Runtime ControllerRuntime
	// Why is what the program misses in it, for a version not older than
	// MinControllerRuntime.
	Why string
}

func (e *UnsupportedError) Error() string {
	if e.Why == "" {
		return fmt.Sprintf("%s in %s's build list is older than %s, the oldest the conversion program supports", e.Runtime, e.Module, MinControllerRuntime)
	}
	return fmt.Sprintf("%s in %s's build list is not supported by the conversion program: %s", e.Runtime, e.Module, e.Why)
}

// controllerRuntime finds the controller-runtime of module m's build list
// (from dir) and what its pkg/webhook/conversion declares. regs are the
// Converters the user's code registers: a controller-runtime without
// Converters cannot serve them.
//
// The program is generated for what the package declares, not for its
// version: a replace directive (a fork, a commit between releases) may
// give a version that says nothing certain of its API, while the source
// is what the program compiles against. The version names it in
// messages, and says "older than" when the API is missing and the
// version is below MinControllerRuntime.
func controllerRuntime(ctx context.Context, dir string, m *module, regs []Registration) (*ControllerRuntime, error) {
	listed, err := listPackages(ctx, dir, []string{webhookConvPkg})
	if err != nil {
		return nil, err
	}
	if len(listed) != 1 {
		return nil, fmt.Errorf("go list %s: %d packages", webhookConvPkg, len(listed))
	}
	p := listed[0]
	if p.Error != nil || p.Module == nil {
		why := "not found"
		if p.Error != nil {
			why = strings.TrimSpace(p.Error.Err)
		}
		return nil, fmt.Errorf("%s's build list has no usable %s, which the conversion program serves conversions with: %s", m.mod.Module.Path, controllerRuntimeModule, why)
	}
	cr := &ControllerRuntime{Version: p.Module.Version, Dir: p.Dir}
	if r := p.Module.Replace; r != nil {
		cr.Replace = r.Path
		if r.Version != "" {
			cr.Replace += " " + r.Version
		}
	}
	api, err := webhookAPI(p.Dir, p.GoFiles)
	if err != nil {
		return nil, err
	}
	unsupported := func(why string) error {
		if olderThan(cr.Version, MinControllerRuntime) && cr.Replace == "" {
			why = ""
		}
		return &UnsupportedError{Module: m.mod.Module.Path, Runtime: *cr, Why: why}
	}
	switch {
	case api.registryHandler && api.converter && api.registry && api.newRegistry:
		cr.Converters = true
	case api.schemeHandler:
		if len(regs) > 0 {
			// unreachable for code that type-checks: WithConverter and
			// RegisterConverter are found on controller-runtime's types
			cwd, _ := os.Getwd()
			pos := regs[0].Pos
			pos.Filename = shortPath(cwd, pos.Filename)
			return nil, unsupported(fmt.Sprintf("its pkg/webhook/conversion has no Converter and Registry (v0.23.0 on), which the %s at %s needs", regs[0].Via, pos))
		}
	case api.registryHandler:
		return nil, unsupported("its pkg/webhook/conversion has NewWebhookHandler(*runtime.Scheme, Registry) but not all of Converter, Registry (with RegisterConverter) and NewRegistry, which the program registers Converters with")
	default:
		return nil, unsupported("its pkg/webhook/conversion has neither NewWebhookHandler(*runtime.Scheme) (v0.15.0 to v0.22) nor NewWebhookHandler(*runtime.Scheme, Registry) (v0.23.0 on), which the program serves conversions with")
	}
	return cr, nil
}

// webhookDecls is what the conversion program needs of controller-runtime's
// pkg/webhook/conversion.
type webhookDecls struct {
	schemeHandler   bool // func NewWebhookHandler(*runtime.Scheme) http.Handler
	registryHandler bool // func NewWebhookHandler(*runtime.Scheme, Registry) http.Handler
	converter       bool // type Converter
	registry        bool // type Registry interface { RegisterConverter(...) ...}
	newRegistry     bool // func NewRegistry() Registry
}

// webhookAPI reads the declarations of the package in dir (its files as
// go list selects them for the target), syntactically.
func webhookAPI(dir string, files []string) (webhookDecls, error) {
	var d webhookDecls
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return d, fmt.Errorf("controller-runtime's pkg/webhook/conversion: %w", err)
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv != nil || decl.Type.TypeParams != nil {
					continue
				}
				params := paramTypes(decl.Type.Params)
				results := paramTypes(decl.Type.Results)
				switch decl.Name.Name {
				case "NewWebhookHandler":
					d.schemeHandler = slices.Equal(params, []string{"*runtime.Scheme"})
					d.registryHandler = slices.Equal(params, []string{"*runtime.Scheme", "Registry"})
				case "NewRegistry":
					d.newRegistry = len(params) == 0 && slices.Equal(results, []string{"Registry"})
				}
			case *ast.GenDecl:
				for _, s := range decl.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					switch ts.Name.Name {
					case "Converter":
						d.converter = true
					case "Registry":
						if it, ok := ts.Type.(*ast.InterfaceType); ok {
							for _, m := range it.Methods.List {
								for _, n := range m.Names {
									d.registry = d.registry || n.Name == "RegisterConverter"
								}
							}
						}
					}
				}
			}
		}
	}
	return d, nil
}

// paramTypes are the types of a parameter list as written, one per
// parameter.
func paramTypes(fl *ast.FieldList) []string {
	var out []string
	if fl == nil {
		return nil
	}
	for _, f := range fl.List {
		t := exprString(f.Type)
		for range max(1, len(f.Names)) {
			out = append(out, t)
		}
	}
	return out
}

// exprString is a type expression as written (the forms a parameter of
// NewWebhookHandler or NewRegistry takes).
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}

// semverPrefix is vMAJOR.MINOR.PATCH at the start of a module version
// (a pseudo-version's base too).
var semverPrefix = regexp.MustCompile(`^v(\d+)\.(\d+)\.(\d+)`)

// olderThan says whether module version v is older than min (both
// vMAJOR.MINOR.PATCH, v possibly a pre-release or pseudo-version of a
// later base); false when v is not a semantic version.
func olderThan(v, min string) bool {
	a, b := semverPrefix.FindStringSubmatch(v), semverPrefix.FindStringSubmatch(min)
	if a == nil || b == nil {
		return false
	}
	for i := 1; i <= 3; i++ {
		x, _ := strconv.Atoi(a[i])
		y, _ := strconv.Atoi(b[i])
		if x != y {
			return x < y
		}
	}
	// the same base: a pre-release (v0.15.0-beta.0) precedes the release
	return strings.HasPrefix(v[len(a[0]):], "-")
}
