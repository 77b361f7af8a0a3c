package convprog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// convreg is the test API that converts with a registered Converter:
// reg.example.com Gadget, hub v1, spoke v1beta1, converted by
// internal/conversion's NewHubSpokeConverter var, registered with
// WithConverter in internal/webhooks; cmd/main.go calls
// conversion.SetUnit, which the hub → v1beta1 conversion needs.
var convreg = func() string {
	d, err := filepath.Abs(filepath.Join("..", "..", "testdata", "convreg"))
	if err != nil {
		panic(err)
	}
	return d
}()

// copyModuleFrom copies a test module to a temporary directory.
func copyModuleFrom(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := realapistest.CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestDiscoverConverter: from the module's root, ./... finds the Converter
// registered with WithConverter, its GroupKind's Go type, hub and spoke,
// the API packages, and main's call of the setter the conversion reads.
func TestDiscoverConverter(t *testing.T) {
	needGo(t)
	d, err := Discover(context.Background(), Options{Dir: convreg, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Empty() {
		t.Fatal("Empty(): the Converter was not found")
	}
	if len(d.Registrations) != 1 {
		t.Fatalf("Registrations = %+v, want one", d.Registrations)
	}
	r := d.Registrations[0]
	if r.Via != "WithConverter" || r.Type != "example.com/convreg/api/v1.Gadget" || !r.Constructor ||
		r.Hub != "example.com/convreg/api/v1.Gadget" || !reflect.DeepEqual(r.Spokes, []string{"example.com/convreg/api/v1beta1.Gadget"}) {
		t.Errorf("Registration = %+v", r)
	}
	if got := filepath.ToSlash(strings.TrimPrefix(r.Pos.Filename, convreg)); got != "/internal/webhooks/gadget.go" || r.Pos.Line != 15 || r.Pos.Column != 3 {
		t.Errorf("Pos = %s, want internal/webhooks/gadget.go:15:3", r.Pos)
	}
	alias := importAlias("example.com/convreg/internal/conversion")
	if r.Expr != "conversion.Gadget" || r.Source != alias+".Gadget" || r.Imports[alias] != "example.com/convreg/internal/conversion" {
		t.Errorf("Expr, Source, Imports = %q, %q, %v", r.Expr, r.Source, r.Imports)
	}
	if want := []string{"example.com/convreg/api/v1", "example.com/convreg/api/v1beta1"}; !reflect.DeepEqual(d.APIPackages, want) {
		t.Errorf("APIPackages = %v, want %v", d.APIPackages, want)
	}
	if len(d.HubPackages) != 0 {
		t.Errorf("HubPackages = %v, want none (no Hub/Convertible methods)", d.HubPackages)
	}
	if len(d.SetupCalls) != 1 {
		t.Fatalf("SetupCalls = %+v, want main's conversion.SetUnit", d.SetupCalls)
	}
	c := d.SetupCalls[0]
	if c.Func != "example.com/convreg/internal/conversion.SetUnit" || c.Name != "conversion.SetUnit" || c.Var != "unit" ||
		filepath.Base(c.Pos.Filename) != "main.go" || c.Pos.Line != 20 || c.Pos.Column != 2 {
		t.Errorf("SetupCall = %+v, want conversion.SetUnit at cmd/main.go:20:2 setting unit", c)
	}
}

// TestDiscoverLocalConverter: a converter the program cannot reproduce (a
// local variable, an unexported var) is an error at its file:line:col
// that names the identifier and the fix.
func TestDiscoverLocalConverter(t *testing.T) {
	needGo(t)
	for _, tc := range []struct {
		name, src, ident, at string
	}{
		{"local", `package webhooks

import (
	ctrl "sigs.k8s.io/controller-runtime"

	v1 "example.com/convreg/api/v1"
	"example.com/convreg/internal/conversion"
)

func SetupLocal(mgr ctrl.Manager) error {
	c := conversion.Gadget
	return ctrl.NewWebhookManagedBy(mgr, &v1.Gadget{}).
		WithConverter(c).
		Complete()
}
`, "c", "bad.go:13:17"},
		{"unexported", `package webhooks

import (
	ctrl "sigs.k8s.io/controller-runtime"

	v1 "example.com/convreg/api/v1"
	"example.com/convreg/internal/conversion"
)

var gadget = conversion.Gadget

func SetupUnexported(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, &v1.Gadget{}).
		WithConverter(gadget).
		Complete()
}
`, "gadget", "bad.go:14:17"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyModuleFrom(t, convreg)
			if err := os.WriteFile(filepath.Join(dir, "internal", "webhooks", "bad.go"), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Discover(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
			var de *DiscoveryError
			if !errors.As(err, &de) {
				t.Fatalf("Discover: %v, want a *DiscoveryError", err)
			}
			msg := err.Error()
			if at := fmt.Sprintf("%s:%d:%d", filepath.Base(de.Pos.Filename), de.Pos.Line, de.Pos.Column); at != tc.at {
				t.Errorf("at %s, want %s", at, tc.at)
			}
			for _, want := range []string{tc.at + ": ", "uses " + tc.ident + ",", "exported package-level var"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q lacks %q", msg, want)
				}
			}
		})
	}
}

// TestDiscoverNothing: a module whose API converts nothing is Empty, and
// Build says so without building (no go build, no log line).
func TestDiscoverNothing(t *testing.T) {
	needGo(t)
	dir := copyModuleFrom(t, convreg)
	for _, rm := range []string{"internal", "cmd", "convsetup"} {
		if err := os.RemoveAll(filepath.Join(dir, rm)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Discover(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Empty() || len(d.Registrations) != 0 || len(d.SetupCalls) != 0 {
		t.Fatalf("Discovery = %+v, want Empty", d)
	}
	var log bytes.Buffer
	_, err = Build(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Log: &log, CacheDir: t.TempDir()})
	if !errors.Is(err, ErrNothingToConvert) {
		t.Errorf("Build: %v, want ErrNothingToConvert", err)
	}
	if log.Len() != 0 {
		t.Errorf("Build logged %q: it built", log.String())
	}
}

// TestConverterProgram: the program registers the Converter and calls
// --setup: Kinds says how Gadget converts, and hub → v1beta1 (which needs
// the setter's state) converts.
func TestConverterProgram(t *testing.T) {
	p := mustBuild(t, Options{Dir: convreg, Patterns: []string{"./..."}, Setup: "example.com/convreg/convsetup.Setup", CacheDir: testCache(t)})
	if len(p.MissingSetup) != 0 {
		t.Errorf("MissingSetup = %+v with --setup", p.MissingSetup)
	}
	proc := start(t, p)
	k, ok := proc.Kind(schema.GroupKind{Group: "reg.example.com", Kind: "Gadget"})
	if !ok {
		t.Fatalf("Kinds() = %+v: no Gadget", proc.Kinds())
	}
	want := Kind{Group: "reg.example.com", Kind: "Gadget", Hub: "v1", Spokes: []string{"v1beta1"}, Versions: []string{"v1", "v1beta1"},
		Convertible: true, Via: "WithConverter", Where: "internal/webhooks/gadget.go:15:3"}
	if !reflect.DeepEqual(k, want) {
		t.Errorf("Kind = %+v, want %+v", k, want)
	}
	out, err := proc.Convert(context.Background(), []map[string]any{{
		"apiVersion": "reg.example.com/v1", "kind": "Gadget",
		"metadata": map[string]any{"name": "g"}, "spec": map[string]any{"size": int64(3), "color": "red"},
	}}, "reg.example.com/v1beta1")
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := out[0]["spec"].(map[string]any)
	ann, _ := out[0]["metadata"].(map[string]any)["annotations"].(map[string]any)
	if spec["length"] != int64(3) || ann["reg.example.com/unit"] != "cm" {
		t.Errorf("converted = %v, want length 3 and the unit --setup set", out[0])
	}
}

// TestDiscoverRegisterConverter: a custom conversion.Converter registered
// with a conversion.Registry's RegisterConverter is found with its
// GroupKind expression, both reproduced; its hub is unknown.
func TestDiscoverRegisterConverter(t *testing.T) {
	needGo(t)
	dir := copyModuleFrom(t, convreg)
	src := `package registry

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	v1 "example.com/convreg/api/v1"
)

// GadgetConverter is a custom Converter.
type GadgetConverter struct{}

// ConvertObject converts nothing.
func (GadgetConverter) ConvertObject(context.Context, runtime.Object, runtime.Object) error { return nil }

// Converter is the Gadget converter.
var Converter conversion.Converter = GadgetConverter{}

// Register registers it.
func Register(r conversion.Registry) error {
	return r.RegisterConverter(v1.GroupVersion.WithKind("Gadget").GroupKind(), Converter)
}
`
	if err := os.MkdirAll(filepath.Join(dir, "internal", "registry"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "internal", "registry", "registry.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Discover(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	var r *Registration
	for i := range d.Registrations {
		if d.Registrations[i].Via == "RegisterConverter" {
			r = &d.Registrations[i]
		}
	}
	if r == nil {
		t.Fatalf("Registrations = %+v: no RegisterConverter", d.Registrations)
	}
	v1 := importAlias("example.com/convreg/api/v1")
	reg := importAlias("example.com/convreg/internal/registry")
	if r.Constructor || r.Hub != "" || r.Type != "" ||
		r.GroupKindExpr != v1+`.GroupVersion.WithKind("Gadget").GroupKind()` || r.Source != reg+".Converter" ||
		r.Imports[v1] != "example.com/convreg/api/v1" || r.Imports[reg] != "example.com/convreg/internal/registry" {
		t.Errorf("Registration = %+v", *r)
	}
	if at := filepath.Base(r.Pos.Filename); at != "registry.go" || r.Pos.Line != 23 || r.Pos.Column != 11 {
		t.Errorf("Pos = %s, want registry.go:23:11", r.Pos)
	}
}
