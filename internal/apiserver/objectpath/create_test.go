package objectpath

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

// pipelineFor is the pipeline of one version of a testdata CRD.
func pipelineFor(t testing.TB, kind, version string) *Pipeline {
	t.Helper()
	crds, err := crdcheck.LoadCRDs("testdata/crds")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range crds {
		if c.Spec.Names.Kind == kind {
			p, err := New(c, version)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatalf("no CRD for %s", kind)
	return nil
}

func clusterThing(meta map[string]any) map[string]any {
	return map[string]any{"apiVersion": "example.com/v2", "kind": "ClusterThing", "metadata": meta, "spec": map[string]any{"data": "x"}}
}

func structPointer(meta map[string]any) map[string]any {
	return map[string]any{"apiVersion": "structpointers.kep.example.com/v1", "kind": "StructPointer", "metadata": meta}
}

func metaOf(obj map[string]any) map[string]any {
	m, _ := obj["metadata"].(map[string]any)
	return m
}

// TestNamespaces: the create handler and rest.BeforeCreate call
// rest.EnsureObjectNamespaceMatchesRequestNamespace, which clears the
// namespace of a cluster-scoped object and sets the request's on a
// namespaced object that has none.
func TestNamespaces(t *testing.T) {
	ctx := context.Background()
	cluster, namespaced := pipelineFor(t, "ClusterThing", "v2"), pipelineFor(t, "StructPointer", "v1")
	t.Run("a cluster-scoped object is stored without its namespace", func(t *testing.T) {
		res := cluster.Normalize(ctx, clusterThing(map[string]any{"name": "a", "namespace": "kustomized"}))
		if len(res.Errors) > 0 || res.Refused != nil {
			t.Fatalf("errors %v, refused %v", res.Errors, res.Refused)
		}
		if _, ok := metaOf(res.Object)["namespace"]; ok {
			t.Errorf("stored with a namespace: %v", res.Object["metadata"])
		}
		// the URL of a cluster-scoped kind has no namespace: the request's is not used
		res = cluster.Create(ctx, clusterThing(map[string]any{"name": "a", "namespace": "kustomized"}), Request{Namespace: "team"})
		if _, ok := metaOf(res.Object)["namespace"]; ok || res.Refused != nil || len(res.Errors) > 0 {
			t.Errorf("with a request namespace: metadata %v, refused %v, errors %v", res.Object["metadata"], res.Refused, res.Errors)
		}
	})
	t.Run("a namespaced object without one is created in the request's", func(t *testing.T) {
		res := namespaced.Create(ctx, structPointer(map[string]any{"name": "a"}), Request{Namespace: "team"})
		if ns := metaOf(res.Object)["namespace"]; ns != "team" || len(res.Errors) > 0 {
			t.Errorf("namespace %v, errors %v", ns, res.Errors)
		}
	})
	t.Run("an object in another namespace than the request's is refused (400)", func(t *testing.T) {
		res := namespaced.Create(ctx, structPointer(map[string]any{"name": "a", "namespace": "one"}), Request{Namespace: "two"})
		if res.Refused == nil || !apierrors.IsBadRequest(res.Refused) ||
			res.Refused.Error() != "the namespace of the provided object does not match the namespace sent on the request" {
			t.Errorf("refused %v", res.Refused)
		}
	})
	t.Run("kubectl: the object's namespace, else -n, else default", func(t *testing.T) {
		for _, tc := range []struct {
			own, flag string
			explicit  bool
			want, err string
		}{
			{"", "default", false, "default", ""},
			{"", "team", true, "team", ""},
			{"own", "default", false, "own", ""},
			{"own", "own", true, "own", ""},
			{"own", "team", true, "", `the namespace from the provided object "own" does not match the namespace "team". You must pass '--namespace=own' to perform this operation.`},
		} {
			meta := map[string]any{"name": "a"}
			if tc.own != "" {
				meta["namespace"] = tc.own
			}
			sent, req, err := namespaced.KubectlRequest(structPointer(meta), tc.flag, tc.explicit)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("%+v: error %v, want %q", tc, err, tc.err)
				}
				continue
			}
			if err != nil || req.Namespace != tc.want || metaOf(sent)["namespace"] != tc.want {
				t.Errorf("%+v: request %+v, sent %v, error %v", tc, req, sent["metadata"], err)
			}
			if tc.own == "" && metaOf(structPointer(meta))["namespace"] != nil {
				t.Errorf("KubectlRequest changed its input")
			}
		}
		// cluster-scoped objects are sent as they are, to no namespace
		sent, req, err := cluster.KubectlRequest(clusterThing(map[string]any{"name": "a", "namespace": "x"}), "team", true)
		if err != nil || req.Namespace != "" || metaOf(sent)["namespace"] != "x" {
			t.Errorf("cluster-scoped: request %+v, sent %v, error %v", req, sent["metadata"], err)
		}
	})
}

// TestServerSetMetadata: the create handler wipes what the server sets
// (rest.WipeObjectMetaSystemFields), the storage refuses a resourceVersion,
// and a name generated from generateName is validated but not shown.
func TestServerSetMetadata(t *testing.T) {
	ctx := context.Background()
	p := pipelineFor(t, "ClusterThing", "v2")
	t.Run("uid, creationTimestamp and deletionTimestamp are wiped", func(t *testing.T) {
		res := p.Normalize(ctx, clusterThing(map[string]any{"name": "a", "uid": "1b4e28ba-2fa1-11d2-883f-0016d3cca427",
			"creationTimestamp": "2026-01-02T03:04:05Z", "deletionTimestamp": "2026-01-02T03:04:05Z"}))
		if m := metaOf(res.Object); len(res.Errors) > 0 || res.Refused != nil || !reflect.DeepEqual(m, map[string]any{"name": "a", "generation": int64(1)}) {
			t.Errorf("metadata %v, errors %v, refused %v", m, res.Errors, res.Refused)
		}
	})
	t.Run("a resourceVersion is refused by the storage; kubectl clears it first", func(t *testing.T) {
		// the body as it is (curl, kubectl create --raw): the storage refuses it
		res := p.Create(ctx, clusterThing(map[string]any{"name": "a", "resourceVersion": "4242"}), Request{})
		if res.Refused == nil || res.Refused.Status().Code != 500 || res.Refused.Error() != "resourceVersion should not be set on objects to be created" {
			t.Errorf("refused %v", res.Refused)
		}
		// kubectl create -f sends it without (resource.Helper.CreateWithOptions,
		// modify true): a kubectl get -o yaml dump is created
		in := clusterThing(map[string]any{"name": "a", "resourceVersion": "4242"})
		sent, _, err := p.KubectlRequest(in, "default", false)
		if err != nil || metaOf(sent)["resourceVersion"] != nil || metaOf(in)["resourceVersion"] != "4242" {
			t.Errorf("KubectlRequest: sent %v (input %v), error %v", sent["metadata"], in["metadata"], err)
		}
		res = p.Normalize(ctx, clusterThing(map[string]any{"name": "a", "resourceVersion": "4242"}))
		if res.Refused != nil || len(res.Errors) > 0 || metaOf(res.Object)["resourceVersion"] != nil {
			t.Errorf("kubectl's create of a dump: refused %v, errors %v, metadata %v", res.Refused, res.Errors, res.Object["metadata"])
		}
		// a resourceVersion kubectl cannot read as a string is sent as it is
		if sent, _, _ := p.KubectlRequest(clusterThing(map[string]any{"name": "a", "resourceVersion": int64(4242)}), "default", false); metaOf(sent)["resourceVersion"] != int64(4242) {
			t.Errorf("a number resourceVersion: sent %v", sent["metadata"])
		}
		// a resourceVersion that is not a number is dropped (ObjectResourceVersion fails, PrepareObjectForStorage clears it)
		res = p.Normalize(ctx, clusterThing(map[string]any{"name": "a", "resourceVersion": "x"}))
		if res.Refused != nil || metaOf(res.Object)["resourceVersion"] != nil {
			t.Errorf("refused %v, metadata %v", res.Refused, res.Object["metadata"])
		}
	})
	t.Run("generateName: the name is generated for validation, not shown", func(t *testing.T) {
		res := p.Normalize(ctx, clusterThing(map[string]any{"generateName": "gen-"}))
		if m := metaOf(res.Object); len(res.Errors) > 0 || m["name"] != nil || m["generateName"] != "gen-" {
			t.Errorf("metadata %v, errors %v", m, res.Errors)
		}
		res = p.Normalize(ctx, clusterThing(map[string]any{"generateName": "Gen-"}))
		got := res.Errors.ToAggregate()
		if got == nil || !strings.Contains(got.Error(), `metadata.generateName: Invalid value: "Gen-"`) || !strings.Contains(got.Error(), `metadata.name: Invalid value: "Gen-xxxxx"`) {
			t.Errorf("errors %v", got)
		}
		// the generator truncates a long base to 58 characters
		res = p.Normalize(ctx, clusterThing(map[string]any{"generateName": strings.Repeat("a", 70)}))
		if len(res.Errors) > 0 {
			t.Errorf("errors %v", res.Errors)
		}
	})
	t.Run("invalid label values are field errors", func(t *testing.T) {
		res := p.Normalize(ctx, clusterThing(map[string]any{"name": "a", "labels": map[string]any{"k": "has space"}}))
		if got := res.Errors.ToAggregate(); got == nil || !strings.Contains(got.Error(), `metadata.labels: Invalid value: "has space"`) {
			t.Errorf("errors %v", got)
		}
	})
	t.Run("finalizers that are not domain-qualified are warnings", func(t *testing.T) {
		res := p.Normalize(ctx, clusterThing(map[string]any{"name": "a", "finalizers": []any{"foo", "example.com/ok"}}))
		if len(res.Errors) > 0 || len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], `metadata.finalizers: "foo": prefer a domain-qualified finalizer name`) {
			t.Errorf("errors %v, warnings %q", res.Errors, res.Warnings)
		}
	})
}

// TestStrict: under fieldValidation=Strict an unknown field ends the
// request at decoding (a 400, transformDecodeError); validation does not
// run.
func TestStrict(t *testing.T) {
	p := pipelineFor(t, "StructPointer", "v1")
	obj := structPointer(map[string]any{"name": "a"})
	obj["spec"] = map[string]any{"extra": true, "entry": map[string]any{"number": "not a number"}}
	res := p.Create(context.Background(), obj, Request{Namespace: "default", Strict: true})
	want := `StructPointer in version "v1" cannot be handled as a StructPointer: strict decoding error: unknown field "spec.extra"`
	if res.Refused == nil || res.Refused.Error() != want || len(res.Errors) > 0 {
		t.Errorf("refused %v, errors %v; want %q and no errors", res.Refused, res.Errors, want)
	}
	res = p.Create(context.Background(), obj, Request{Namespace: "default"})
	if res.Refused != nil || len(res.Errors) == 0 || !reflect.DeepEqual(res.Pruned, []string{"spec.extra"}) {
		t.Errorf("Warn: refused %v, errors %v, pruned %v", res.Refused, res.Errors, res.Pruned)
	}
}

// TestStrictDuplicateFields: under Strict, a duplicate field refuses the
// create in the strict decoding error, before the unknown fields and before
// validation; under Warn it is reported and the create goes on.
func TestStrictDuplicateFields(t *testing.T) {
	p := pipelineFor(t, "StructPointer", "v1")
	obj := structPointer(map[string]any{"name": "a"})
	obj["spec"] = map[string]any{"extra": true, "entry": map[string]any{"number": "not a number"}}
	req := Request{Namespace: "default", Strict: true, DuplicateFields: []string{"spec.entry.number"}}
	res := p.Create(context.Background(), obj, req)
	want := `StructPointer in version "v1" cannot be handled as a StructPointer: strict decoding error: duplicate field "spec.entry.number", unknown field "spec.extra"`
	if res.Refused == nil || res.Refused.Error() != want || len(res.Errors) > 0 {
		t.Errorf("refused %v, errors %v; want %q and no errors", res.Refused, res.Errors, want)
	}
	delete(obj["spec"].(map[string]any), "extra")
	res = p.Create(context.Background(), obj, req)
	want = `StructPointer in version "v1" cannot be handled as a StructPointer: strict decoding error: duplicate field "spec.entry.number"`
	if res.Refused == nil || res.Refused.Error() != want || len(res.Errors) > 0 {
		t.Errorf("only a duplicate: refused %v, errors %v; want %q and no errors", res.Refused, res.Errors, want)
	}
	req.Strict = false
	res = p.Create(context.Background(), obj, req)
	if res.Refused != nil || len(res.Errors) == 0 || !reflect.DeepEqual(res.Duplicates, []string{"spec.entry.number"}) {
		t.Errorf("Warn: refused %v, errors %v, duplicates %v", res.Refused, res.Errors, res.Duplicates)
	}
}

// TestBeforeCreateIsRestBeforeCreate: beforeCreate, which calls
// rest.BeforeCreate's steps to keep field errors as they are, answers as
// rest.BeforeCreate itself does.
func TestBeforeCreateIsRestBeforeCreate(t *testing.T) {
	p := pipelineFor(t, "StructPointer", "v1")
	for _, tc := range []map[string]any{
		structPointer(map[string]any{"name": "a", "namespace": "default"}),
		structPointer(map[string]any{"name": "a"}),
		structPointer(map[string]any{"name": "a", "namespace": "other"}),
		structPointer(map[string]any{"name": "Not_A_Name", "namespace": "default", "labels": map[string]any{"k": "has space"}}),
		structPointer(map[string]any{"name": "a", "namespace": "default", "finalizers": []any{"foo"}}),
		func() map[string]any {
			o := structPointer(map[string]any{"name": "a", "namespace": "default"})
			o["spec"] = map[string]any{"entry": map[string]any{"number": "x"}}
			return o
		}(),
	} {
		u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(tc)}
		rest.FillObjectMetaSystemFields(u)
		ctx := genericapirequest.WithNamespace(context.Background(), "default")
		ours, theirs := u.DeepCopy(), u.DeepCopy()
		errs, _, refused := p.beforeCreate(ctx, ours)
		err := rest.BeforeCreate(p.strategy, ctx, theirs)
		var want []string
		if se, ok := errors.AsType[*apierrors.StatusError](err); ok && se.ErrStatus.Details != nil {
			for _, c := range se.ErrStatus.Details.Causes {
				want = append(want, c.Field+": "+c.Message)
			}
		} else if err != nil {
			want = []string{err.Error()}
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if refused != nil {
			got = append(got, refused.Error())
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v:\nbeforeCreate:      %q\nrest.BeforeCreate: %q", tc["metadata"], got, want)
		}
		if err == nil && !reflect.DeepEqual(ours.Object, theirs.Object) {
			t.Errorf("%v: objects differ:\n%v\n%v", tc["metadata"], ours.Object, theirs.Object)
		}
	}
}

// pad returns a ClusterThing whose spec.data has n bytes.
func pad(n int) map[string]any {
	o := clusterThing(map[string]any{"name": "a"})
	o["spec"] = map[string]any{"data": strings.Repeat("x", n)}
	return o
}

// TestRequestBodyLimit: a body over 3 MiB, counted as kubectl encodes it
// (RequestBody), is refused with the apiserver's 413; a body of exactly
// 3 MiB is read (and then too large for etcd).
func TestRequestBodyLimit(t *testing.T) {
	p := pipelineFor(t, "ClusterThing", "v2")
	b, err := RequestBody(pad(0))
	if err != nil {
		t.Fatal(err)
	}
	if string(b[len(b)-2:]) != "}\n" || !strings.HasPrefix(string(b), `{"apiVersion":"example.com/v2","kind":"ClusterThing"`) {
		t.Errorf("RequestBody: %s", b)
	}
	exact := DefaultMaxRequestBodyBytes - len(b)
	for n, want := range map[int]string{
		exact:     "rpc error: code = ResourceExhausted desc = trying to send message larger than max",
		exact + 1: "Request entity too large: limit is 3145728",
	} {
		res := p.Normalize(context.Background(), pad(n))
		if res.Refused == nil || !strings.HasPrefix(res.Refused.Error(), want) {
			t.Errorf("data of %d bytes: refused %v, want %q", n, res.Refused, want)
		}
	}
	if res := p.Normalize(context.Background(), pad(exact+1)); res.Refused.Status().Code != 413 {
		t.Errorf("code %d, want 413", res.Refused.Status().Code)
	}
}

// TestEtcdLimits: the object as stored (StorageBytes) must fit in one etcd
// request. The largest accepted object is exactly at etcd's limit.
func TestEtcdLimits(t *testing.T) {
	p := pipelineFor(t, "ClusterThing", "v2")
	key := p.Key("", "a")
	if key != "/registry/example.com/clusterthings/a" {
		t.Errorf("key %s", key)
	}
	if k := pipelineFor(t, "StructPointer", "v1").Key("ns", "a"); k != "/registry/structpointers.kep.example.com/structpointers/ns/a" {
		t.Errorf("namespaced key %s", k)
	}
	// the largest spec.data that etcd takes, by bisection
	stored := func(n int) []byte {
		b, err := p.StorageBytes(pad(n))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	accepted := func(n int) bool { return CheckStorageSize(key, stored(n), 0, Limits{}) == nil }
	lo, hi := 1_000_000, 2_000_000
	for lo+1 < hi {
		if mid := (lo + hi) / 2; accepted(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	txn, err := putTxn(key, stored(lo), 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := RaftRequestSize(txn, 0); n != DefaultEtcdMaxRequestBytes {
		t.Errorf("the largest accepted request is %d bytes, want etcd's limit %d", n, DefaultEtcdMaxRequestBytes)
	}
	if err := CheckStorageSize(key, stored(hi), 0, Limits{}); err == nil || err.Error() != "etcdserver: request is too large" {
		t.Errorf("one byte more: %v", err)
	}
	// a member ID whose low 16 bits are below 0x8000 makes request IDs of 9 bytes: one byte more fits
	if err := CheckStorageSize(key, stored(hi), 0, Limits{EtcdMemberID: 0x1234}); err != nil {
		t.Errorf("with a 9-byte request ID: %v", err)
	}
	// the client's gRPC limit applies to the transaction, before etcd's
	if err := CheckStorageSize(key, stored(2_100_000), 0, Limits{}); err == nil || !strings.HasPrefix(err.Error(), "rpc error: code = ResourceExhausted desc = trying to send message larger than max (") {
		t.Errorf("2.1 MB: %v", err)
	}
	// an update's transaction is larger: it also compares the revision and gets the key on failure
	create, _ := putTxn(key, []byte("v"), 0)
	update, _ := putTxn(key, []byte("v"), 4242)
	if len(update.Failure) != 1 || len(create.Failure) != 0 || RaftRequestSize(update, 0) <= RaftRequestSize(create, 0) {
		t.Errorf("create %v, update %v", create, update)
	}
}

// TestStorageBytes: objects are written at the storage version, pruned
// with its schema, and encoded as UnstructuredJSONScheme encodes them.
func TestStorageBytes(t *testing.T) {
	p := pipelineFor(t, "ClusterThing", "v1")
	obj := map[string]any{"apiVersion": "example.com/v1", "kind": "ClusterThing", "metadata": map[string]any{"name": "a"},
		"spec": map[string]any{"legacy": "dropped by v2", "data": "<&>"}}
	b, err := p.StorageBytes(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"example.com/v2","kind":"ClusterThing","metadata":{"name":"a"},"spec":{"data":"\u003c\u0026\u003e"}}` + "\n"
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil || obj["apiVersion"] != "example.com/v1" {
		t.Errorf("%v; the input changed: %v", err, obj)
	}
	// the create answers with what the storage reads back, at v1: without
	// the field v2 pruned, and defaulted
	res := p.Normalize(context.Background(), obj)
	if spec := res.Object["spec"]; len(res.Errors) > 0 || !reflect.DeepEqual(spec, map[string]any{"data": "<&>", "size": "M"}) || res.Object["apiVersion"] != "example.com/v1" {
		t.Errorf("created %v, errors %v", res.Object, res.Errors)
	}
}
