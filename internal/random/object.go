package random

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
)

// Filler draws random values of a structural schema from Rand. It knows
// the structure and the simple value validations (enum, format, bounds,
// lengths, item counts, minProperties, list sets and maps) and patterns
// (PatternString); what it cannot satisfy (CEL rules, oneOf, a pattern it
// fails to match) the caller drops from the value after validating it
// (conversion's Version.Valid does).
type Filler struct {
	Rand *rand.Rand
	// OnlyRequired leaves out every property that is not required, a
	// map's random keys and an object's labels: the smallest value.
	OnlyRequired bool
}

// Object is a random object of s, of kind at apiVersion, drawn with a
// Filler of r (Filler.Object).
func Object(r *rand.Rand, s *structuralschema.Structural, apiVersion, kind string, namespaced bool, i int) map[string]any {
	return (&Filler{Rand: r}).Object(s, apiVersion, kind, namespaced, i)
}

// Value is a random value of s at the top of a value (depth 0), drawn
// with a Filler of r (Filler.Value).
func Value(r *rand.Rand, s *structuralschema.Structural) any {
	return (&Filler{Rand: r}).Value(s, 0)
}

// maxDepth is the depth below which objects are empty and lists hold their
// minItems only.
const maxDepth = 8

// Object is a random object of the kind at apiVersion: apiVersion, kind,
// metadata.name obj-<i> (and namespace default when namespaced), labels
// one time in three (never with OnlyRequired), and random values for the
// rest of s, the object's schema (its apiVersion, kind and metadata
// properties are not drawn).
func (f *Filler) Object(s *structuralschema.Structural, apiVersion, kind string, namespaced bool, i int) map[string]any {
	obj, _ := f.value(s, 0, true).(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	obj["apiVersion"] = apiVersion
	obj["kind"] = kind
	meta := map[string]any{"name": fmt.Sprintf("obj-%d", i)}
	if namespaced {
		meta["namespace"] = "default"
	}
	if !f.OnlyRequired && f.Rand.IntN(3) == 0 {
		meta["labels"] = map[string]any{"app": f.word()}
	}
	obj["metadata"] = meta
	return obj
}

// Value is a random value of s, which sits depth levels below the top of
// its object (the depth cap, maxDepth levels, counts from there: a value
// deep in an object starts at the depth of its path). s nil is a word.
func (f *Filler) Value(s *structuralschema.Structural, depth int) any {
	return f.value(s, depth, false)
}

// value is a random value of s; root is the top of an object, whose
// apiVersion, kind and metadata Object writes. required fields are always set; others
// with probability one half, so that absent fields, the case defaults are
// about, are common.
func (f *Filler) value(s *structuralschema.Structural, depth int, root bool) any {
	if s == nil {
		return f.word()
	}
	vv := s.ValueValidation
	if vv != nil && len(vv.Enum) > 0 {
		return runtime.DeepCopyJSONValue(vv.Enum[f.Rand.IntN(len(vv.Enum))].Object)
	}
	switch {
	case s.XIntOrString:
		if f.Rand.IntN(2) == 0 {
			return int64(f.Rand.IntN(100))
		}
		return fmt.Sprintf("%d%%", f.Rand.IntN(100))
	case s.XEmbeddedResource:
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": f.word()}}
	}
	switch s.Type {
	case "object":
		return f.objectValue(s, depth, root)
	case "array":
		return f.array(s, depth)
	case "string":
		return f.str(vv)
	case "integer":
		return f.integer(vv)
	case "number":
		return f.number(vv)
	case "boolean":
		return f.Rand.IntN(2) == 0
	}
	// x-kubernetes-preserve-unknown-fields without a type
	return map[string]any{}
}

func (f *Filler) objectValue(s *structuralschema.Structural, depth int, root bool) map[string]any {
	out := map[string]any{}
	if depth > maxDepth {
		return out
	}
	var required []string
	if s.ValueValidation != nil {
		required = s.ValueValidation.Required
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if root && (n == "apiVersion" || n == "kind" || n == "metadata") {
			continue
		}
		if !slices.Contains(required, n) && (f.OnlyRequired || f.Rand.IntN(2) == 0) {
			continue
		}
		p := s.Properties[n]
		out[n] = f.value(&p, depth+1, false)
	}
	// minProperties: add optional properties until there are enough
	if vv := s.ValueValidation; vv != nil && vv.MinProperties != nil && !root {
		for _, n := range names {
			if int64(len(out)) >= *vv.MinProperties {
				break
			}
			if _, ok := out[n]; !ok {
				p := s.Properties[n]
				out[n] = f.value(&p, depth+1, false)
			}
		}
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Structural != nil && len(s.Properties) == 0 && !f.OnlyRequired {
		for range f.Rand.IntN(3) {
			out[f.word()] = f.value(ap.Structural, depth+1, false)
		}
	}
	return out
}

func (f *Filler) array(s *structuralschema.Structural, depth int) []any {
	lo, hi := int64(0), int64(3)
	if vv := s.ValueValidation; vv != nil {
		if vv.MinItems != nil {
			lo = *vv.MinItems
		}
		if vv.MaxItems != nil && *vv.MaxItems < hi {
			hi = *vv.MaxItems
		}
	}
	if hi < lo {
		hi = lo
	}
	if depth > maxDepth {
		hi = lo
	}
	n := lo + f.Rand.Int64N(hi-lo+1)
	out := make([]any, 0, n)
	seen := map[string]bool{}
	for range n {
		v := f.value(s.Items, depth+1, false)
		// list-type set and map: no two items with the same value or key
		if s.XListType != nil && (*s.XListType == "set" || *s.XListType == "map") || s.ValueValidation != nil && s.ValueValidation.UniqueItems {
			k := listKey(v, s)
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, v)
	}
	return out
}

// listKey is what makes an item unique: its map keys, or its value.
func listKey(v any, s *structuralschema.Structural) string {
	if s.XListType != nil && *s.XListType == "map" {
		obj, _ := v.(map[string]any)
		var b strings.Builder
		for _, k := range s.XListMapKeys {
			fmt.Fprintf(&b, "%v|", obj[k])
		}
		return b.String()
	}
	return fmt.Sprintf("%#v", v)
}

const letters = "abcdefghijklmnopqrstuvwxyz"

func (f *Filler) word() string {
	n := 1 + f.Rand.IntN(8)
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[f.Rand.IntN(len(letters))]
	}
	return string(b)
}

func (f *Filler) str(vv *structuralschema.ValueValidation) string {
	if vv != nil && vv.Pattern != "" {
		lo, hi := 0, -1
		if vv.MinLength != nil {
			lo = int(*vv.MinLength)
		}
		if vv.MaxLength != nil {
			hi = int(*vv.MaxLength)
		}
		if s, ok := PatternString(f.Rand, vv.Pattern, lo, hi); ok {
			return s
		}
	}
	if vv != nil {
		switch vv.Format {
		case "date-time":
			return fmt.Sprintf("2026-%02d-%02dT10:00:00Z", 1+f.Rand.IntN(12), 1+f.Rand.IntN(28))
		case "date":
			return fmt.Sprintf("2026-%02d-%02d", 1+f.Rand.IntN(12), 1+f.Rand.IntN(28))
		case "duration":
			return fmt.Sprintf("%ds", f.Rand.IntN(100))
		case "int-or-string":
			return fmt.Sprint(f.Rand.IntN(100))
		case "byte":
			return "aGVsbG8="
		case "uuid":
			return fmt.Sprintf("%08x-0000-4000-8000-%012x", f.Rand.Uint32(), f.Rand.Uint64()&0xffffffffffff)
		case "ipv4", "ip":
			return fmt.Sprintf("10.0.%d.%d", f.Rand.IntN(256), f.Rand.IntN(256))
		case "hostname", "dns1123subdomain":
			return f.word()
		case "ipv6":
			return fmt.Sprintf("fd00::%x", f.Rand.IntN(0xffff))
		case "cidr":
			return fmt.Sprintf("10.%d.0.0/16", f.Rand.IntN(256))
		case "mac":
			return fmt.Sprintf("02:00:00:00:%02x:%02x", f.Rand.IntN(256), f.Rand.IntN(256))
		case "uri":
			return "https://example.com/" + f.word()
		case "email":
			return f.word() + "@example.com"
		case "datetime":
			return fmt.Sprintf("2026-%02d-%02dT10:00:00Z", 1+f.Rand.IntN(12), 1+f.Rand.IntN(28))
		case "uuid3", "uuid4", "uuid5":
			// the version digit is the format's (strfmt.IsUUID3, IsUUID5)
			return fmt.Sprintf("%08x-0000-%c000-8000-%012x", f.Rand.Uint32(), vv.Format[4], f.Rand.Uint64()&0xffffffffffff)
		}
	}
	w := f.word()
	if f.Rand.IntN(8) == 0 {
		w = "" // the empty string, which omitempty loses
	}
	if vv != nil {
		for vv.MinLength != nil && int64(len(w)) < *vv.MinLength {
			w += "a"
		}
		if vv.MaxLength != nil && int64(len(w)) > *vv.MaxLength {
			w = w[:*vv.MaxLength]
		}
	}
	return w
}

func (f *Filler) integer(vv *structuralschema.ValueValidation) int64 {
	lo, hi := int64(-5), int64(100)
	if f.Rand.IntN(5) == 0 {
		lo, hi = 0, 0 // zero, which omitempty loses
	}
	if vv != nil {
		if vv.Minimum != nil {
			m := int64(math.Ceil(*vv.Minimum))
			if vv.ExclusiveMinimum && float64(m) == *vv.Minimum {
				m++
			}
			if lo < m {
				lo = m
			}
			if hi < lo {
				hi = lo + 100
			}
		}
		if vv.Maximum != nil {
			m := int64(math.Floor(*vv.Maximum))
			if vv.ExclusiveMaximum && float64(m) == *vv.Maximum {
				m--
			}
			if hi > m {
				hi = m
			}
			if lo > hi {
				lo = hi - 100
				if vv.Minimum != nil {
					lo = hi
				}
			}
		}
	}
	v := lo + f.Rand.Int64N(hi-lo+1)
	if vv != nil && vv.MultipleOf != nil && *vv.MultipleOf >= 1 {
		m := int64(*vv.MultipleOf)
		v -= (v%m + m) % m // down to a multiple: % keeps the sign of a negative v
		if v < lo && v+m <= hi {
			v += m
		}
	}
	return v
}

func (f *Filler) number(vv *structuralschema.ValueValidation) float64 {
	lo, hi := -5.0, 100.0
	if vv != nil {
		// a range that a minimum or a maximum leaves empty, or one value
		// wide, is moved 100 beyond it
		if vv.Minimum != nil {
			lo = *vv.Minimum
			if hi <= lo {
				hi = lo + 100
			}
		}
		if vv.Maximum != nil {
			hi = *vv.Maximum
			if lo >= hi {
				lo = hi - 100
			}
		}
	}
	// a half: exact in binary, and not an integer
	v := math.Floor(lo+f.Rand.Float64()*(hi-lo)) + 0.5
	if v > hi || (vv != nil && vv.ExclusiveMaximum && v >= hi) {
		v = lo
	}
	return v
}
