package conversion

import (
	"context"
	"errors"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
)

// maxCulprits bounds the values culprit removes from one object.
const maxCulprits = 8

// culprit is the value of obj that makes the webhook refuse to convert it
// to version to, so that a refusal is reported at the field whose value
// causes it (a plain string that cluster-api's v1beta1 schema accepts and
// metav1.Duration does not parse), not at the kind, and the object without
// it still goes round trip.
//
// It is found from the top down: at each object or list, the first
// property or item whose removal makes the refusal go away (the object
// converts, or is refused with another error: another value is to blame
// for that one) is followed; when no single removal does, they are
// removed one after the other until it goes away, and the last one
// removed is followed, the earlier ones left out (each of them may be to
// blame too). reduced is obj without that value; while reduced is still
// refused, the culprit of its refusal is taken out of it, at most
// maxCulprits times, so that reduced converts whenever removing values
// can make it. The finding reports the first refusal and its culprit.
//
// ok is false when removals do not help (the refusal does not depend on
// the values, or depends on apiVersion, kind or metadata, which are never
// removed). value is the value at p.
func culprit(ctx context.Context, c Converter, obj map[string]any, to *Version) (p Path, value any, reduced map[string]any, ok bool, err error) {
	// refusal is the webhook's error for o ("" when it converts o)
	refusal := func(o map[string]any) (string, error) {
		_, err := c.Convert(ctx, []map[string]any{o}, to.APIVersion)
		if err == nil {
			return "", nil
		}
		if _, refused := errors.AsType[*RefusedError](err); refused {
			return err.Error(), nil
		}
		return "", err
	}
	reduced = obj
	for range maxCulprits {
		why, err := refusal(reduced)
		if err != nil || why == "" {
			return p, value, reduced, p != nil, err
		}
		// a removal helps when this refusal goes away: the object converts,
		// or is refused for another reason (another value to blame next)
		helps := func(o map[string]any) (bool, error) {
			other, err := refusal(o)
			return other != why, err
		}
		at, found, err := blame(reduced, helps)
		if err != nil || !found {
			return p, value, reduced, p != nil, err
		}
		if p == nil {
			p, value = toPath(at), lookup(reduced, at)
		}
		reduced = runtime.DeepCopyJSON(reduced)
		remove(reduced, at)
	}
	return p, value, reduced, p != nil, nil
}

// blame is the path (property names and list indexes) of the one value of
// obj to follow, as culprit says.
func blame(obj map[string]any, helps func(map[string]any) (bool, error)) ([]any, bool, error) {
	base := obj
	var at []any
	for {
		children := childrenOf(lookup(base, at), len(at) == 0)
		if len(children) == 0 {
			break
		}
		next, without, err := firstHelping(base, at, children, helps)
		if err != nil {
			return nil, false, err
		}
		if next == nil {
			break
		}
		at, base = next, without
	}
	return at, len(at) > 0, nil
}

// firstHelping is the first child of the value at `at` in base whose
// removal lets the conversion through, or, when none alone does, the last
// of those removed one after the other until it does; without is base
// with the children removed before it.
func firstHelping(base map[string]any, at []any, children []any, helps func(map[string]any) (bool, error)) (next []any, without map[string]any, err error) {
	child := func(k any) []any { return append(slices.Clone(at), k) }
	for _, k := range children {
		trial := runtime.DeepCopyJSON(base)
		remove(trial, child(k))
		ok, err := helps(trial)
		if err != nil || ok {
			return child(k), base, err
		}
	}
	// none alone: cumulatively, from the last child (list indexes stay
	// valid when items are removed from the end)
	cur := runtime.DeepCopyJSON(base)
	for i := len(children) - 1; i >= 0; i-- {
		before := runtime.DeepCopyJSON(cur)
		remove(cur, child(children[i]))
		ok, err := helps(cur)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			return child(children[i]), before, nil
		}
	}
	return nil, nil, nil
}

// childrenOf are the property names (sorted) or the item indexes of v;
// at the root, apiVersion, kind and metadata are left out.
func childrenOf(v any, root bool) []any {
	var out []any
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			if root && (k == "apiVersion" || k == "kind" || k == "metadata") {
				continue
			}
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = append(out, k)
		}
	case []any:
		for i := range v {
			out = append(out, i)
		}
	}
	return out
}

// lookup is the value at `at` in obj (nil when there is none).
func lookup(obj any, at []any) any {
	cur := obj
	for _, k := range at {
		switch k := k.(type) {
		case string:
			m, _ := cur.(map[string]any)
			cur = m[k]
		case int:
			l, _ := cur.([]any)
			if k >= len(l) {
				return nil
			}
			cur = l[k]
		}
	}
	return cur
}

// remove deletes the value at `at` from obj: a property, or a list item
// (the list gets shorter).
func remove(obj map[string]any, at []any) {
	if len(at) == 0 {
		return
	}
	parent := lookup(obj, at[:len(at)-1])
	switch k := at[len(at)-1].(type) {
	case string:
		if m, ok := parent.(map[string]any); ok {
			delete(m, k)
		}
	case int:
		l, ok := parent.([]any)
		if !ok || k >= len(l) {
			return
		}
		l = slices.Delete(l, k, k+1)
		// the list lives in its parent: write the shorter one back
		grand := lookup(obj, at[:len(at)-2])
		switch g := at[len(at)-2].(type) {
		case string:
			grand.(map[string]any)[g] = l
		case int:
			grand.([]any)[g] = l
		}
	}
}

// toPath is `at` as a Path: list indexes are items.
func toPath(at []any) Path {
	p := make(Path, 0, len(at))
	for _, k := range at {
		if name, ok := k.(string); ok {
			p = append(p, Seg{Name: name})
		} else {
			p = append(p, Seg{Item: true})
		}
	}
	return p
}
