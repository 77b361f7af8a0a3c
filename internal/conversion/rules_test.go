package conversion

import (
	"context"
	"fmt"
	"go/token"
	"io"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/model"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

// widgetConverter converts testdata/convapi's Widget in memory as its Go
// conversions do (v1beta1 length is v1 size; v1 color is dropped on the
// way to v1beta1), and as encoding/json writes the result (omitempty drops
// zero values). Its fields change it, so that each rule's test can show
// the rule catching a broken conversion and passing a fixed one.
type widgetConverter struct {
	// keepColor keeps v1's color in an annotation of v1beta1, as
	// cluster-api keeps what a spoke cannot hold.
	keepColor bool
	// dropLength drops v1beta1's length on the way to v1.
	dropLength bool
	// refuseOdd refuses, as a ConvertTo error, a v1beta1 object whose
	// length is odd.
	refuseOdd bool
	// emptyMode writes v1beta1's mode even when empty, as a Go field
	// without omitempty does.
	emptyMode bool
	// extra adds a field no schema has, which the apiserver prunes.
	extra bool
	// calls counts the reviews.
	calls int
}

const colorAnnotation = "conv.example.com/color"

func (c *widgetConverter) Convert(_ context.Context, objs []map[string]any, to string) ([]map[string]any, error) {
	c.calls++
	out := make([]map[string]any, 0, len(objs))
	for _, o := range objs {
		o = runtime.DeepCopyJSON(o)
		from := o["apiVersion"]
		if from == to {
			return nil, fmt.Errorf("conversion is not allowed between same type")
		}
		spec, _ := o["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
		}
		if n, ok := spec["length"].(int64); ok && n%2 != 0 && c.refuseOdd {
			return nil, &RefusedError{Err: fmt.Errorf("odd length %d", n)}
		}
		meta, _ := o["metadata"].(map[string]any)
		annotations, _ := meta["annotations"].(map[string]any)
		ns := map[string]any{}
		switch to {
		case "conv.example.com/v1":
			ns["size"] = spec["length"]
			if c.dropLength {
				delete(ns, "size")
			}
			ns["mode"] = spec["mode"]
			if v, ok := annotations[colorAnnotation]; ok && c.keepColor {
				ns["color"] = v
				delete(annotations, colorAnnotation)
			}
		case "conv.example.com/v1beta1":
			ns["length"] = spec["size"]
			ns["mode"] = spec["mode"]
			if v, ok := spec["color"]; ok && v != "" && c.keepColor {
				if annotations == nil {
					annotations = map[string]any{}
					meta["annotations"] = annotations
				}
				annotations[colorAnnotation] = v
			}
		default:
			return nil, fmt.Errorf("unknown version %s", to)
		}
		if len(annotations) == 0 {
			delete(meta, "annotations")
		}
		for k, v := range ns { // omitempty
			if k == "mode" && c.emptyMode && to == "conv.example.com/v1beta1" {
				if v == nil {
					ns[k] = ""
				}
				continue
			}
			if v == nil || v == "" || v == int64(0) || v == float64(0) {
				delete(ns, k)
			}
		}
		if c.extra {
			ns["extra"] = "x"
		}
		o["spec"] = ns
		if st, ok := o["status"].(map[string]any); ok && st["ready"] == false {
			delete(st, "ready")
		}
		o["apiVersion"] = to
		out = append(out, o)
	}
	return out, nil
}

// omitEmpty is Widget's Go encoding: every field of spec and status is
// omitempty.
func omitEmpty(_ string, obj map[string]any) map[string]any {
	obj = runtime.DeepCopyJSON(obj)
	for _, part := range []string{"spec", "status"} {
		m, _ := obj[part].(map[string]any)
		for k, v := range m {
			if v == "" || v == int64(0) || v == false {
				delete(m, k)
			}
		}
	}
	return obj
}

// widgetCRD is testdata/convapi's CRD, changed by edit.
func widgetCRD(t *testing.T, edit func(*apiextensionsv1.CustomResourceDefinition)) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	crds, err := crdcheck.LoadCRDs(filepath.Join("..", "..", "testdata", "convapi", "config", "crd"))
	if err != nil || len(crds) != 1 {
		t.Fatalf("load CRD: %v (%d CRDs)", err, len(crds))
	}
	if edit != nil {
		edit(crds[0])
	}
	return crds[0]
}

func widgetKind(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition) *Kind {
	t.Helper()
	k, err := NewKind(crd, "v1", []string{"v1beta1"})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// randomObjects are n valid objects of each version of k.
func randomObjects(t *testing.T, k *Kind, n int, seed uint64) map[string][]map[string]any {
	t.Helper()
	objs, _ := Objects(context.Background(), k, n, rand.New(rand.NewPCG(seed, 0)))
	for v, l := range objs {
		if len(l) < n/2 {
			t.Fatalf("%s: %d valid objects of %d", v, len(l), n)
		}
	}
	return objs
}

func lossesByField(ls []Loss) map[string]Loss {
	out := map[string]Loss{}
	for _, l := range ls {
		out[l.Version+" via "+l.Via+": "+l.Path.String()] = l
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	k := widgetKind(t, widgetCRD(t, nil))
	objs := randomObjects(t, k, 40, 1)
	for _, tc := range []struct {
		name string
		conv *widgetConverter
		want []string
	}{
		{"color is lost", &widgetConverter{}, []string{"v1 via v1beta1: spec.color"}},
		{"color in an annotation", &widgetConverter{keepColor: true}, nil},
		{"a field the schema prunes", &widgetConverter{keepColor: true, extra: true}, nil},
		{"length dropped", &widgetConverter{keepColor: true, dropLength: true}, []string{"v1beta1 via v1: spec.length", "v1 via v1beta1: spec.size"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			losses, fails, _, err := roundTrip(ctx, tc.conv, k, objs, omitEmpty)
			if err != nil || len(fails) > 0 {
				t.Fatalf("err %v, failures %v", err, fails)
			}
			got := lossesByField(losses)
			if len(got) != len(tc.want) {
				t.Errorf("losses %v, want %v", got, tc.want)
			}
			for _, w := range tc.want {
				l, ok := got[w]
				if !ok {
					t.Errorf("no loss %s in %v", w, got)
					continue
				}
				if l.After != absent || l.Before == absent {
					t.Errorf("%s: %s → %s, want a value lost", w, Show(l.Before), Show(l.After))
				}
			}
			if tc.conv.calls == 0 {
				t.Error("the converter was never called")
			}
		})
	}
}

// TestRoundTripIdentity: without a Go encoding (nil) objects are compared
// as they are: the zero values the conversion drops, as omitempty does,
// are then losses too.
func TestRoundTripIdentity(t *testing.T) {
	ctx := context.Background()
	k := widgetKind(t, widgetCRD(t, nil))
	objs := randomObjects(t, k, 40, 1)
	withEnc, _, _, err := roundTrip(ctx, &widgetConverter{keepColor: true}, k, objs, omitEmpty)
	if err != nil || len(withEnc) != 0 {
		t.Fatalf("losses %v, %v; want none as Go clients write Widget", lossesByField(withEnc), err)
	}
	losses, _, _, err := roundTrip(ctx, &widgetConverter{keepColor: true}, k, objs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(losses) == 0 {
		t.Fatal("no loss of a zero value without a Go encoding")
	}
	for _, l := range losses {
		if zero := l.Before == "" || l.Before == int64(0) || l.Before == false; l.After != absent || !zero {
			t.Errorf("%s: %s → %s, want a zero value lost", l.Path, Show(l.Before), Show(l.After))
		}
	}
}

// TestRoundTripIgnoresAddedAnnotations: an annotation a conversion adds
// is how it keeps data, not a loss; one it drops is.
func TestRoundTripAnnotations(t *testing.T) {
	if !addedAnnotation(Diff{Path: Path{{Name: "metadata"}, {Name: "annotations"}}, Before: absent, After: map[string]any{"a": "b"}}) {
		t.Error("added annotations are a loss")
	}
	if !addedAnnotation(Diff{Path: Path{{Name: "metadata"}, {Name: "annotations"}, {Name: "x", Key: true}}, Before: absent, After: "v"}) {
		t.Error("an added annotation is a loss")
	}
	if addedAnnotation(Diff{Path: Path{{Name: "metadata"}, {Name: "annotations"}, {Name: "x", Key: true}}, Before: "v", After: absent}) {
		t.Error("a lost annotation is allowed")
	}
	if addedAnnotation(Diff{Path: Path{{Name: "metadata"}, {Name: "annotations"}}, Before: map[string]any{"a": "b"}, After: map[string]any{"a": "c", "d": "e"}}) {
		t.Error("a changed annotation is allowed")
	}
	if addedAnnotation(Diff{Path: Path{{Name: "spec"}, {Name: "annotations"}}, Before: absent, After: "x"}) {
		t.Error("spec.annotations taken for metadata")
	}
	if !addedAnnotation(Diff{Path: Path{{Name: "metadata"}, {Name: "annotations"}}, Before: map[string]any{"a": "b"}, After: map[string]any{"a": "b", "d": "e"}}) {
		t.Error("annotations that only gained one are a loss")
	}
	if addedAnnotation(Diff{Path: Path{{Name: "metadata"}, {Name: "annotations"}}, Before: map[string]any{"a": "b"}, After: map[string]any{"d": "e"}}) {
		t.Error("a dropped annotation is allowed beside an added one")
	}
	if addedAnnotation(Diff{Path: Path{{Name: "metadata"}, {Name: "annotations"}}, Before: map[string]any{}, After: absent}) {
		t.Error("annotations that came back absent are allowed")
	}
	if addedAnnotation(Diff{Path: Path{{Name: "metadata"}}, Before: absent, After: map[string]any{}}) {
		t.Error("metadata taken for its annotations")
	}
	if addedAnnotation(Diff{Path: Path{{Name: "metadata"}, {Name: "labels"}}, Before: absent, After: map[string]any{"a": "b"}}) {
		t.Error("an added label is allowed")
	}
}

func TestDefaults(t *testing.T) {
	ctx := context.Background()
	setDefault := func(version, field, value string) func(*apiextensionsv1.CustomResourceDefinition) {
		return func(c *apiextensionsv1.CustomResourceDefinition) {
			for i := range c.Spec.Versions {
				v := &c.Spec.Versions[i]
				if v.Name != version {
					continue
				}
				spec := v.Schema.OpenAPIV3Schema.Properties["spec"]
				p := spec.Properties[field]
				if value == "" {
					p.Default = nil
				} else {
					p.Default = &apiextensionsv1.JSON{Raw: []byte(value)}
				}
				spec.Properties[field] = p
				v.Schema.OpenAPIV3Schema.Properties["spec"] = spec
			}
		}
	}
	for _, tc := range []struct {
		name string
		edit func(*apiextensionsv1.CustomResourceDefinition)
		want []string
	}{
		{"mode disagrees", nil, []string{
			`v1 spec.mode: "slow", v1beta1 spec.mode: "fast"`,
			`v1beta1 spec.mode: "fast", v1 spec.mode: "slow"`,
		}},
		{"mode agrees", setDefault("v1beta1", "mode", `"slow"`), nil},
		{"stored at the spoke", func(c *apiextensionsv1.CustomResourceDefinition) {
			// what v1beta1 stores without length is read back without
			// size: v1 defaults 12, but only on create at v1
			setDefault("v1beta1", "mode", `"slow"`)(c)
			for i := range c.Spec.Versions {
				c.Spec.Versions[i].Storage = c.Spec.Versions[i].Name == "v1beta1"
			}
		}, []string{
			`v1 spec.size: 12, v1beta1 spec.length: absent`,
		}},
		{"size disagrees", func(c *apiextensionsv1.CustomResourceDefinition) {
			setDefault("v1beta1", "mode", `"slow"`)(c)
			setDefault("v1beta1", "length", `7`)(c)
		}, []string{
			`v1 spec.size: 12, v1beta1 spec.length: 7`,
			`v1beta1 spec.length: 7, v1 spec.size: 12`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := widgetKind(t, widgetCRD(t, tc.edit))
			// emptyMode: the object created at W has no mode even when
			// the conversion writes an empty one
			ms, fails, err := Defaults(ctx, &widgetConverter{keepColor: true, emptyMode: true}, k, rand.New(rand.NewPCG(1, 0)))
			if err != nil || len(fails) > 0 {
				t.Fatalf("err %v, failures %v", err, fails)
			}
			var got []string
			for _, m := range ms {
				got = append(got, fmt.Sprintf("%s %s: %s, %s %s: %s", m.At, m.Path, Show(m.AtStored), m.Other, m.OtherPath, Show(m.OtherStored)))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("mismatches\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestFailures: objects the webhook refuses are Failures, one by one,
// and the others are still compared; Check makes them one
// conversion-failed finding per pair of versions, with an example.
func TestFailures(t *testing.T) {
	ctx := context.Background()
	k := widgetKind(t, widgetCRD(t, nil))
	conv := &widgetConverter{keepColor: true, refuseOdd: true}
	fs, err := Check(ctx, conv, k, noPositions{}, 40, 1, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var failed, mismatch []Finding
	for _, f := range fs {
		switch f.Rule {
		case RuleFailed:
			failed = append(failed, f)
		case RuleDefaultMismatch:
			mismatch = append(mismatch, f)
		default:
			t.Errorf("unexpected %s", f)
		}
	}
	if len(failed) != 1 || strings.Join(failed[0].Versions, " ") != "v1beta1 v1" || failed[0].JPath != "spec.length" ||
		!regexp.MustCompile(`^the conversion from v1beta1 to v1 fails for [1-9]\d* objects valid at v1beta1, because of this value \(spec\.length: \d+\): odd length \d+; while an object with such a value is stored at v1beta1, every LIST and WATCH of Widget at v1 fails; e\.g\. \{`).MatchString(failed[0].Msg) {
		t.Errorf("conversion-failed findings: %v", failed)
	}
	if len(failed) == 1 {
		obj, _ := failed[0].Values[0].(map[string]any)
		if n, _ := get(obj, Path{{Name: "spec"}, {Name: "length"}}).(int64); n%2 == 0 {
			t.Errorf("the example is not refused: %s", Show(obj))
		}
	}
	if len(mismatch) != 2 {
		t.Errorf("the refusals hid the mode mismatch: %v", mismatch)
	}
}

// noPositions places every finding nowhere, and encodes as Widget's Go
// types do (omitEmpty).
type noPositions struct{}

func (noPositions) field(schema.GroupVersionKind, Path) (*model.Field, bool) { return nil, false }
func (noPositions) typePos(schema.GroupVersionKind) (token.Position, bool) {
	return token.Position{}, false
}
func (noPositions) goEncoding(schema.GroupKind) GoEncoding { return omitEmpty }

// TestShrink: one loss per version, direction and field, with the
// shortest example.
func TestShrink(t *testing.T) {
	p := Path{{Name: "spec"}, {Name: "m"}, {Name: "k1", Key: true}}
	q := Path{{Name: "spec"}, {Name: "m"}, {Name: "k2", Key: true}}
	ls := shrinkLosses([]Loss{
		{Version: "v1", Via: "v2", Diff: Diff{Path: p, Before: "long value", After: absent}},
		{Version: "v1", Via: "v2", Diff: Diff{Path: q, Before: "v", After: absent}},
		{Version: "v2", Via: "v1", Diff: Diff{Path: p, Before: "other", After: absent}},
	})
	if len(ls) != 2 || ls[0].Before != "v" || ls[1].Version != "v2" {
		t.Errorf("%+v", ls)
	}
	// of two as short, the first
	tie := shrinkLosses([]Loss{
		{Version: "v1", Via: "v2", Diff: Diff{Path: p, Before: "ab", After: absent}},
		{Version: "v1", Via: "v2", Diff: Diff{Path: q, Before: "cd", After: absent}},
	})
	if len(tie) != 1 || tie[0].Before != "ab" {
		t.Errorf("of two as short: %+v, want the first", tie)
	}
	if got := p.Field(); got != "spec.m[*]" {
		t.Errorf("Field %s", got)
	}
}

// TestDefaultedPaths: scalars with a default, not spec's default {} (its
// fields' defaults stand for it), not metadata.
func TestDefaultedPaths(t *testing.T) {
	k := widgetKind(t, widgetCRD(t, nil))
	var got []string
	for _, p := range defaultedPaths(k.Versions["v1"].schema, nil) {
		got = append(got, p.String())
	}
	if strings.Join(got, " ") != "spec.mode spec.size" {
		t.Errorf("defaulted paths %v", got)
	}
}

// TestDefaultedPathsShapes: only scalars with a default, at any depth,
// in the order of their names; not an object's or a list's default, not
// what is below a list; the top level's metadata, apiVersion and kind are
// left out, fields of those names below it are not.
func TestDefaultedPathsShapes(t *testing.T) {
	def := func(typ string, v any) structuralschema.Structural {
		s := structuralschema.Structural{Generic: structuralschema.Generic{Type: typ}}
		s.Default.Object = v
		return s
	}
	obj := func(props map[string]structuralschema.Structural) structuralschema.Structural {
		return structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: props}
	}
	list := def("array", []any{})
	item := obj(map[string]structuralschema.Structural{"x": def("string", "a")})
	list.Items = &item
	root := obj(map[string]structuralschema.Structural{
		"apiVersion": def("string", "v"),
		"kind":       def("string", "K"),
		"metadata":   obj(map[string]structuralschema.Structural{"name": def("string", "n")}),
		"spec": func() structuralschema.Structural {
			s := obj(map[string]structuralschema.Structural{
				"kind":   def("string", "inner"),
				"b":      def("integer", int64(1)),
				"a":      def("boolean", true),
				"none":   {Generic: structuralschema.Generic{Type: "string"}},
				"list":   list,
				"nested": obj(map[string]structuralschema.Structural{"deep": def("number", 1.5)}),
			})
			s.Default.Object = map[string]any{}
			return s
		}(),
	})
	var got []string
	for _, p := range defaultedPaths(&root, nil) {
		got = append(got, p.String())
	}
	if want := "spec.a spec.b spec.kind spec.nested.deep"; strings.Join(got, " ") != want {
		t.Errorf("defaulted paths %q, want %q", strings.Join(got, " "), want)
	}
}

// TestCulprit: a refusal is put on the value it depends on, and the
// object without that value still goes round trip; a refusal that no
// single value causes stays on the kind.
func TestCulprit(t *testing.T) {
	ctx := context.Background()
	k := widgetKind(t, widgetCRD(t, nil))
	odd := map[string]any{"apiVersion": "conv.example.com/v1beta1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "default"},
		"spec":     map[string]any{"length": int64(3), "mode": "fast"}}
	conv := &widgetConverter{refuseOdd: true}
	p, value, reduced, ok, err := culprit(ctx, conv, odd, k.Versions["v1"])
	if err != nil || !ok || p.String() != "spec.length" || value != int64(3) {
		t.Fatalf("culprit = %v %v, %v, %v; want spec.length 3", p, value, ok, err)
	}
	if get(reduced, p) != absent || get(reduced, Path{{Name: "spec"}, {Name: "mode"}}) != "fast" {
		t.Errorf("reduced object %s: want only spec.length removed", Show(reduced))
	}
	_, fails, trips, err := roundTrip(ctx, conv, k, map[string][]map[string]any{"v1beta1": {odd}}, omitEmpty)
	if err != nil {
		t.Fatal(err)
	}
	if len(fails) != 1 || fails[0].Path.String() != "spec.length" || trips["v1beta1"] != 1 {
		t.Errorf("round trip of an object refused for its length: %d failures (%v), %d round trips; want 1 at spec.length, and 1 round trip without it", len(fails), fails, trips["v1beta1"])
	}
	// refused whatever the object holds: no culprit
	all := refuseAll{}
	if _, _, _, ok, err := culprit(ctx, all, odd, k.Versions["v1"]); ok || err != nil {
		t.Errorf("culprit of an object refused whatever it holds: ok=%v err=%v, want none", ok, err)
	}
}

// refuseAll refuses every object.
type refuseAll struct{}

func (refuseAll) Convert(context.Context, []map[string]any, string) ([]map[string]any, error) {
	return nil, &RefusedError{Err: fmt.Errorf("no")}
}

// refuseBad refuses an object that holds the string "bad" anywhere.
type refuseBad struct{}

func (refuseBad) Convert(_ context.Context, objs []map[string]any, _ string) ([]map[string]any, error) {
	var has func(v any) bool
	has = func(v any) bool {
		switch v := v.(type) {
		case string:
			return v == "bad"
		case map[string]any:
			for _, x := range v {
				if has(x) {
					return true
				}
			}
		case []any:
			for _, x := range v {
				if has(x) {
					return true
				}
			}
		}
		return false
	}
	for _, o := range objs {
		if has(o) {
			return nil, &RefusedError{Err: fmt.Errorf("bad value")}
		}
	}
	return objs, nil
}

// TestCulpritSeveral: when no single removal helps (two bad values, one of
// them in a list item), culprit still names one of them, and its reduced
// object loses exactly the bad values.
func TestCulpritSeveral(t *testing.T) {
	k := widgetKind(t, widgetCRD(t, nil))
	obj := map[string]any{"apiVersion": "conv.example.com/v1beta1", "kind": "Widget", "metadata": map[string]any{"name": "w"},
		"spec": map[string]any{"a": "bad", "b": "bad", "c": "ok",
			"items": []any{map[string]any{"d": "ok"}, map[string]any{"d": "bad", "e": "ok"}}}}
	p, value, reduced, ok, err := culprit(context.Background(), refuseBad{}, obj, k.Versions["v1"])
	if err != nil || !ok || p.String() != "spec.a" || value != "bad" {
		t.Fatalf("culprit = %v %v, %v, %v; want spec.a bad", p, value, ok, err)
	}
	want := `{"apiVersion":"conv.example.com/v1beta1","kind":"Widget","metadata":{"name":"w"},"spec":{"c":"ok","items":[{"d":"ok"},{"e":"ok"}]}}`
	if got := Show(reduced); got != want {
		t.Errorf("reduced = %s\nwant      %s", got, want)
	}
	if Show(obj) == want {
		t.Error("culprit changed the object it was given")
	}
}

// recorder records the objects each review sends, then converts them with
// its Converter.
type recorder struct {
	Converter
	sent [][]map[string]any
}

func (r *recorder) Convert(ctx context.Context, objs []map[string]any, to string) ([]map[string]any, error) {
	cp := make([]map[string]any, len(objs))
	for i, o := range objs {
		cp[i] = runtime.DeepCopyJSON(o)
	}
	r.sent = append(r.sent, cp)
	return r.Converter.Convert(ctx, objs, to)
}

// editV1Spec changes the properties of v1's spec in a CRD.
func editV1Spec(edit func(props map[string]apiextensionsv1.JSONSchemaProps)) func(*apiextensionsv1.CustomResourceDefinition) {
	return func(c *apiextensionsv1.CustomResourceDefinition) {
		for i := range c.Spec.Versions {
			v := &c.Spec.Versions[i]
			if v.Name != "v1" {
				continue
			}
			spec := v.Schema.OpenAPIV3Schema.Properties["spec"]
			edit(spec.Properties)
			v.Schema.OpenAPIV3Schema.Properties["spec"] = spec
		}
	}
}

// TestCounterpart: the first value tried is the field's default (known
// valid), the second another valid value, never the same one again (mode
// is an enum of two here, so a random value is the default half the
// time); the field where they land at the other version is the
// counterpart.
func TestCounterpart(t *testing.T) {
	ctx := context.Background()
	k := widgetKind(t, widgetCRD(t, editV1Spec(func(props map[string]apiextensionsv1.JSONSchemaProps) {
		mode := props["mode"]
		mode.Enum = []apiextensionsv1.JSON{{Raw: []byte(`"slow"`)}, {Raw: []byte(`"fast"`)}}
		props["mode"] = mode
	})))
	a, w := k.Versions["v1"], k.Versions["v1beta1"]
	p := Path{{Name: "spec"}, {Name: "mode"}}
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 0))
		base, ok := baseObject(ctx, a, p, r)
		if !ok {
			t.Fatalf("seed %d: no base object", seed)
		}
		rec := &recorder{Converter: &widgetConverter{keepColor: true}}
		q, fails, err := counterpart(ctx, rec, a, w, base, p, r)
		if err != nil || len(fails) > 0 || q.String() != "spec.mode" {
			t.Fatalf("seed %d: counterpart %v, %v, %v; want spec.mode", seed, q, fails, err)
		}
		if len(rec.sent) != 1 || len(rec.sent[0]) != 2 {
			t.Fatalf("seed %d: reviews %v, want one of two objects", seed, rec.sent)
		}
		if v0, v1 := get(rec.sent[0][0], p), get(rec.sent[0][1], p); v0 != "slow" || v1 != "fast" {
			t.Errorf("seed %d: values tried %s, %s; want the default slow first, then fast", seed, Show(v0), Show(v1))
		}
	}
}

// TestBaseObject: the field's parents are present even when nothing
// defaults them; when the object is not valid with them (minProperties
// here), there is no base object.
func TestBaseObject(t *testing.T) {
	ctx := context.Background()
	nested := func(minProps *int64) func(*apiextensionsv1.CustomResourceDefinition) {
		return editV1Spec(func(props map[string]apiextensionsv1.JSONSchemaProps) {
			props["nested"] = apiextensionsv1.JSONSchemaProps{Type: "object", MinProperties: minProps,
				Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"deep": {Type: "string", Default: &apiextensionsv1.JSON{Raw: []byte(`"d"`)}},
					"more": {Type: "string"},
				}}
		})
	}
	p := Path{{Name: "spec"}, {Name: "nested"}, {Name: "deep"}}
	k := widgetKind(t, widgetCRD(t, nested(nil)))
	base, ok := baseObject(ctx, k.Versions["v1"], p, rand.New(rand.NewPCG(1, 0)))
	if !ok {
		t.Fatal("no base object")
	}
	if _, isMap := get(base, p[:2]).(map[string]any); !isMap || get(base, p) != absent {
		t.Errorf("base object %s: want spec.nested present, without deep", Show(base))
	}
	two := int64(2)
	k = widgetKind(t, widgetCRD(t, nested(&two)))
	if base, ok := baseObject(ctx, k.Versions["v1"], p, rand.New(rand.NewPCG(1, 0))); ok {
		t.Errorf("base object %s, want none: spec.nested with only its default is refused", Show(base))
	}
}
