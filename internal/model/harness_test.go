package model

import (
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// The table-driven tests of this package read the Go types of
// testdata/rules, loaded once as the crd generator loads them (the same
// markers, index and type-checker filter), and name a field as
// "Type.jsonName" and a type as "Type".

const rulesPath = "github.com/controller-gen-default/controller-gen-default/internal/model/testdata/rules"

var fixture struct {
	sync.Once
	roots []*loader.Package
	col   *ctmarkers.Collector
	check *loader.TypeChecker
	err   error
}

func loadFixture(t testing.TB) {
	t.Helper()
	fixture.Do(func() {
		roots, err := loader.LoadRootsWithConfig(&packages.Config{}, "./testdata/rules/...")
		if err != nil {
			fixture.err = err
			return
		}
		reg := &ctmarkers.Registry{}
		if err := RegisterMarkers(reg); err != nil {
			fixture.err = err
			return
		}
		fixture.roots = roots
		fixture.col = &ctmarkers.Collector{Registry: reg}
		fixture.check = &loader.TypeChecker{NodeFilters: []loader.NodeFilter{CheckFilter()}}
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
}

// newModel is a fresh model of testdata/rules with opts: each test gets
// its own caches.
func newModel(t testing.TB, opts Options) *Model {
	t.Helper()
	return newModelOf(t, opts, func(x Index) Index { return x })
}

// newModelOf is newModel over the index that wrap makes of NewIndex's,
// with the roots and the packages they import loaded.
func newModelOf(t testing.TB, opts Options, wrap func(Index) Index) *Model {
	t.Helper()
	loadFixture(t)
	idx := wrap(NewIndex(fixture.col, fixture.check))
	for _, r := range fixture.roots {
		idx.NeedPackage(r)
		for _, e := range r.Errors {
			t.Fatalf("testdata/rules: %v", e)
		}
		// as the crd generator's parser loads the packages of the types
		// the schemas use
		for _, imp := range r.Imports() {
			idx.NeedPackage(imp)
		}
	}
	return New(idx, fixture.col, fixture.roots, opts)
}

// typeID is the type of testdata/rules (or of its package off, as
// "off.Plain") named name.
func typeID(t testing.TB, m *Model, name string) TypeIdent {
	t.Helper()
	path := rulesPath
	if pkg, n, ok := strings.Cut(name, "."); ok {
		path, name = rulesPath+"/"+pkg, n
	}
	for id := range m.idx.Types() {
		if id.Name == name && id.Package.PkgPath == path {
			return id
		}
	}
	t.Fatalf("no type %s in %s", name, path)
	return TypeIdent{}
}

// field is the field "Type.jsonName" of testdata/rules ("off.Plain.a" in
// package off).
func field(t testing.TB, m *Model, name string) *Field {
	t.Helper()
	i := strings.LastIndex(name, ".")
	typ, json, ok := name[:max(i, 0)], name[i+1:], i > 0
	if !ok {
		t.Fatalf("field %q: want Type.jsonName", name)
	}
	for _, f := range m.Fields(typeID(t, m, typ)) {
		if f.Tag.Name == json {
			return f
		}
	}
	t.Fatalf("no field %s", name)
	return nil
}

// findings is the findings as "severity rule: message", for comparing.
func findings(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Sev.String()+" "+f.Rule+": "+f.Msg)
	}
	return out
}

// matchFindings checks that fs are exactly one finding per want, in
// order, each containing its want ("severity rule: part of message").
func matchFindings(t testing.TB, what string, fs []Finding, want ...string) {
	t.Helper()
	got := findings(fs)
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
