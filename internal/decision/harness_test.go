package decision

import (
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// The table-driven tests of this package decide the fields of
// testdata/decide, loaded once as the crd generator loads them, against
// a schema each case gives.

var fixture struct {
	sync.Once
	roots []*loader.Package
	col   *ctmarkers.Collector
	check *loader.TypeChecker
	err   error
}

// newModel is a fresh decision model of testdata/decide.
func newModel(t testing.TB, implicit bool) *Model {
	t.Helper()
	fixture.Do(func() {
		fixture.roots, fixture.err = loader.LoadRootsWithConfig(&packages.Config{}, "./testdata/decide")
		reg := &ctmarkers.Registry{}
		if err := model.RegisterMarkers(reg); err != nil {
			fixture.err = err
		}
		fixture.col = &ctmarkers.Collector{Registry: reg}
		fixture.check = &loader.TypeChecker{NodeFilters: []loader.NodeFilter{model.CheckFilter()}}
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	p := &crd.Parser{Collector: fixture.col, Checker: fixture.check}
	crd.AddKnownTypes(p)
	for _, r := range fixture.roots {
		p.NeedPackage(r)
		for _, e := range r.Errors {
			t.Fatalf("testdata/decide: %v", e)
		}
	}
	return New(p, fixture.col, fixture.roots, Options{Options: model.Options{Implicit: implicit}, Explain: true})
}

// goField is the field of testdata/decide's type Fields (or "Type.json")
// named json.
func goField(t testing.TB, m *Model, name string) *model.Field {
	t.Helper()
	typ, json := "Fields", name
	if i := strings.LastIndex(name, "."); i >= 0 {
		typ, json = name[:i], name[i+1:]
	}
	for _, f := range m.Types.Fields(model.TypeIdent{Package: fixture.roots[0], Name: typ}) {
		if f.Tag.Name == json {
			return f
		}
	}
	t.Fatalf("no field %s.%s", typ, json)
	return nil
}

// Schemas, as controller-gen generates them for the fixture's types.

func str() apiextensionsv1.JSONSchemaProps  { return apiextensionsv1.JSONSchemaProps{Type: "string"} }
func intg() apiextensionsv1.JSONSchemaProps { return apiextensionsv1.JSONSchemaProps{Type: "integer"} }

func obj(props map[string]apiextensionsv1.JSONSchemaProps, required ...string) *apiextensionsv1.JSONSchemaProps {
	return &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: props, Required: required}
}

func withDefault(s apiextensionsv1.JSONSchemaProps, raw string) apiextensionsv1.JSONSchemaProps {
	s.Default = &apiextensionsv1.JSON{Raw: []byte(raw)}
	return s
}

func ptr[T any](v T) *T { return &v }

// findingStrings is each finding as "severity rule: message".
func findingStrings(fs []model.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Sev.String()+" "+f.Rule+": "+f.Msg)
	}
	return out
}

// matchFindings checks that fs are one finding per want, in order, each
// containing its want.
func matchFindings(t testing.TB, what string, fs []model.Finding, want ...string) {
	t.Helper()
	got := findingStrings(fs)
	if len(got) != len(want) {
		t.Errorf("%s: %d findings, want %d:\n  %s", what, len(got), len(want), strings.Join(got, "\n  "))
		return
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("%s: finding %d = %q, want it to contain %q", what, i, got[i], want[i])
		}
	}
}
