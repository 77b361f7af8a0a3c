package conversion

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// Converter converts objects of one kind to another version with the
// API's own Go conversions, as its conversion webhook does
// (controller-runtime's conversion.NewWebhookHandler over the API's scheme).
type Converter interface {
	// Convert converts objs, each at its apiVersion, to toAPIVersion, in
	// one ConversionReview; an error fails the whole review, as the
	// webhook's answer does.
	Convert(ctx context.Context, objs []map[string]any, toAPIVersion string) ([]map[string]any, error)
}

// RefusedError is a conversion the webhook refused (its ConvertTo or
// ConvertFrom returned an error): a Failure of the object, where any other
// error of a Converter ends the run.
type RefusedError struct {
	Err error
	// Died: the converter exited or hung on the object (it is started
	// again), so no value it depends on is searched for (culprit): each
	// try would cost a restart or a timeout.
	Died bool
}

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// Failure is an object whose conversion the webhook refuses.
type Failure struct {
	From, To string // versions
	Object   map[string]any
	Err      error
	// Path is where the value of Object the refusal depends on lies
	// (culprit), Value that value, and Reduced is Object without it (and
	// without the other values it had to lose to convert); Path is nil
	// when removing values does not help.
	Path    Path
	Value   any
	Reduced map[string]any
}

// convert converts objs, at version from, to version to, as the apiserver
// does (customresource_handler.go, the conversion of a request's object to
// the storage version and of a stored object to the request's version):
//
//   - to the same version, the objects as they are: the apiserver does not
//     call the webhook for them (conversion.webhookConverter.Convert);
//   - otherwise the webhook, after which the apiserver keeps the original
//     metadata apart from labels and annotations (webhook_converter.go,
//     restoreObjectMeta), and prunes with the target version's schema
//     (schemaCoercingConverter; Coerce).
//
// A review the webhook refuses is retried object by object; the objects it
// refuses alone are Failures, and have a nil result.
func convert(ctx context.Context, c Converter, objs []map[string]any, from, to *Version) ([]map[string]any, []Failure, error) {
	if from == to {
		out := make([]map[string]any, len(objs))
		for i, o := range objs {
			out[i] = runtime.DeepCopyJSON(o)
		}
		return out, nil, nil
	}
	if len(objs) == 0 {
		return nil, nil, nil
	}
	res, err := c.Convert(ctx, objs, to.APIVersion)
	if err != nil {
		if _, refused := errors.AsType[*RefusedError](err); !refused {
			return nil, nil, fmt.Errorf("converting %s from %s to %s: %w", from.Kind, from.Name, to.Name, err)
		}
		res = make([]map[string]any, len(objs))
		var fails []Failure
		for i, o := range objs {
			one, err := c.Convert(ctx, []map[string]any{o}, to.APIVersion)
			if err == nil && len(one) == 1 {
				res[i] = one[0]
				continue
			}
			if _, refused := errors.AsType[*RefusedError](err); err != nil && !refused {
				return nil, nil, fmt.Errorf("converting %s from %s to %s: %w", from.Kind, from.Name, to.Name, err)
			}
			if err == nil {
				err = fmt.Errorf("%d objects back for 1", len(one))
			}
			f := Failure{From: from.Name, To: to.Name, Object: o, Err: err}
			// the value a refusal depends on (not searched for a
			// converter that died)
			if re, _ := errors.AsType[*RefusedError](err); re == nil || !re.Died {
				p, value, reduced, ok, cerr := culprit(ctx, c, o, to)
				if cerr != nil {
					return nil, nil, fmt.Errorf("converting %s from %s to %s: %w", from.Kind, from.Name, to.Name, cerr)
				}
				if ok {
					f.Path, f.Value, f.Reduced = p, value, reduced
				}
			}
			fails = append(fails, f)
		}
		return finish(objs, res, to), fails, nil
	}
	if len(res) != len(objs) {
		return nil, nil, fmt.Errorf("converting %d %s objects from %s to %s: %d objects back", len(objs), from.Kind, from.Name, to.Name, len(res))
	}
	return finish(objs, res, to), nil, nil
}

// finish restores the metadata and prunes, as convert says.
func finish(objs, res []map[string]any, to *Version) []map[string]any {
	out := make([]map[string]any, len(res))
	for i, r := range res {
		if r == nil {
			continue
		}
		r, _ = jsonnum.AsDecoded(r).(map[string]any)
		r = restoreObjectMeta(objs[i], r)
		out[i] = to.Coerce(r)
	}
	return out
}

// restoreObjectMeta is the apiserver's restoreObjectMeta
// (k8s.io/apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go):
// the converted object gets the original's metadata, with the labels and
// annotations the webhook returned.
func restoreObjectMeta(original, converted map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(converted)
	meta, _ := runtime.DeepCopyJSONValue(original["metadata"]).(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	cm, _ := converted["metadata"].(map[string]any)
	for _, k := range []string{"labels", "annotations"} {
		if v, ok := cm[k]; ok && v != nil {
			meta[k] = runtime.DeepCopyJSONValue(v)
		} else {
			delete(meta, k)
		}
	}
	out["metadata"] = meta
	return out
}
