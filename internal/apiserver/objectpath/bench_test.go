package objectpath

import (
	"context"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// benchCases are a small CRD (KEP-1929 "Struct pointers") and a large one
// that embeds corev1.PodTemplateSpec (testdata/api/workload), each with an
// object of its kind.
var benchCases = []struct {
	name, golden, object string
}{
	{"small", "structpointers.kep.example.com_structpointers.yaml",
		`{"apiVersion":"structpointers.kep.example.com/v1","kind":"StructPointer","metadata":{"name":"a","namespace":"default","labels":{"app":"x"}},"spec":{"entry":{"name":"n"},"unknown":1}}`},
	{"large", "workload.example.com_workloads.yaml", `{"apiVersion":"workload.example.com/v1","kind":"Workload",
"metadata":{"name":"a","namespace":"default","labels":{"app":"web"}},
"spec":{"replicas":3,"template":{"metadata":{"labels":{"app":"web"}},"spec":{
 "containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80},{"containerPort":443,"name":"https"}],
   "env":[{"name":"A","value":"1"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],
   "resources":{"limits":{"cpu":"1","memory":"512Mi"},"requests":{"cpu":"100m"}},
   "readinessProbe":{"httpGet":{"path":"/healthz","port":80},"periodSeconds":5},
   "volumeMounts":[{"name":"data","mountPath":"/data"}]},
  {"name":"sidecar","image":"busybox","command":["sh","-c","sleep 3600"],"unknownField":true}],
 "volumes":[{"name":"data","emptyDir":{}},{"name":"cfg","configMap":{"name":"cfg","items":[{"key":"a","path":"a"}]}}],
 "affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname","labelSelector":{"matchLabels":{"app":"web"}}}}]}},
 "tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}]}}}}`},
}

func benchSetup(b *testing.B, golden, object string) (*Pipeline, *structuralschema.Structural, map[string]any) {
	b.Helper()
	crds, err := crdcheck.LoadCRDs("../../../testdata/golden/" + golden)
	if err != nil || len(crds) != 1 {
		b.Fatalf("load %s: %v", golden, err)
	}
	p, err := New(crds[0], "v1")
	if err != nil {
		b.Fatal(err)
	}
	obj, err := jsonnum.DecodeObject([]byte(object))
	if err != nil {
		b.Fatal(err)
	}
	if res := p.Normalize(context.Background(), obj); len(res.Errors) > 0 {
		b.Fatalf("benchmark object is invalid: %v", res.Errors.ToAggregate())
	}
	return p, p.structural, obj
}

// BenchmarkDeepCopyJSON is the yardstick: the CRD-defaulting KEP wants
// defaulting "considerably faster than a deep copy".
func BenchmarkDeepCopyJSON(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			_, _, obj := benchSetup(b, c.golden, c.object)
			b.ReportAllocs()
			for b.Loop() {
				_ = runtime.DeepCopyJSON(obj)
			}
		})
	}
}

// BenchmarkCopyPruneDefault is a deep copy followed by what the decoder
// does to it: prune, drop non-nullable nulls, default. Subtract
// BenchmarkDeepCopyJSON for prune+default alone (bench.sh does).
func BenchmarkCopyPruneDefault(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			_, s, obj := benchSetup(b, c.golden, c.object)
			b.ReportAllocs()
			for b.Loop() {
				o := runtime.DeepCopyJSON(obj)
				structuralpruning.PruneWithOptions(o, s, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
				structuraldefaulting.PruneNonNullableNullsWithoutDefaults(o, s)
				structuraldefaulting.Default(o, s)
			}
		})
	}
}

// BenchmarkPipeline is the whole of Normalize: copy, prune, nulls,
// metadata, defaulting and validation (OpenAPI, CEL, list types, metadata).
func BenchmarkPipeline(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			p, _, obj := benchSetup(b, c.golden, c.object)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				_ = p.Normalize(ctx, obj)
			}
		})
	}
}
