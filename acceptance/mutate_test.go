package acceptance

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
)

// prop is one property of an object, where a mutant can delete or misspell
// it: the path of its parent value and its key.
type prop struct {
	parent []any // string keys and int indexes from the root to the map that holds key
	key    string
	// required says that the parent's schema lists key in required.
	required bool
	// site is the schema node the property is at: its path with list
	// items written [*] and the keys of a map (additionalProperties) *.
	site string
	// newDefault says that controller-gen-default's schema gives the
	// property a default that controller-gen's does not give it (or
	// another one).
	newDefault bool
}

// String is the property's path as field.Path writes it: spec.a[0].b, and
// spec.m[key] for a key of a map.
func (p prop) String() string { return pathString(append(slices.Clone(p.parent), p.key), nil) }

// pathString writes a path; mapKeys says which of its string steps are keys
// of a map (additionalProperties), written [key].
func pathString(path []any, mapKeys map[int]bool) string {
	var b strings.Builder
	for i, s := range path {
		switch s := s.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		case string:
			if mapKeys[i] {
				fmt.Fprintf(&b, "[%s]", s)
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

// props lists the properties of obj below its root's apiVersion, kind and
// metadata, depth first in key order, with whether each is required by
// controller-gen's schema s, and whether controller-gen-default's schema o
// defaults it otherwise (either nil where obj has values it does not
// know).
func props(obj map[string]any, s, o *structuralschema.Structural) []prop {
	var out []prop
	var walk func(v any, s, o *structuralschema.Structural, path []any, site string)
	walk = func(v any, s, o *structuralschema.Structural, path []any, site string) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if len(path) == 0 && (k == "apiVersion" || k == "kind" || k == "metadata") {
					continue
				}
				sub, osub := property(s, k), property(o, k)
				required := s != nil && s.ValueValidation != nil && slices.Contains(s.ValueValidation.Required, k)
				var def, odef any
				if sub != nil {
					def = sub.Default.Object
				}
				if osub != nil {
					odef = osub.Default.Object
				}
				step := k
				if s != nil && s.AdditionalProperties != nil {
					if _, ok := s.Properties[k]; !ok {
						step = "*"
					}
				}
				if site != "" {
					step = site + "." + step
				}
				out = append(out, prop{parent: slices.Clone(path), key: k, site: step, required: required, newDefault: odef != nil && !reflect.DeepEqual(def, odef)})
				walk(v[k], sub, osub, append(path, k), step)
			}
		case []any:
			var items, oitems *structuralschema.Structural
			if s != nil {
				items = s.Items
			}
			if o != nil {
				oitems = o.Items
			}
			for i, e := range v {
				walk(e, items, oitems, append(path, i), site+"[*]")
			}
		}
	}
	walk(obj, s, o, nil, "")
	return out
}

// property is the schema of s's property k: of its properties, else of
// its additionalProperties; nil if none.
func property(s *structuralschema.Structural, k string) *structuralschema.Structural {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[k]; ok {
		return &p
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Structural
	}
	return nil
}

// parentMap is the map at p.parent in obj, or nil.
func parentMap(obj map[string]any, p prop) map[string]any {
	var cur any = obj
	for _, s := range p.parent {
		switch s := s.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil
			}
			cur = m[s]
		case int:
			l, ok := cur.([]any)
			if !ok || s >= len(l) {
				return nil
			}
			cur = l[s]
		}
	}
	m, _ := cur.(map[string]any)
	return m
}

// without is obj without p (a copy); ok is false when obj does not have it.
func without(obj map[string]any, p prop) (map[string]any, bool) {
	out := runtime.DeepCopyJSON(obj)
	m := parentMap(out, p)
	if _, ok := m[p.key]; m == nil || !ok {
		return nil, false
	}
	delete(m, p.key)
	return out, true
}

// misspelt is obj with p's key lowercased (a copy); ok is false when the
// key has no upper-case letter, or obj does not have it, or the lowercased
// key is taken.
func misspelt(obj map[string]any, p prop) (map[string]any, string, bool) {
	lower := strings.ToLower(p.key)
	if lower == p.key {
		return nil, "", false
	}
	out := runtime.DeepCopyJSON(obj)
	m := parentMap(out, p)
	if m == nil {
		return nil, "", false
	}
	v, ok := m[p.key]
	if _, taken := m[lower]; !ok || taken {
		return nil, "", false
	}
	m[lower] = v
	delete(m, p.key)
	return out, lower, true
}

// deleteMutant is obj without one to three of its properties: the first a
// required one half of the time (when obj has one), the others any. It
// returns the paths deleted; none when obj has no property to delete.
func deleteMutant(r *rand.Rand, obj map[string]any, ps []prop) (map[string]any, []string) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := runtime.DeepCopyJSON(obj)
	var required []prop
	for _, p := range ps {
		if p.required {
			required = append(required, p)
		}
	}
	n := 1 + r.IntN(3)
	var deleted []string
	for i := range n {
		p := ps[r.IntN(len(ps))]
		if i == 0 && len(required) > 0 && r.IntN(2) == 0 {
			p = required[r.IntN(len(required))]
		}
		m := parentMap(out, p)
		if m == nil {
			continue // inside a property deleted before
		}
		if _, ok := m[p.key]; !ok {
			continue
		}
		delete(m, p.key)
		deleted = append(deleted, p.String())
	}
	return out, deleted
}

// misspellMutant is obj with one key that has an upper-case letter
// lowercased (nominalQuota → nominalquota), at any depth; ok is false when
// obj has none (or every lowercased key is taken).
func misspellMutant(r *rand.Rand, obj map[string]any, ps []prop) (out map[string]any, from, to string, ok bool) {
	var cands []prop
	for _, p := range ps {
		if strings.IndexFunc(p.key, unicode.IsUpper) >= 0 {
			cands = append(cands, p)
		}
	}
	for len(cands) > 0 {
		i := r.IntN(len(cands))
		p := cands[i]
		cands = slices.Delete(cands, i, i+1)
		if out, to, ok := misspelt(obj, p); ok {
			return out, p.String(), to, true
		}
	}
	return nil, "", "", false
}

func TestMutants(t *testing.T) {
	s := &structuralschema.Structural{
		Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{
			"spec": {
				Generic: structuralschema.Generic{Type: "object"},
				Properties: map[string]structuralschema.Structural{
					"quotas": {
						Generic: structuralschema.Generic{Type: "array"},
						Items: &structuralschema.Structural{
							Generic: structuralschema.Generic{Type: "object"},
							Properties: map[string]structuralschema.Structural{
								"name":         {Generic: structuralschema.Generic{Type: "string"}},
								"nominalQuota": {Generic: structuralschema.Generic{Type: "integer"}},
							},
							ValueValidation: &structuralschema.ValueValidation{Required: []string{"name", "nominalQuota"}},
						},
					},
					"labels": {
						Generic:              structuralschema.Generic{Type: "object"},
						AdditionalProperties: &structuralschema.StructuralOrBool{Structural: &structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}},
					},
				},
			},
		},
	}
	obj := map[string]any{
		"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "a"},
		"spec": map[string]any{
			"quotas": []any{map[string]any{"name": "cpu", "nominalQuota": int64(1)}},
			"labels": map[string]any{"Team": "x"},
		},
	}
	// ours: nominalQuota defaulted "0"
	o := s.DeepCopy()
	q := o.Properties["spec"].Properties["quotas"].Items.Properties["nominalQuota"]
	q.Default.Object = "0"
	o.Properties["spec"].Properties["quotas"].Items.Properties["nominalQuota"] = q
	ps := props(obj, s, o)
	var got []string
	for _, p := range ps {
		got = append(got, fmt.Sprintf("%s %v %v", p, p.required, p.newDefault))
	}
	want := []string{"spec false false", "spec.labels false false", "spec.labels.Team false false", "spec.quotas false false",
		"spec.quotas[0].name true false", "spec.quotas[0].nominalQuota true true"}
	if !slices.Equal(got, want) {
		t.Errorf("props = %q, want %q", got, want)
	}

	r := rand.New(rand.NewPCG(1, 2))
	sawRequired := false
	for range 50 {
		m, deleted := deleteMutant(r, obj, ps)
		if len(deleted) == 0 || len(deleted) > 3 {
			t.Fatalf("deleted %q", deleted)
		}
		for _, d := range deleted {
			sawRequired = sawRequired || strings.HasPrefix(d, "spec.quotas[0].")
		}
		if _, ok := m["metadata"]; !ok {
			t.Fatal("metadata deleted")
		}
	}
	if !sawRequired {
		t.Error("no mutant deleted a required property")
	}
	if _, ok := obj["spec"].(map[string]any)["quotas"].([]any)[0].(map[string]any)["nominalQuota"]; !ok {
		t.Error("deleteMutant changed its input")
	}

	if got := ps[5].site; got != "spec.quotas[*].nominalQuota" {
		t.Errorf("site = %q", got)
	}
	if got := ps[2].site; got != "spec.labels.*" {
		t.Errorf("site = %q", got)
	}
	if got := requiredNewDefaults(s, o, ""); !slices.Equal(got, []string{"spec.quotas[*].nominalQuota"}) {
		t.Errorf("requiredNewDefaults = %q", got)
	}
	if m, ok := without(obj, ps[5]); !ok || len(m["spec"].(map[string]any)["quotas"].([]any)[0].(map[string]any)) != 1 {
		t.Errorf("without nominalQuota: %v %v", m, ok)
	}
	if m, to, ok := misspelt(obj, ps[5]); !ok || to != "nominalquota" || m["spec"].(map[string]any)["quotas"].([]any)[0].(map[string]any)["nominalquota"] != int64(1) {
		t.Errorf("nominalQuota misspelt: %v %q %v", m, to, ok)
	}
	if _, _, ok := misspelt(obj, ps[4]); ok {
		t.Error("name misspelt")
	}

	seen := map[string]bool{}
	for range 50 {
		m, from, to, ok := misspellMutant(r, obj, ps)
		if !ok {
			t.Fatal("no misspelt mutant")
		}
		seen[from+" "+to] = true
		if from == "spec.quotas[0].nominalQuota" {
			q := m["spec"].(map[string]any)["quotas"].([]any)[0].(map[string]any)
			if _, ok := q["nominalquota"]; !ok || q["nominalQuota"] != nil {
				t.Errorf("misspelt: %v", q)
			}
		}
	}
	if !seen["spec.quotas[0].nominalQuota nominalquota"] || !seen["spec.labels.Team team"] || len(seen) != 2 {
		t.Errorf("misspelt %v", seen)
	}
}
