package objectpath

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// TestPipelineDecodesLikeACreateRequest: steps 1 to 3 run as for a create
// request (unstructuredNegotiatedSerializer.DecoderToVersion), where
// metadata that does not decode into ObjectMeta is a 400, not silently
// dropped as on the storage read path.
func TestPipelineDecodesLikeACreateRequest(t *testing.T) {
	const embedded = "type: object\nproperties:\n  spec:\n    type: object\n    default: {}\n    properties:\n      size:\n        type: string\n        default: M\n      object:\n        type: object\n        x-kubernetes-embedded-resource: true\n        x-kubernetes-preserve-unknown-fields: true\n"
	for _, tc := range []struct {
		name, object string
		wantErr      string // "" for a valid object
		wantPruned   string
		wantSpec     string // the stored spec, when the object decodes
	}{
		{name: "root labels that are not a map are a decode error",
			object:  `{"metadata":{"name":"x","namespace":"default","labels":5}}`,
			wantErr: "metadata: Invalid value: the apiserver cannot decode the object"},
		{name: "embedded metadata that is not ObjectMeta is a decode error",
			object:  `{"metadata":{"name":"x","namespace":"default"},"spec":{"object":{"apiVersion":"v1","kind":"A","metadata":{"labels":5}}}}`,
			wantErr: "spec.object.metadata: Invalid value"},
		{name: "unknown metadata fields, at the root and embedded, are pruned and reported",
			object:     `{"metadata":{"name":"x","namespace":"default","garbage":1},"spec":{"object":{"apiVersion":"v1","kind":"A","metadata":{"name":"y","junk":2}}}}`,
			wantPruned: "metadata.garbage,spec.object.metadata.junk",
			wantSpec:   `{"size":"M","object":{"apiVersion":"v1","kind":"A","metadata":{"name":"y"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(exampleCRD(embedded), "v1")
			if err != nil {
				t.Fatal(err)
			}
			obj := decodeOne(t, tc.object)
			obj["apiVersion"], obj["kind"] = "seeds.example.com/v1", "Example"
			before, _ := json.Marshal(obj)
			res := p.Normalize(context.Background(), obj)
			if after, _ := json.Marshal(obj); string(after) != string(before) {
				t.Errorf("Normalize changed its input:\n%s\n%s", before, after)
			}
			if got := res.Errors.ToAggregate(); (tc.wantErr == "") != (got == nil) || (got != nil && !strings.Contains(got.Error(), tc.wantErr)) {
				t.Fatalf("errors %v, want %q", got, tc.wantErr)
			}
			if tc.wantErr != "" {
				if spec, _ := res.Object["spec"].(map[string]any); spec["size"] != nil {
					t.Errorf("an object the apiserver cannot decode was defaulted: %v", res.Object)
				}
				return
			}
			if got := strings.Join(res.Pruned, ","); got != tc.wantPruned {
				t.Errorf("pruned %s, want %s", got, tc.wantPruned)
			}
			spec, _ := json.Marshal(res.Object["spec"])
			if !jsonEqual(t, spec, []byte(tc.wantSpec)) {
				t.Errorf("stored spec %s, want %s", spec, tc.wantSpec)
			}
		})
	}
}

func decodeOne(t *testing.T, s string) map[string]any {
	t.Helper()
	var objs []map[string]any
	for o, err := range manifest.All("test", strings.NewReader(s)) {
		if err != nil {
			t.Fatalf("decode %s: %v", s, err)
		}
		objs = append(objs, o.Object)
	}
	if len(objs) != 1 {
		t.Fatalf("decode %s: %d objects", s, len(objs))
	}
	return objs[0]
}
