// Package mutants makes mutants of an object, the ones a user writes by
// mistake (a property deleted, required ones included; a key misspelt),
// and compares the apiserver's verdicts on an object under two CRDs of the
// same kind (Create, Compare). The acceptance test (real API modules) and
// internal/testsupport/randapitest's TestRuleOfThumb (random API packages) use it to check
// that controller-gen-default's CRD accepts exactly the objects that its
// crd:implicitDefaults=false CRD (controller-gen's) accepts, and refuses
// the others at the same fields.
package mutants

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"unicode"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
)

// Prop is one property of an object, where a mutant can delete or misspell
// it: the path of its parent value and its key.
type Prop struct {
	Parent []any // string keys and int indexes from the root to the map that holds Key
	Key    string
	// Required says that the parent's schema lists Key in required.
	Required bool
	// Site is the schema node the property is at: its path with list
	// items written [*] and the keys of a map (additionalProperties) *.
	Site string
	// NewDefault says that the other schema (controller-gen-default's)
	// gives the property a default that the reference schema
	// (controller-gen's) does not give it (or another one).
	NewDefault bool
}

// String is the property's path as field.Path writes it: spec.a[0].b, and
// spec.m[key] for a key of a map.
func (p Prop) String() string { return pathString(append(slices.Clone(p.Parent), p.Key), nil) }

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

// Props lists the properties of obj below its root's apiVersion, kind and
// metadata, depth first in key order, with whether each is required by
// the reference schema s (controller-gen's), and whether the other schema
// o (controller-gen-default's) defaults it otherwise (either nil where obj
// has values it does not know).
func Props(obj map[string]any, s, o *structuralschema.Structural) []Prop {
	var out []Prop
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
				sub, osub := Property(s, k), Property(o, k)
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
				out = append(out, Prop{Parent: slices.Clone(path), Key: k, Site: step, Required: required, NewDefault: odef != nil && !reflect.DeepEqual(def, odef)})
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

// Property is the schema of s's property k: of its properties, else of
// its additionalProperties; nil if none.
func Property(s *structuralschema.Structural, k string) *structuralschema.Structural {
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

// parentMap is the map at p.Parent in obj, or nil.
func parentMap(obj map[string]any, p Prop) map[string]any {
	var cur any = obj
	for _, s := range p.Parent {
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

// Without is obj without p (a copy); ok is false when obj does not have it.
func Without(obj map[string]any, p Prop) (map[string]any, bool) {
	out := runtime.DeepCopyJSON(obj)
	m := parentMap(out, p)
	if _, ok := m[p.Key]; m == nil || !ok {
		return nil, false
	}
	delete(m, p.Key)
	return out, true
}

// Misspelt is obj with p's key lowercased (a copy); ok is false when the
// key has no upper-case letter, or obj does not have it, or the lowercased
// key is taken.
func Misspelt(obj map[string]any, p Prop) (map[string]any, string, bool) {
	return misspeltAs(obj, p, strings.ToLower(p.Key))
}

// misspeltAs is obj with p's key renamed lower (a copy); ok is false when
// lower is the key, or obj does not have it, or lower is taken.
func misspeltAs(obj map[string]any, p Prop, lower string) (map[string]any, string, bool) {
	if lower == p.Key {
		return nil, "", false
	}
	out := runtime.DeepCopyJSON(obj)
	m := parentMap(out, p)
	if m == nil {
		return nil, "", false
	}
	v, ok := m[p.Key]
	if _, taken := m[lower]; !ok || taken {
		return nil, "", false
	}
	m[lower] = v
	delete(m, p.Key)
	return out, lower, true
}

// Delete is obj without one to three of its properties ps (Props of obj):
// the first a required one half of the time (when obj has one), the
// others any. It returns the paths deleted; none when obj has no property
// to delete.
func Delete(r *rand.Rand, obj map[string]any, ps []Prop) (map[string]any, []string) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := runtime.DeepCopyJSON(obj)
	var required []Prop
	for _, p := range ps {
		if p.Required {
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
		if _, ok := m[p.Key]; !ok {
			continue
		}
		delete(m, p.Key)
		deleted = append(deleted, p.String())
	}
	return out, deleted
}

// Misspell is obj with one key of ps (Props of obj) that has an upper-case
// letter lowercased (nominalQuota → nominalquota), at any depth; ok is
// false when obj has none (or every lowercased key is taken).
func Misspell(r *rand.Rand, obj map[string]any, ps []Prop) (out map[string]any, from, to string, ok bool) {
	var cands []Prop
	for _, p := range ps {
		if strings.IndexFunc(p.Key, unicode.IsUpper) >= 0 {
			cands = append(cands, p)
		}
	}
	for len(cands) > 0 {
		i := r.IntN(len(cands))
		p := cands[i]
		cands = slices.Delete(cands, i, i+1)
		if out, to, ok := Misspelt(obj, p); ok {
			return out, p.String(), to, true
		}
	}
	return nil, "", "", false
}

// Recased is obj with p's key misspelt by its case (a copy): lowercased
// when it has an upper-case letter (as Misspelt), else with its first
// letter upper-cased (replicas → Replicas). ok is false when the key has
// no letter to change, or obj does not have it, or the new key is taken.
func Recased(obj map[string]any, p Prop) (map[string]any, string, bool) {
	if strings.IndexFunc(p.Key, unicode.IsUpper) >= 0 {
		return Misspelt(obj, p)
	}
	r := []rune(p.Key)
	if len(r) == 0 || !unicode.IsLower(r[0]) {
		return nil, "", false
	}
	r[0] = unicode.ToUpper(r[0])
	return misspeltAs(obj, p, string(r))
}

// MisspellAny is Misspell over every key of ps that Recased can misspell:
// one with an upper-case letter lowercased, or one that starts with a
// lower-case letter capitalized. For APIs whose keys are mostly one
// lower-case word.
func MisspellAny(r *rand.Rand, obj map[string]any, ps []Prop) (out map[string]any, from, to string, ok bool) {
	cands := slices.Clone(ps)
	for len(cands) > 0 {
		i := r.IntN(len(cands))
		p := cands[i]
		cands = slices.Delete(cands, i, i+1)
		if out, to, ok := Recased(obj, p); ok {
			return out, p.String(), to, true
		}
	}
	return nil, "", "", false
}
