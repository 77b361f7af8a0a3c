package conversion

import (
	"context"
	"testing"
)

// TestNonZeroWitness: a field lost whatever its value is shown with a
// non-zero value, not with the 0 that reads as an omitempty matter; a
// field of which only 0 is lost keeps 0, after three non-zero values.
func TestNonZeroWitness(t *testing.T) {
	ctx := context.Background()
	k := widgetKind(t, widgetCRD(t, nil))
	beta := k.Versions["v1beta1"]
	obj, errs := beta.Create(ctx, map[string]any{"apiVersion": beta.APIVersion, "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "default"},
		"spec":     map[string]any{"length": int64(0), "mode": "fast"}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	objs := map[string][]map[string]any{"v1beta1": {obj}}
	for _, tc := range []struct {
		name    string
		conv    *widgetConverter
		nonZero bool
	}{
		// length is dropped on the way to v1, whatever its value
		{"lost whatever its value", &widgetConverter{keepColor: true, dropLength: true}, true},
		// the converter's omitempty loses 0, and only 0 (the Go encoding
		// is not applied here: 0 and absent differ)
		{"only 0 is lost", &widgetConverter{keepColor: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			losses, fails, _, err := roundTrip(ctx, tc.conv, k, objs, nil)
			if err != nil || len(fails) > 0 {
				t.Fatalf("err %v, failures %v", err, fails)
			}
			l, ok := lossesByField(losses)["v1beta1 via v1: spec.length"]
			if !ok || len(losses) != 1 {
				t.Fatalf("losses %v", losses)
			}
			if zeroValue(l.Before) == tc.nonZero || l.After != absent {
				t.Errorf("loss %s → %s, want a non-zero value: %v", Show(l.Before), Show(l.After), tc.nonZero)
			}
			if !sameValue(get(l.Witness, l.Path), l.Before) {
				t.Errorf("the witness %s does not hold %s", Show(l.Witness), Show(l.Before))
			}
			if tc.nonZero {
				return
			}
			// three non-zero values are sent, there and back, and no more
			tc.conv.calls = 0
			same := func(_ string, obj map[string]any) map[string]any { return obj }
			if again, _, err := nonZeroWitness(ctx, tc.conv, k, l, same); err != nil || !zeroValue(again.Before) || tc.conv.calls != 6 {
				t.Errorf("searched again: %s, %d reviews (want 6), %v", Show(again.Before), tc.conv.calls, err)
			}
		})
	}
}
