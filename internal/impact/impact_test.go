package impact

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsfeatures "k8s.io/apiextensions-apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

func loadCRDs(t *testing.T, paths ...string) []*apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	crds, err := crdcheck.LoadCRDs(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return crds
}

func analyzer(t *testing.T, old []string, new ...string) *Analyzer {
	t.Helper()
	a, err := New(context.Background(), loadCRDs(t, old...), loadCRDs(t, new...))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// readInputs reads the objects of each file (- is stdin) as the command
// does (eachInput).
func readInputs(files []string, stdin io.Reader) ([]Input, error) {
	var out []Input
	for _, f := range files {
		err := eachInput(f, stdin, func(in Input) error {
			out = append(out, in)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// records analyzes testdata/objects.yaml and returns its records by name.
func records(t *testing.T, a *Analyzer, file string) map[string]*Record {
	t.Helper()
	inputs, err := readInputs([]string{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Record{}
	for _, in := range inputs {
		r, err := a.Object(context.Background(), in.Object)
		if err != nil {
			t.Fatalf("%s: %v", in.Source, err)
		}
		out[r.Name] = r
	}
	return out
}

func spec(obj map[string]any) map[string]any {
	s, _ := obj["spec"].(map[string]any)
	return s
}

// TestCategories is a table of what happens to each object of
// testdata/objects.yaml when old.yaml is replaced by new.yaml (each change
// is described at the top of new.yaml).
func TestCategories(t *testing.T) {
	recs := records(t, analyzer(t, []string{"testdata/old.yaml"}, "testdata/new.yaml"), "testdata/objects.yaml")
	for _, tc := range []struct {
		name, why  string
		categories []string
		added      []string
		removed    []string
		// readSpec, when set, is a field of the spec read under NEW and its
		// value.
		readSpec []any
		fails    bool
	}{
		{name: "plain", why: "default added: an object stored without color reads it from NEW's new default",
			categories: []string{GainsDefaults}, added: []string{"spec.color"}},
		{name: "plain", why: "default changed: size was stored with OLD's default (M), which a changed default does not rewrite",
			categories: []string{GainsDefaults}, readSpec: []any{"size", "M"}},
		{name: "plain", why: "default removed: replicas was stored with OLD's default (1), and stays",
			categories: []string{GainsDefaults}, readSpec: []any{"replicas", int64(1)}},
		{name: "explicit", why: "values set explicitly are not touched by default changes",
			categories: []string{Unchanged}},
		{name: "legacy", why: "field removed: NEW prunes spec.legacy on read; the next write loses it",
			categories: []string{LosesFields}, removed: []string{"spec.legacy"}, fails: true},
		{name: "enum-tightened", why: "enum tightened: the no-op update ratchets; a change is refused",
			categories: []string{HeldByRatcheting}},
		{name: "minimum-raised", why: "minimum raised: the no-op update ratchets; a change is refused",
			categories: []string{HeldByRatcheting}},
		{name: "invalid-under-old", why: "OLD itself refuses mode Z",
			categories: []string{InvalidUnderOld, HeldByRatcheting}, fails: true},
		{name: "negative-replicas", why: "NEW's scale subresource refuses a negative spec.replicas on every update: scale checks do not ratchet",
			categories: []string{RefusedOnUpdate}, fails: true},
		{name: "beta", why: "version no longer served: read at v1, NEW's storage version",
			categories: []string{VersionNotServed, StorageVersionChanged}, fails: true},
		{name: "stable", why: "storage version changed: the object stays stored as v1beta1 until its next write",
			categories: []string{Unchanged, StorageVersionChanged}},
	} {
		t.Run(tc.name+": "+tc.why, func(t *testing.T) {
			r := recs[tc.name]
			if r == nil {
				t.Fatalf("no record for %s", tc.name)
			}
			if !slices.Equal(r.Categories, tc.categories) {
				t.Errorf("categories %v, want %v", r.Categories, tc.categories)
			}
			if tc.added != nil && !slices.Equal(r.Changes.Added, tc.added) {
				t.Errorf("added %v, want %v", r.Changes.Added, tc.added)
			}
			if tc.removed != nil && !slices.Equal(r.Changes.Removed, tc.removed) {
				t.Errorf("removed %v, want %v", r.Changes.Removed, tc.removed)
			}
			if tc.readSpec != nil {
				if got := spec(r.Read)[tc.readSpec[0].(string)]; got != tc.readSpec[1] {
					t.Errorf("read spec.%s = %#v, want %#v", tc.readSpec[0], got, tc.readSpec[1])
				}
			}
			if r.Fails != tc.fails {
				t.Errorf("Fails() = %v, want %v", r.Fails, tc.fails)
			}
		})
	}
	if r := recs["beta"]; r.ReadVersion != "v1" || r.Read["apiVersion"] != "impact.example.com/v1" {
		t.Errorf("beta read at %s as %v, want v1", r.ReadVersion, r.Read["apiVersion"])
	}
}

// TestRatcheting checks that the strategy put calls ratchets: NEW refuses
// mode C and port 80 when written, yet the no-op update of an object that
// holds them is accepted, and an update that changes either is refused.
// Without ratcheting (CRDValidationRatcheting is GA and locked on since
// Kubernetes 1.33) the no-op update would be refused.
func TestRatcheting(t *testing.T) {
	if !utilfeature.DefaultFeatureGate.Enabled(apiextensionsfeatures.CRDValidationRatcheting) {
		t.Fatal("CRDValidationRatcheting is off")
	}
	recs := records(t, analyzer(t, []string{"testdata/old.yaml"}, "testdata/new.yaml"), "testdata/objects.yaml")
	for name, want := range map[string]struct{ field, value, refusal string }{
		"enum-tightened": {"spec.mode", `"Cx"`, `spec.mode: Unsupported value: "Cx": supported values: "A", "B"`},
		"minimum-raised": {"spec.port", `79`, `spec.port: Invalid value: 79: spec.port in body should be greater than or equal to 1024`},
	} {
		r := recs[name]
		if r.Update == nil || r.Update.Refused {
			t.Errorf("%s: the no-op update is refused: %+v", name, r.Update)
		}
		if len(r.Ratcheted) != 1 || r.Ratcheted[0].Problem.Field != want.field {
			t.Fatalf("%s: held by ratcheting %+v, want %s", name, r.Ratcheted, want.field)
		}
		touch := r.Ratcheted[0].Touch
		if touch == nil || touch.Path != want.field || len(touch.Problems) != 1 || touch.Problems[0].String() != want.refusal {
			t.Errorf("%s: touch %+v, want %s refused with %q", name, touch, want.value, want.refusal)
		}
	}
}

func TestListOfStoredObjects(t *testing.T) {
	a := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new.yaml")
	inputs, err := readInputs([]string{"testdata/list.yaml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 2 || inputs[0].Source != "testdata/list.yaml:1:1" || inputs[1].Source != "testdata/list.yaml:1:2" {
		t.Fatalf("inputs %+v, want the List's two items", inputs)
	}
	recs := records(t, a, "testdata/list.yaml")
	dumped := recs["dumped"]
	// The status, which a create drops under the status subresource, is
	// written through /status, as its controller wrote it.
	if phase, _ := dumped.Stored["status"].(map[string]any)["phase"]; phase != "Legacy" {
		t.Errorf("stored status %v, want phase Legacy", dumped.Stored["status"])
	}
	if !slices.Equal(dumped.Categories, []string{HeldByRatcheting}) || len(dumped.Ratcheted) != 1 {
		t.Fatalf("dumped: categories %v, ratcheted %+v", dumped.Categories, dumped.Ratcheted)
	}
	if touch := dumped.Ratcheted[0].Touch; touch == nil || touch.Subresource != "status" || len(touch.Problems) == 0 {
		t.Errorf("status.phase Legacy: touch %+v, want refused through /status", touch)
	}
	if r := recs["ready"]; !slices.Equal(r.Categories, []string{Unchanged}) {
		t.Errorf("ready: categories %v", r.Categories)
	}
}

func TestObjectWithoutCRD(t *testing.T) {
	a := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new.yaml")
	for _, obj := range []map[string]any{
		{"apiVersion": "impact.example.com/v1", "kind": "Sprocket", "metadata": map[string]any{"name": "x"}},
		{"apiVersion": "impact.example.com/v2", "kind": "Widget", "metadata": map[string]any{"name": "x"}},
	} {
		if _, err := a.Object(context.Background(), obj); !errors.Is(err, ErrNoCRD) {
			t.Errorf("%v: error %v, want ErrNoCRD", obj, err)
		}
	}
}

func TestCRDFindings(t *testing.T) {
	t.Run("removed CRD", func(t *testing.T) {
		a := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new-removed.yaml")
		r := records(t, a, "testdata/objects.yaml")["stable"]
		if !slices.Equal(r.Categories, []string{CRDRemoved}) || !r.Fails || r.Read != nil {
			t.Errorf("categories %v, read %v", r.Categories, r.Read)
		}
	})
	t.Run("refused CRD update", func(t *testing.T) {
		a := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new-removed.yaml", "testdata/new-refused.yaml")
		var refused *Finding
		for _, f := range a.Findings() {
			if f.Rule == FindingUpdateRefused {
				refused = &f
			}
		}
		if refused == nil || refused.CRD != "gadgets.impact.example.com" || len(refused.Problems) != 1 ||
			!strings.Contains(refused.Problems[0].String(), `status.storedVersions[0]: Invalid value: "v1beta1": missing from spec.versions`) {
			t.Fatalf("findings %+v", a.Findings())
		}
		r := records(t, a, "testdata/objects.yaml")["stable"]
		if !slices.Equal(r.Categories, []string{CRDUpdateRefused}) || !r.Fails {
			t.Errorf("categories %v", r.Categories)
		}
	})
	t.Run("conflicting CRDs", func(t *testing.T) {
		old := loadCRDs(t, "testdata/old.yaml")
		other := old[0].DeepCopy()
		other.Spec.Versions[0].Schema.OpenAPIV3Schema.Description = "another"
		_, err := New(context.Background(), old, append(loadCRDs(t, "testdata/new.yaml"), other))
		var conflict *crdcheck.CRDConflictError
		if !errors.As(err, &conflict) || !strings.HasPrefix(err.Error(), "NEW: ") || !strings.Contains(err.Error(), old[0].Name) {
			t.Errorf("error %v, want NEW's conflict naming %s", err, old[0].Name)
		}
		a, err := New(context.Background(), append(old, old[0].DeepCopy()), loadCRDs(t, "testdata/new.yaml"))
		if err != nil || len(a.oldOrder) != len(old) {
			t.Errorf("an identical copy: %v, %d CRDs of OLD, want %d", err, len(a.oldOrder), len(old))
		}
	})
	t.Run("invalid CRD", func(t *testing.T) {
		_, err := New(context.Background(), loadCRDs(t, "testdata/old.yaml"), loadCRDs(t, "../apiserver/objectpath/testdata/badcrd.yaml"))
		var invalid *InvalidCRDError
		if !errors.As(err, &invalid) || invalid.Side != "NEW" {
			t.Errorf("error %v, want an invalid NEW CRD", err)
		}
	})
}

// TestUndecodable: an object whose metadata OLD cannot decode (a 400 on
// create) is invalid under OLD, and nothing after step 1 runs.
func TestUndecodable(t *testing.T) {
	a := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new.yaml")
	r, err := a.Object(context.Background(), map[string]any{"apiVersion": "impact.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "x", "labels": int64(5)}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Categories, []string{InvalidUnderOld}) || !r.Fails || r.Read != nil || r.Update != nil ||
		len(r.InvalidUnderOld) != 1 || !strings.Contains(r.InvalidUnderOld[0].String(), "the apiserver cannot decode the object") {
		t.Errorf("record %+v", r)
	}
}

// TestRatchetingBlocksCEL: when NEW has CEL rules, a schema error that
// blocks them (a tightened enum) comes with the strategy's "some validation
// rules were not checked" error. That error is no value held by
// ratcheting of its own: the enum is, and the touch's refusal lists the
// enum first.
func TestRatchetingBlocksCEL(t *testing.T) {
	newCRDs := loadCRDs(t, "testdata/new.yaml")
	for _, c := range newCRDs {
		if c.Spec.Names.Kind == "Widget" {
			spec := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
			spec.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.size != 'XL'"}}
			c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = spec
		}
	}
	a, err := New(context.Background(), loadCRDs(t, "testdata/old.yaml"), newCRDs)
	if err != nil {
		t.Fatal(err)
	}
	r := records(t, a, "testdata/objects.yaml")["enum-tightened"]
	if len(r.Ratcheted) != 1 || r.Ratcheted[0].Problem.Field != "spec.mode" {
		t.Fatalf("held by ratcheting %+v, want spec.mode alone", r.Ratcheted)
	}
	touch := r.Ratcheted[0].Touch
	if touch == nil || len(touch.Problems) != 2 || touch.Problems[0].Field != "spec.mode" || !touch.Problems[1].notChecked() {
		t.Errorf("touch %+v, want the enum, then the rules not checked", touch)
	}
}

// TestNamespacesAsKubectlSendsThem: a cluster-scoped object that carries
// a namespace (kustomize's namespace: sets it on every object) is stored
// without it, as the apiserver stores it, and is not refused; a
// namespaced object without one goes to Analyzer.Namespace.
func TestNamespacesAsKubectlSendsThem(t *testing.T) {
	things := "../apiserver/objectpath/testdata/crds/clusterthings.yaml"
	a := analyzer(t, []string{things}, things)
	r, err := a.Object(context.Background(), map[string]any{"apiVersion": "example.com/v2", "kind": "ClusterThing",
		"metadata": map[string]any{"name": "a", "namespace": "kustomized"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Categories, []string{Unchanged}) || r.Namespace != "" || r.Stored["metadata"].(map[string]any)["namespace"] != nil {
		t.Errorf("categories %v, namespace %q, stored %v", r.Categories, r.Namespace, r.Stored["metadata"])
	}
	w := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new.yaml")
	w.Namespace, w.ExplicitNamespace = "team", true
	widget := func(meta map[string]any) map[string]any {
		return map[string]any{"apiVersion": "impact.example.com/v1", "kind": "Widget", "metadata": meta, "spec": map[string]any{"color": "red"}}
	}
	if r, err := w.Object(context.Background(), widget(map[string]any{"name": "a"})); err != nil || r.Namespace != "team" {
		t.Errorf("namespace %q, error %v", r.Namespace, err)
	}
	if _, err := w.Object(context.Background(), widget(map[string]any{"name": "a", "namespace": "prod"})); !errors.Is(err, ErrNamespace) {
		t.Errorf("error %v, want ErrNamespace", err)
	}
}

// TestUpdateTooLargeForEtcd: an object that OLD stores close to etcd's
// limit, and that NEW's defaults make larger, has its no-op update refused
// by etcd.
func TestUpdateTooLargeForEtcd(t *testing.T) {
	things := "../apiserver/objectpath/testdata/crds/clusterthings.yaml"
	newCRDs := loadCRDs(t, things)
	for _, c := range newCRDs {
		for i := range c.Spec.Versions {
			spec := c.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"]
			spec.Properties["note"] = apiextensionsv1.JSONSchemaProps{Type: "string",
				Default: &apiextensionsv1.JSON{Raw: []byte(`"` + strings.Repeat("n", 2000) + `"`)}}
			c.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"] = spec
		}
	}
	a, err := New(context.Background(), loadCRDs(t, things), newCRDs)
	if err != nil {
		t.Fatal(err)
	}
	obj := func(n int) map[string]any {
		return map[string]any{"apiVersion": "example.com/v2", "kind": "ClusterThing", "metadata": map[string]any{"name": "a"},
			"spec": map[string]any{"data": strings.Repeat("x", n)}}
	}
	// 1,571,500 bytes of data are stored under OLD, with NEW's 2,000-byte default they are not
	r, err := a.Object(context.Background(), obj(1_571_500))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.InvalidUnderOld) > 0 || r.Update == nil || !r.Update.Refused || len(r.Update.Problems) != 1 ||
		r.Update.Problems[0].Message != "etcdserver: request is too large" || !slices.Contains(r.Categories, RefusedOnUpdate) {
		t.Errorf("record: invalid under OLD %v, update %+v, categories %v", r.InvalidUnderOld, r.Update, r.Categories)
	}
	r, err = a.Object(context.Background(), obj(1_580_000))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.InvalidUnderOld) != 1 || r.InvalidUnderOld[0].Message != "etcdserver: request is too large" {
		t.Errorf("invalid under OLD %v", r.InvalidUnderOld)
	}
	r, err = a.Object(context.Background(), obj(3_200_000))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.InvalidUnderOld) != 1 || r.InvalidUnderOld[0].Message != "Request entity too large: limit is 3145728" || r.Read != nil {
		t.Errorf("invalid under OLD %v, read %v", r.InvalidUnderOld, r.Read != nil)
	}
}

// TestGenerateName: an object created with generateName and no name is
// stored under a generated name, which its update carries: with OLD and
// NEW the same, it is unchanged, not refused on update for want of a name.
func TestGenerateName(t *testing.T) {
	a := analyzer(t, []string{"testdata/new.yaml"}, "testdata/new.yaml")
	r, err := a.Object(context.Background(), map[string]any{"apiVersion": "impact.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"generateName": "w-", "namespace": "default"}, "spec": map[string]any{"color": "red"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Categories, []string{Unchanged}) {
		t.Errorf("categories %v, want unchanged; update %+v", r.Categories, r.Update)
	}
}

// TestNewOnly: an object at a version that only NEW serves (a version NEW
// adds, or a CRD NEW adds) was not stored before the change: it is created
// under NEW, new-only, and fails only if NEW refuses it; an object of a
// group no CRD has, or at a version neither serves, stays ErrNoCRD.
func TestNewOnly(t *testing.T) {
	a := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new-grown.yaml")
	inputs, err := readInputs([]string{"testdata/new-only.yaml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*Record
	for _, in := range inputs {
		r, err := a.Object(context.Background(), in.Object)
		if err != nil {
			t.Fatalf("%s: %v, want a record", in.Source, err)
		}
		recs = append(recs, r)
	}
	if r := recs[0]; !slices.Equal(r.Categories, []string{NewOnly}) || r.Fails || len(r.InvalidUnderNew) > 0 || r.CRD != "widgets.impact.example.com" || r.Namespace != "default" {
		t.Errorf("Widget v2 next: %+v", r)
	}
	if r := recs[1]; !slices.Equal(r.Categories, []string{NewOnly, InvalidUnderNew}) || !r.Fails || len(r.InvalidUnderNew) != 1 ||
		r.InvalidUnderNew[0].String() != `spec.mode: Unsupported value: "C": supported values: "A", "B"` {
		t.Errorf("Widget v2 next-invalid: categories %v, fails %v, problems %v", r.Categories, r.Fails, r.InvalidUnderNew)
	}
	if r := recs[2]; !slices.Equal(r.Categories, []string{NewOnly}) || r.Fails || r.CRD != "sprockets.impact.example.com" || r.GenerateName != "sprocket-" || r.objectName() != "default/sprocket-… (generateName)" {
		t.Errorf("Sprocket: %+v", r)
	}
	if r := recs[3]; !slices.Equal(r.Categories, []string{Unchanged}) || r.NewOnly {
		t.Errorf("Widget v1 stored: categories %v", r.Categories)
	}
	for _, obj := range []map[string]any{
		{"apiVersion": "impact.example.com/v3", "kind": "Widget", "metadata": map[string]any{"name": "x"}},
		{"apiVersion": "other.example.com/v1", "kind": "Sprocket", "metadata": map[string]any{"name": "x"}},
	} {
		if _, err := a.Object(context.Background(), obj); !errors.Is(err, ErrNoCRD) {
			t.Errorf("%v: error %v, want ErrNoCRD", obj, err)
		}
	}
}

// TestStoredKeepsResourceVersion: a dump's resourceVersion, which kubectl
// would clear before a create (KubectlRequest), is the stored object's, as
// the apiserver holds it: taken out of the create under OLD and put back.
func TestStoredKeepsResourceVersion(t *testing.T) {
	a := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new.yaml")
	r := records(t, a, "testdata/list.yaml")["dumped"]
	if rv := r.Stored["metadata"].(map[string]any)["resourceVersion"]; rv != "4242" {
		t.Errorf("stored resourceVersion %v, want the dump's 4242", rv)
	}
}
