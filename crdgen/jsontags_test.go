package crdgen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsontag"
)

// TestControllerGenReading: jsontag.ControllerGen, the reading of json tags
// that json-name-mismatch compares with encoding/json's, puts each field of
// testdata/jsontags where controller-tools' own crd generator puts it:
// the properties of spec are the fields' names, the inline fields' fields,
// and nothing for the skipped ones.
func TestControllerGenReading(t *testing.T) {
	res := generate(t, crd.Generator{}, false, "./testdata/jsontags/...")
	if res.failed || len(res.files) != 1 {
		t.Fatalf("controller-tools: failed %v, %d files:\n%s", res.failed, len(res.files), res.diags)
	}
	var c apiextensionsv1.CustomResourceDefinition
	for _, b := range res.files {
		if err := yaml.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for k := range c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties {
		got = append(got, k)
	}

	f, err := parser.ParseFile(token.NewFileSet(), "testdata/jsontags/v1/types.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	structs := map[string]*ast.StructType{}
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok {
			if st, ok := ts.Type.(*ast.StructType); ok {
				structs[ts.Name.Name] = st
			}
		}
		return true
	})
	var want []string
	var walk func(st *ast.StructType)
	walk = func(st *ast.StructType) {
		for _, fld := range st.Fields.List {
			raw, _ := strconv.Unquote(fld.Tag.Value)
			jf := jsontag.Field{Tag: reflect.StructTag(raw), Embedded: len(fld.Names) == 0}
			typeName := identName(fld.Type)
			jf.Name = typeName
			if !jf.Embedded {
				jf.Name = fld.Names[0].Name
			}
			switch r := jsontag.ControllerGen(jf, false); {
			case r.Skip:
			case r.Inline:
				walk(structs[typeName])
			default:
				want = append(want, r.Name)
			}
		}
	}
	walk(structs["TagsSpec"])
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("controller-tools' properties of spec %q, jsontag.ControllerGen %q", got, want)
	}
}

// identName is the name of a field's type written as an identifier.
func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
