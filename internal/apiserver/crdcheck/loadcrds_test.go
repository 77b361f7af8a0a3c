package crdcheck

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// decodeCRDTwice is how LoadCRDs read a document before crdOf: its kind
// first, then, for a CRD, the whole document strictly, with sigs.k8s.io/yaml
// (the YAML one: a key given twice is its error).
func decodeCRDTwice(d []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	var tm struct{ APIVersion, Kind string }
	if err := yaml.Unmarshal(d, &tm); err != nil {
		return nil, err
	}
	if tm.Kind != "CustomResourceDefinition" {
		return nil, nil
	}
	if tm.APIVersion != apiextensionsv1.SchemeGroupVersion.String() {
		return nil, fmt.Errorf("%s is not supported, only %s", tm.APIVersion, apiextensionsv1.SchemeGroupVersion)
	}
	c := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(d, c); err != nil {
		return nil, err
	}
	return c, nil
}

// TestCRDOf: crdOf, which reads the object internal/input/manifest decoded,
// gives what reading the document's kind and then the CRD gave (the same
// CRD, or an error, or the same skip) on the golden CRDs, documents of
// other kinds and versions, broken ones, and the golden CRDs with random
// bytes changed (those that still parse).
func TestCRDOf(t *testing.T) {
	// Where the apiserver reads a CRD otherwise than sigs.k8s.io/yaml did,
	// crdOf reads it as the apiserver does: keys case-sensitively, and a
	// number is not a string.
	for _, tc := range []struct{ doc, err string }{
		{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a}\nspec: {Group: a}\n", `unknown field "spec.Group"`},
		{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: 1}\n", "cannot unmarshal number"},
	} {
		crds, err := ReadCRDs("doc", strings.NewReader(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "doc:1: ") {
			t.Errorf("%s: %d CRDs, %v; want doc:1: ...%s", tc.doc, len(crds), err, tc.err)
		}
	}
	docs := [][]byte{
		[]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: y}\n"),
		[]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"),
		[]byte("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: a}\nspec: {validation: {}}\n"),
		[]byte("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: a}\n"),
		[]byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a}\nspec: {unknown: 1}\n"),
		[]byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a}\nspec: {group: a, group: b}\n"),
		[]byte("apiVersion: apiextensions.k8s.io/v1\nmetadata: {name: a}\n"),
		[]byte("kind: CustomResourceDefinition\nmetadata: {name: a}\n"),
	}
	files, err := filepath.Glob("../../../testdata/golden/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden CRDs: %v", err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
		for range 10 {
			changed := append([]byte(nil), b...)
			changed[r.IntN(len(changed))] = " :-[]{}\nabckz01\"'"[r.IntN(17)]
			docs = append(docs, changed)
		}
	}
	kinds := map[string]int{}
	for i, d := range docs {
		for o, err := range manifest.All("doc", bytes.NewReader(d)) {
			if err != nil {
				kinds["unread"]++
				break
			}
			got, _, gotErr := crdOf(o)
			want, wantErr := decodeCRDTwice(d)
			if (gotErr != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("document %d:\n%s\ngot  %v, %v\nwant %v, %v", i, d, got != nil, gotErr, want != nil, wantErr)
			}
			switch {
			case wantErr != nil:
				kinds["error"]++
			case want == nil:
				kinds["skipped"]++
			default:
				kinds["crd"]++
			}
		}
	}
	if kinds["error"] == 0 || kinds["skipped"] == 0 || kinds["crd"] == 0 {
		t.Errorf("outcomes %v: the corpus must have each", kinds)
	}
	t.Log(kinds)
}

// TestLoadCRDsAsKubectlReads: CRD files are read as kubectl reads a
// manifest (internal/input/manifest): a List of CRDs is its items, each at
// FILE:DOC:ITEM (a reader that split YAML documents skipped the List
// whole), and a field given twice in a CRD is refused as the apiserver's
// strict decoding refuses it.
func TestLoadCRDsAsKubectlReads(t *testing.T) {
	item := func(plural, kind string) string {
		return "- apiVersion: apiextensions.k8s.io/v1\n  kind: CustomResourceDefinition\n  metadata: {name: " + plural + ".example.com}\n" +
			"  spec:\n    group: example.com\n    scope: Namespaced\n    names: {plural: " + plural + ", kind: " + kind + "}\n" +
			"    versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n"
	}
	dir := writeFiles(t, map[string]string{
		"list.yaml": "apiVersion: v1\nkind: List\nitems:\n" + item("widgets", "Widget") + item("gadgets", "Gadget"),
	})
	crds, err := LoadCRDs(dir)
	if err != nil || len(crds) != 2 || crds[0].Name != "widgets.example.com" || crds[1].Name != "gadgets.example.com" {
		t.Fatalf("%d CRDs, %v; want the List's 2 items", len(crds), err)
	}
	dir = writeFiles(t, map[string]string{
		"list.yaml": "apiVersion: v1\nkind: List\nitems:\n" + item("widgets", "Widget") + item("gadgets", "Widget"),
	})
	if _, err := LoadCRDs(dir); err == nil || !strings.Contains(err.Error(), "list.yaml:1:2: CRD gadgets.example.com claims") {
		t.Errorf("error %v, want the second item's conflict at list.yaml:1:2", err)
	}
	dir = writeFiles(t, map[string]string{
		"dup.yaml": "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n" +
			"spec:\n  group: example.com\n  group: other.example.com\n  scope: Namespaced\n  names: {plural: widgets, kind: Widget}\n" +
			"  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n",
	})
	if _, err := LoadCRDs(dir); err == nil || !strings.Contains(err.Error(), `dup.yaml:1: duplicate field "spec.group"`) {
		t.Errorf("error %v, want the duplicate field at dup.yaml:1", err)
	}
}

// TestCRDSetFS: the same CRDs from an fs.FS as from the files, in the
// same order (a directory's .yaml, .yml and .json files directly in it,
// by name), named in errors and conflicts by name, also beside files and
// CRDs from memory.
func TestCRDSetFS(t *testing.T) {
	files := map[string]string{}
	for _, f := range []string{"old.yaml", "new.yaml", "new-removed.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "impact", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	dir := writeFiles(t, map[string]string{"b.yml": files["new.yaml"], "a.json.txt": "not read", "sub/c.yaml": files["old.yaml"]})
	fsys := fstest.MapFS{
		"crds/b.yml":      {Data: []byte(files["new.yaml"])},
		"crds/a.json.txt": {Data: []byte("not read")},
		"crds/sub/c.yaml": {Data: []byte(files["old.yaml"])},
		"one.yaml":        {Data: []byte(files["new-removed.yaml"])},
	}
	name := func(p string) string { return "git://main?path=" + p }
	loadFS := func(paths ...string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
		var set CRDSet
		if err := set.AddFS(fsys, name, paths...); err != nil {
			return nil, err
		}
		return set.Served()
	}
	for _, c := range []struct{ fs, os []string }{
		{[]string{"crds"}, []string{dir}},
		{[]string{"one.yaml", "crds/b.yml"}, []string{filepath.Join("..", "..", "impact", "testdata", "new-removed.yaml"), filepath.Join(dir, "b.yml")}},
	} {
		want, err := LoadCRDs(c.os...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := loadFS(c.fs...)
		if err != nil {
			t.Fatalf("%v: %v", c.fs, err)
		}
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%v: %d CRDs, want the %d of %v", c.fs, len(got), len(want), c.os)
		}
	}
	// a conflict names both places by name
	fsys["crds/z.yaml"] = &fstest.MapFile{Data: []byte(strings.Replace(files["new.yaml"], "type: object", "type: object\n        description: changed", 1))}
	if _, err := loadFS("crds"); err == nil || !strings.Contains(err.Error(), "git://main?path=crds/z.yaml:1: CRD ") ||
		!strings.Contains(err.Error(), "also at git://main?path=crds/b.yml:1") {
		t.Errorf("conflict: %v", err)
	}
	// a file, then the tree, then memory: each named where it was read
	var set CRDSet
	if err := set.AddFiles(filepath.Join(dir, "b.yml")); err != nil {
		t.Fatal(err)
	}
	if err := set.AddFS(fsys, name, "crds/z.yaml"); err != nil {
		t.Fatal(err)
	}
	mem, err := LoadCRDs(filepath.Join(dir, "sub", "c.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	set.Add(func(c *apiextensionsv1.CustomResourceDefinition) string { return "kube://" + c.Name }, mem...)
	_, err = set.Served()
	if err == nil || !strings.Contains(err.Error(), "git://main?path=crds/z.yaml:1: CRD ") || !strings.Contains(err.Error(), "also at "+filepath.Join(dir, "b.yml")+":1") ||
		!strings.Contains(err.Error(), "kube://") {
		t.Errorf("conflicts of mixed sources: %v", err)
	}
	if _, err := loadFS("nosuch"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("a missing path: %v", err)
	}
}
