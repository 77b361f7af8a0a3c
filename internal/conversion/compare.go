package conversion

import (
	"regexp"
	"slices"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// compare lists where a and b, an object sent and the object back from a
// round trip, both at the version whose structural schema is s, differ as
// the apiserver tells values apart, which is not as JSON does:
//
//   - a list with x-kubernetes-list-type map is a map from its
//     x-kubernetes-list-map-keys to its items (structured-merge-diff's
//     associative list, which server-side apply and the apiserver's
//     validation of list maps key by): the same items in another order
//     are the same list, and an item is compared with the item of the same
//     keys (a Diff at the list's path + [], with the whole item where one
//     side has none);
//   - a list with x-kubernetes-list-type set is a set: the same items in
//     another order are the same list; an item one side lacks is a Diff at
//     the list's path + [];
//   - an empty object or list ({} or [], or an object of only such values)
//     on one side and nothing on the other are the same value unless the
//     schema tells them apart (emptyDistinct);
//   - any other list is atomic: item by item when both have the same
//     length, else as a whole; numbers compare by value (sameValue).
func compare(a, b any, s *structuralschema.Structural, at Path, out *[]Diff) {
	compareIn(a, b, s, at, nil, out)
}

// compareIn is compare with the CEL rules of the objects that hold a and
// b (rules), which may name their properties.
func compareIn(a, b any, s *structuralschema.Structural, at Path, rules []string, out *[]Diff) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok && s != nil {
		rules = append(slices.Clip(rules), ruleTexts(s)...)
		keys := make([]string, 0, len(am)+len(bm))
		for k := range am {
			keys = append(keys, k)
		}
		for k := range bm {
			if _, ok := am[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			seg, sub := Seg{Name: k}, (*structuralschema.Structural)(nil)
			if p, ok := s.Properties[k]; ok {
				sub = &p
			} else if ap := s.AdditionalProperties; ap != nil {
				seg.Key, sub = true, ap.Structural
			}
			av, ain := am[k]
			bv, bin := bm[k]
			p := append(slices.Clone(at), seg)
			switch {
			case !ain:
				if !seg.Key && emptyAsAbsent(bv, sub, k, rules) {
					continue
				}
				*out = append(*out, Diff{Path: p, Before: absent, After: bv})
			case !bin:
				if !seg.Key && emptyAsAbsent(av, sub, k, rules) {
					continue
				}
				*out = append(*out, Diff{Path: p, Before: av, After: absent})
			default:
				compareIn(av, bv, sub, p, rules, out)
			}
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && s != nil {
		item := append(slices.Clone(at), Seg{Item: true})
		switch listType(s) {
		case "map":
			compareListMap(al, bl, s, item, out)
			return
		case "set":
			compareSet(al, bl, item, out)
			return
		}
		if len(al) == len(bl) {
			for i := range al {
				compareIn(al[i], bl[i], s.Items, item, nil, out)
			}
			return
		}
	}
	if !sameValue(a, b) {
		*out = append(*out, Diff{Path: at, Before: a, After: b})
	}
}

func listType(s *structuralschema.Structural) string {
	if s.XListType == nil {
		return ""
	}
	return *s.XListType
}

// compareListMap compares two list maps item by item, by their keys.
func compareListMap(al, bl []any, s *structuralschema.Structural, item Path, out *[]Diff) {
	byKey := func(l []any) (map[string]any, []string) {
		m := map[string]any{}
		var order []string
		for _, v := range l {
			k := mapItemKey(v, s.XListMapKeys)
			if _, dup := m[k]; !dup {
				order = append(order, k)
			}
			m[k] = v
		}
		return m, order
	}
	am, aorder := byKey(al)
	bm, border := byKey(bl)
	for _, k := range aorder {
		if bv, ok := bm[k]; ok {
			compareIn(am[k], bv, s.Items, item, nil, out)
		} else {
			*out = append(*out, Diff{Path: item, Before: am[k], After: absent})
		}
	}
	for _, k := range border {
		if _, ok := am[k]; !ok {
			*out = append(*out, Diff{Path: item, Before: absent, After: bm[k]})
		}
	}
}

// mapItemKey is the identity of a list map's item: the values of its keys
// (an absent key is its own value).
func mapItemKey(v any, keys []string) string {
	obj, _ := v.(map[string]any)
	k := make([]any, len(keys))
	for i, n := range keys {
		if x, ok := obj[n]; ok {
			k[i] = jsonnum.AsDecoded(x)
		} else {
			k[i] = absent
		}
	}
	return Show(k)
}

// compareSet compares two list sets as sets.
func compareSet(al, bl []any, item Path, out *[]Diff) {
	in := func(l []any) map[string]bool {
		m := map[string]bool{}
		for _, v := range l {
			m[Show(jsonnum.AsDecoded(v))] = true
		}
		return m
	}
	as, bs := in(al), in(bl)
	for _, v := range al {
		if !bs[Show(jsonnum.AsDecoded(v))] {
			*out = append(*out, Diff{Path: item, Before: v, After: absent})
		}
	}
	for _, v := range bl {
		if !as[Show(jsonnum.AsDecoded(v))] {
			*out = append(*out, Diff{Path: item, Before: absent, After: v})
		}
	}
}

// emptyAsAbsent says whether v, the value of the property name (schema s)
// of an object held by objects whose CEL rules are rules, is an empty
// value that the apiserver cannot tell from the property's absence: {} or
// [], or an object whose properties all are such values, where no
// emptyDistinct applies at any level.
func emptyAsAbsent(v any, s *structuralschema.Structural, name string, rules []string) bool {
	if s == nil || emptyDistinct(s, name, rules, isEmpty(v)) {
		return false
	}
	switch v := v.(type) {
	case []any:
		return len(v) == 0
	case map[string]any:
		inner := append(slices.Clip(rules), ruleTexts(s)...)
		for k, e := range v {
			p, ok := s.Properties[k]
			if !ok || !emptyAsAbsent(e, &p, k, inner) {
				return false
			}
		}
		return true
	}
	return false
}

// emptyDistinct says whether the schema s of the property name tells an
// empty value ({} or []) from the property's absence, for the apiserver's
// defaulting and validation of that version:
//
//   - nullable: the property is meant to be set or not;
//   - minProperties or minItems above 0, for a value that is itself {} or
//     []: an empty value is invalid, absence is not (an object of only
//     empty values, {"deprecated":{}} under minProperties 1, is judged by
//     its properties);
//   - a default on the property: an absent property is defaulted, an
//     empty one is not;
//   - for an object, a default on one of its properties: defaulting fills
//     it into {}, not into an absent object;
//   - a CEL rule (x-kubernetes-validations) of an enclosing object whose
//     text names the property (has(self.name), self.name): the rule sees
//     the difference.
//
// A CEL rule of the property itself is no difference: it runs on the
// empty value, which was valid, and not on an absent one.
func emptyDistinct(s *structuralschema.Structural, name string, rules []string, empty bool) bool {
	if s.Nullable || s.Default.Object != nil {
		return true
	}
	if vv := s.ValueValidation; vv != nil && empty {
		if vv.MinProperties != nil && *vv.MinProperties > 0 || vv.MinItems != nil && *vv.MinItems > 0 {
			return true
		}
	}
	for _, p := range s.Properties {
		if p.Default.Object != nil {
			return true
		}
	}
	if len(rules) > 0 {
		named := regexp.MustCompile(`(^|[^A-Za-z0-9_$])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_$])`)
		for _, r := range rules {
			if named.MatchString(r) {
				return true
			}
		}
	}
	return false
}

// isEmpty says whether v is {} or [].
func isEmpty(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// ruleTexts are the rules and message expressions of s's CEL rules.
func ruleTexts(s *structuralschema.Structural) []string {
	var out []string
	for _, r := range s.XValidations {
		out = append(out, r.Rule)
		if r.MessageExpression != "" {
			out = append(out, r.MessageExpression)
		}
	}
	return out
}
