package conversion

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// convFunc is a Converter made of a function.
type convFunc func(objs []map[string]any) ([]map[string]any, error)

func (f convFunc) Convert(_ context.Context, objs []map[string]any, _ string) ([]map[string]any, error) {
	return f(objs)
}

// TestConvertErrors: an error that is no refusal ends the run, naming the
// kind and versions; so does a review that returns another number of
// objects; a refused object that comes back as two objects is a Failure
// that says so; an object the converter died on is a Failure with no
// value to blame (culprit is not searched).
func TestConvertErrors(t *testing.T) {
	ctx := context.Background()
	k := widgetKind(t, widgetCRD(t, nil))
	v1, beta := k.Versions["v1"], k.Versions["v1beta1"]
	obj := map[string]any{"apiVersion": beta.APIVersion, "kind": "Widget", "metadata": map[string]any{"name": "w"},
		"spec": map[string]any{"length": int64(3)}}
	objs := []map[string]any{obj, obj}
	if _, _, err := convert(ctx, convFunc(func([]map[string]any) ([]map[string]any, error) { return nil, errors.New("boom") }),
		objs, beta, v1); err == nil || err.Error() != "converting Widget from v1beta1 to v1: boom" {
		t.Errorf("a converter's error: %v", err)
	}
	if _, _, err := convert(ctx, convFunc(func(o []map[string]any) ([]map[string]any, error) { return o[:1], nil }),
		objs, beta, v1); err == nil || !strings.Contains(err.Error(), "2 Widget objects from v1beta1 to v1: 1 objects back") {
		t.Errorf("one object back for two: %v", err)
	}
	// refused together, then each comes back as two objects
	two := convFunc(func(o []map[string]any) ([]map[string]any, error) {
		if len(o) > 1 {
			return nil, &RefusedError{Err: errors.New("no")}
		}
		return []map[string]any{o[0], o[0]}, nil
	})
	res, fails, err := convert(ctx, two, objs, beta, v1)
	if err != nil || len(fails) != 2 || fails[0].Err.Error() != "2 objects back for 1" || res[0] != nil || res[1] != nil {
		t.Errorf("two objects back for one: %v, %v, %v", res, fails, err)
	}
	// one converted, one the converter died on
	died := convFunc(func(o []map[string]any) ([]map[string]any, error) {
		if len(o) > 1 || o[0]["spec"] == nil {
			return nil, &RefusedError{Err: errors.New("exited"), Died: true}
		}
		return []map[string]any{{"apiVersion": v1.APIVersion, "kind": "Widget", "spec": map[string]any{"size": int64(3)}}}, nil
	})
	res, fails, err = convert(ctx, died, []map[string]any{obj, {"apiVersion": beta.APIVersion, "kind": "Widget"}}, beta, v1)
	if err != nil || len(fails) != 1 || fails[0].Path != nil || fails[0].Err.Error() != "exited" || res[0] == nil || res[1] != nil {
		t.Errorf("a converter that died: %v, %v, %v", res, fails, err)
	}
	if n := get(res[0], Path{{Name: "spec"}, {Name: "size"}}); n != int64(3) {
		t.Errorf("converted %s", Show(res[0]))
	}
}

// TestRestoreObjectMeta: the converted object keeps the original's
// metadata, but for the labels and annotations the webhook returned (none
// when it returned none, or null).
func TestRestoreObjectMeta(t *testing.T) {
	orig := map[string]any{"metadata": map[string]any{"name": "w", "namespace": "ns", "labels": map[string]any{"a": "1"},
		"annotations": map[string]any{"x": "1"}}}
	conv := map[string]any{"spec": map[string]any{}, "metadata": map[string]any{"name": "other", "labels": map[string]any{"b": "2"},
		"annotations": nil}}
	got := Show(restoreObjectMeta(orig, conv))
	if want := `{"metadata":{"labels":{"b":"2"},"name":"w","namespace":"ns"},"spec":{}}`; got != want {
		t.Errorf("restored %s, want %s", got, want)
	}
	got = Show(restoreObjectMeta(map[string]any{}, conv))
	if want := `{"metadata":{"labels":{"b":"2"}},"spec":{}}`; got != want {
		t.Errorf("restored without metadata %s, want %s", got, want)
	}
}
