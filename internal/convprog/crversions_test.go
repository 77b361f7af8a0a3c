package convprog

import (
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog/convprogtest"
)

// TestControllerRuntimeVersions builds the conversion program of the
// crversions test API against each controller-runtime release of
// convprogtest.Releases (the default subset unless
// CONVPROG_CR_VERSIONS=all), and converts with it: Hub/Convertible on
// every release, a Converter registered with WithConverter on those that
// have them (v0.23.0 on).
func TestControllerRuntimeVersions(t *testing.T) {
	needGo(t)
	if testing.Short() {
		t.Skip("-short: each release builds a conversion program")
	}
	for _, r := range convprogtest.Releases {
		t.Run(r.Version, func(t *testing.T) {
			if ok, why := convprogtest.Selected(r); !ok {
				t.Skip(why)
			}
			start0 := time.Now()
			dir := convprogtest.Module(t, r.Version, r.Converters, r.Default)
			ctx := context.Background()
			d, err := Discover(ctx, Options{Dir: dir, Patterns: []string{"./..."}})
			if err != nil {
				t.Fatal(err)
			}
			if cr := d.ControllerRuntime; cr == nil || cr.Version != r.Version || cr.Converters != r.Converters || cr.Replace != "" {
				t.Errorf("ControllerRuntime = %+v, want %s with Converters %v", cr, r.Version, r.Converters)
			}
			p := mustBuild(t, Options{Dir: dir, Patterns: []string{"./..."}, Discovery: d, CacheDir: t.TempDir()})
			proc := start(t, p)
			kinds := []Kind{{Group: "cr.example.com", Kind: "Widget", Hub: "v1", Spokes: []string{"v1beta1"}, Versions: []string{"v1", "v1beta1"}, Convertible: true}}
			if r.Converters {
				kinds = append([]Kind{{Group: "cr.example.com", Kind: "Gadget", Hub: "v1", Spokes: []string{"v1beta1"}, Versions: []string{"v1", "v1beta1"},
					Convertible: true, Via: "WithConverter", Where: "internal/webhooks/gadget.go:15:3"}}, kinds...)
			}
			if !reflect.DeepEqual(proc.Kinds(), kinds) {
				t.Errorf("Kinds() =\n%+v\nwant\n%+v", proc.Kinds(), kinds)
			}
			for _, k := range kinds {
				checkConverts(t, proc, k.GroupKind())
			}
			checkPanic(t, proc, r.Recovers)
			t.Logf("controller-runtime %s: %s in all", r.Version, time.Since(start0).Round(time.Second))
		})
	}
}

// checkPanic converts a Widget whose ConvertTo panics: a release whose
// handler recovers answers an error, before that the program stops on
// it; either way that conversion alone fails, and the next one converts.
func checkPanic(t *testing.T, proc *Process, recovers bool) {
	t.Helper()
	ctx := context.Background()
	obj := map[string]any{"apiVersion": "cr.example.com/v1beta1", "kind": "Widget",
		"metadata": map[string]any{"name": "x", "namespace": "default", "annotations": map[string]any{"cr.example.com/panic": "boom"}},
		"spec":     map[string]any{"length": int64(1)}}
	_, err := proc.Convert(ctx, []map[string]any{obj}, "cr.example.com/v1")
	_, refused := errors.AsType[*ConversionError](err)
	_, stopped := errors.AsType[*ProgramError](err)
	switch {
	case recovers && (!refused || !strings.Contains(err.Error(), "internal error occurred during conversion")):
		t.Errorf("a panicking ConvertTo: %v, want the handler's refusal (it recovers)", err)
	case !recovers && (!stopped || !strings.Contains(err.Error(), "panic: boom")):
		t.Errorf("a panicking ConvertTo: %v, want the program stopped by the panic (the handler does not recover)", err)
	}
	checkConverts(t, proc, schema.GroupKind{Group: "cr.example.com", Kind: "Widget"})
}

// checkConverts converts a gk object of the crversions API both ways: the
// rename of v1beta1's length to v1's size round-trips, v1's color is
// dropped.
func checkConverts(t *testing.T, proc *Process, gk schema.GroupKind) {
	t.Helper()
	ctx := context.Background()
	obj := func(version string, spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": gk.Group + "/" + version, "kind": gk.Kind,
			"metadata": map[string]any{"name": "x", "namespace": "default"}, "spec": spec}
	}
	toHub, err := proc.Convert(ctx, []map[string]any{obj("v1beta1", map[string]any{"length": int64(7)})}, gk.Group+"/v1")
	if err != nil {
		t.Fatalf("%s v1beta1 → v1: %v", gk, err)
	}
	if got := toHub[0]["spec"]; !reflect.DeepEqual(got, map[string]any{"size": int64(7)}) || toHub[0]["apiVersion"] != gk.Group+"/v1" {
		t.Errorf("%s v1beta1 → v1: %v, want spec {size: 7} at v1", gk, toHub[0])
	}
	toSpoke, err := proc.Convert(ctx, []map[string]any{obj("v1", map[string]any{"size": int64(3), "color": "red"})}, gk.Group+"/v1beta1")
	if err != nil {
		t.Fatalf("%s v1 → v1beta1: %v", gk, err)
	}
	if got := toSpoke[0]["spec"]; !reflect.DeepEqual(got, map[string]any{"length": int64(3)}) || toSpoke[0]["apiVersion"] != gk.Group+"/v1beta1" {
		t.Errorf("%s v1 → v1beta1: %v, want spec {length: 3} at v1beta1 (color dropped)", gk, toSpoke[0])
	}
}

// TestControllerRuntimeTooOld: a module whose build list has a
// controller-runtime older than MinControllerRuntime is refused by
// Discover, in one line that names the version found and the minimum,
// before anything is built.
func TestControllerRuntimeTooOld(t *testing.T) {
	needGo(t)
	dir := convprogtest.Module(t, convprogtest.TooOld, false, true)
	var log bytes.Buffer
	_, err := Build(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, CacheDir: t.TempDir(), Log: &log})
	ue, ok := errors.AsType[*UnsupportedError](err)
	if !ok {
		t.Fatalf("Build against controller-runtime %s: %v, want an *UnsupportedError", convprogtest.TooOld, err)
	}
	want := "sigs.k8s.io/controller-runtime " + convprogtest.TooOld + " in example.com/crversions's build list is older than v0.15.0, the oldest the conversion program supports"
	if ue.Error() != want {
		t.Errorf("error:\n%s\nwant\n%s", ue, want)
	}
	if log.Len() > 0 {
		t.Errorf("something was built: %s", log.String())
	}
	if _, err := Discover(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}}); err == nil || err.Error() != want {
		t.Errorf("Discover: %v, want the same refusal", err)
	}
}

// TestWebhookAPI: the declarations of controller-runtime's
// pkg/webhook/conversion that decide the program's shape, read as
// controller-runtime v0.15.0 to v0.22 (NewWebhookHandler(scheme)) and
// v0.23.0 on (Converter, Registry, NewRegistry,
// NewWebhookHandler(scheme, registry)) declare them, and as v0.14 does
// (neither).
func TestWebhookAPI(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      webhookDecls
	}{
		{"v0.14", `package conversion
type Webhook struct{}
func (wh *Webhook) InjectScheme(s *runtime.Scheme) error { return nil }
func IsConvertible(scheme *runtime.Scheme, obj runtime.Object) (bool, error) { return false, nil }
`, webhookDecls{}},
		{"v0.15", `package conversion
func NewWebhookHandler(scheme *runtime.Scheme) http.Handler { return nil }
func IsConvertible(scheme *runtime.Scheme, obj runtime.Object) (bool, error) { return false, nil }
`, webhookDecls{schemeHandler: true}},
		{"v0.23", `package conversion
type Converter interface {
	ConvertObject(ctx context.Context, src, dst runtime.Object) error
}
type Registry interface {
	RegisterConverter(gk schema.GroupKind, converter Converter) error
	GetConverter(gk schema.GroupKind) (Converter, bool)
}
func NewRegistry() Registry { return nil }
func NewWebhookHandler(scheme *runtime.Scheme, registry Registry) http.Handler { return nil }
`, webhookDecls{registryHandler: true, converter: true, registry: true, newRegistry: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "conversion.go"), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := webhookAPI(dir, []string{"conversion.go"})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("webhookAPI = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestGeneratedNamesOnlyDeclared: the program generated without
// Converters names, of controller-runtime's pkg/webhook/conversion, only
// what v0.15.0 to v0.22 declare; with Converters, what v0.23.0 adds.
func TestGeneratedNamesOnlyDeclared(t *testing.T) {
	for _, tc := range []struct {
		converters bool
		want       []string
	}{
		{false, []string{"IsConvertible", "NewWebhookHandler"}},
		{true, []string{"Converter", "IsConvertible", "NewRegistry", "NewWebhookHandler"}},
	} {
		in := genInput{APIs: []string{"example.com/m/api/v1"}, Converters: tc.converters}
		if tc.converters {
			in.Registrations = []Registration{{Via: "WithConverter", Type: "example.com/m/api/v1.Gadget", Source: "cvconversion_1.Gadget",
				Imports: map[string]string{"cvconversion_1": "example.com/m/internal/conversion"}, Constructor: true}}
			in.Where = []string{"internal/webhooks/gadget.go:15:3"}
		}
		src, err := mainSource(in)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "webhookconversion" {
					names[sel.Sel.Name] = true
				}
			}
			return true
		})
		got := slices.Sorted(maps.Keys(names))
		if !slices.Equal(got, tc.want) {
			t.Errorf("Converters %v: the program names webhookconversion.%v, want %v", tc.converters, got, tc.want)
		}
	}
}

// TestUserPositions: go build's errors in the generated program are named
// "(conversion program)/main.go" and make the BuildError say that the user
// has nothing to fix; an error in a user's file keeps its path.
func TestUserPositions(t *testing.T) {
	tmp := t.TempDir()
	user := filepath.Join(t.TempDir(), "api", "v1", "widget_conversion.go")
	for _, tc := range []struct {
		out, want string
		generated bool
	}{
		{"# example.com/m/zz_controller_gen_default_convprog\n./main.go:46:63: undefined: webhookconversion.Converter\n",
			"# example.com/m/zz_controller_gen_default_convprog\n(conversion program)/main.go:46:63: undefined: webhookconversion.Converter", true},
		{"# example.com/m/api/v1\n" + user + ":3:4: undefined: x\n", "# example.com/m/api/v1\n" + user + ":3:4: undefined: x", false},
		{"./main.go:1:2: a\n" + user + ":3:4: b\n", "(conversion program)/main.go:1:2: a\n" + user + ":3:4: b", false},
		{"go: downloading example.com/x v1.0.0\nsignal: killed\n", "go: downloading example.com/x v1.0.0\nsignal: killed", false},
	} {
		got, generated := userPositions(tc.out, tmp)
		if got != tc.want || generated != tc.generated {
			t.Errorf("userPositions(%q) = %q, %v; want %q, %v", tc.out, got, generated, tc.want, tc.generated)
		}
	}
	be := &BuildError{Module: "example.com/m", Output: "(conversion program)/main.go:46:63: undefined: webhookconversion.Converter",
		Runtime: ControllerRuntime{Version: "v0.20.4"}, Generated: true}
	if msg := be.Error(); !strings.Contains(msg, "not in yours") || strings.Contains(msg, "fix the errors") || !strings.Contains(msg, "sigs.k8s.io/controller-runtime v0.20.4") {
		t.Errorf("BuildError in the generated program: %s", msg)
	}
}

// TestControllerRuntimeReplaced: what the program serves is decided by
// what the controller-runtime of the build list declares, not by its
// version: a replacement without the handler the program serves with is
// refused, in one line that names the version, the replacement and what
// it lacks.
func TestControllerRuntimeReplaced(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                          "module example.com/fork\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.20.4\n\nreplace sigs.k8s.io/controller-runtime => ./cr\n",
		"cr/go.mod":                       "module sigs.k8s.io/controller-runtime\n\ngo 1.22\n",
		"cr/pkg/conversion/conversion.go": "package conversion\n\ntype Hub interface{ Hub() }\n",
		"cr/pkg/webhook/conversion/conversion.go": "package conversion\n\n// Webhook is v0.14's, without NewWebhookHandler.\ntype Webhook struct{}\n",
		"api/v1/types.go":                         "package v1\n\nfunc AddToScheme() error { return nil }\n\ntype Widget struct{}\n\nfunc (*Widget) Hub() {}\n",
	}
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Discover(context.Background(), Options{Dir: dir, Patterns: []string{"./api/..."}})
	want := "sigs.k8s.io/controller-runtime v0.20.4 => ./cr in example.com/fork's build list is not supported by the conversion program: " +
		"its pkg/webhook/conversion has neither NewWebhookHandler(*runtime.Scheme) (v0.15.0 to v0.22) nor NewWebhookHandler(*runtime.Scheme, Registry) (v0.23.0 on), which the program serves conversions with"
	if _, ok := errors.AsType[*UnsupportedError](err); !ok || err.Error() != want {
		t.Errorf("Discover: %v\nwant an *UnsupportedError:\n%s", err, want)
	}
}

func TestOlderThan(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"v0.14.6", true}, {"v0.15.0", false}, {"v0.15.0-beta.0", true}, {"v0.14.7-0.20230101000000-abcdefabcdef", true},
		{"v0.15.1-0.20230101000000-abcdefabcdef", false}, {"v0.25.2", false}, {"v1.0.0", false}, {"", false}, {"(devel)", false},
	} {
		if got := olderThan(tc.v, MinControllerRuntime); got != tc.want {
			t.Errorf("olderThan(%q, %s) = %v, want %v", tc.v, MinControllerRuntime, got, tc.want)
		}
	}
}
