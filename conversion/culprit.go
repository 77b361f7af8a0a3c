package conversion

import (
	"context"
	"errors"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
)

// culprit is the value of obj that makes the webhook refuse to convert it
// to version to: the deepest property whose removal lets the conversion
// through, found by removing one property at a time, from the top down,
// and following the first removal that helps. A refusal is then reported
// at the field whose value causes it (a plain string that cluster-api's
// v1beta1 schema accepts and metav1.Duration does not parse), not at the
// kind, and the object without that value still goes round trip.
//
// ok is false when no single removal helps (the refusal does not depend
// on one value, or on apiVersion, kind or metadata, which are never
// removed). reduced is obj without the value at p.
func culprit(ctx context.Context, c Converter, obj map[string]any, to *Version) (p Path, reduced map[string]any, ok bool, err error) {
	converts := func(o map[string]any) (bool, error) {
		_, err := c.Convert(ctx, []map[string]any{o}, to.APIVersion)
		if err == nil {
			return true, nil
		}
		if _, refused := errors.AsType[*RefusedError](err); refused {
			return false, nil
		}
		return false, err
	}
	var at Path
	for {
		node, isMap := get(obj, at).(map[string]any)
		if !isMap {
			break
		}
		keys := make([]string, 0, len(node))
		for k := range node {
			if len(at) == 0 && (k == "apiVersion" || k == "kind" || k == "metadata") {
				continue
			}
			keys = append(keys, k)
		}
		slices.Sort(keys)
		found := false
		for _, k := range keys {
			next := append(slices.Clone(at), Seg{Name: k})
			trial := runtime.DeepCopyJSON(obj)
			del(trial, next)
			ok, err := converts(trial)
			if err != nil {
				return nil, nil, false, err
			}
			if ok {
				at, reduced, found = next, trial, true
				break
			}
		}
		if !found {
			break
		}
	}
	return at, reduced, len(at) > 0, nil
}
