package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	clientv3 "go.etcd.io/etcd/client/v3"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/rest"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// The request differential: the same create request, with the same body
// bytes, to the live apiserver and to objectpath.Create. The answer (status
// code, message, field errors, warnings) and the stored object must be the
// same. Cases cover what a request adds to an object: the URL's namespace,
// metadata the server sets or checks, fieldValidation, and the size of the
// body and of the object in etcd, just under and just over each limit.
var _ = Describe("requests: offline create against the live apiserver", Ordered, func() {
	var notes, things *objectpath.Pipeline // namespaced, and cluster-scoped (stored at v2)
	var thingsV1 *objectpath.Pipeline
	var memberID uint64
	var etcd *clientv3.Client

	BeforeAll(func() {
		for _, f := range []string{"testdata/notes.yaml", "../../internal/apiserver/objectpath/testdata/crds/clusterthings.yaml"} {
			crds, err := crdcheck.LoadCRDs(f)
			Expect(err).NotTo(HaveOccurred())
			ensureCRD(crds[0]) // the kubectl tests install them too
			for _, v := range crds[0].Spec.Versions {
				p, err := objectpath.New(crds[0], v.Name)
				Expect(err).NotTo(HaveOccurred())
				switch p.GVK().Kind + "/" + v.Name {
				case "Note/v1":
					notes = p
				case "ClusterThing/v2":
					things = p
				case "ClusterThing/v1":
					thingsV1 = p
				}
			}
		}
		ensureNamespace("team")
		var err error
		etcd, err = clientv3.New(clientv3.Config{Endpoints: []string{testEnv.ControlPlane.Etcd.URL.String()}, DialTimeout: 10 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(etcd.Close)
		members, err := etcd.MemberList(bg())
		Expect(err).NotTo(HaveOccurred())
		memberID = members.Members[0].ID
		fmt.Fprintf(GinkgoWriter, "etcd member ID %x: request IDs of %d bytes\n", memberID, idBytes(memberID))
	})

	note := func(meta map[string]any, spec map[string]any) map[string]any {
		o := map[string]any{"apiVersion": "requests.example.com/v1", "kind": "Note", "metadata": meta}
		if spec != nil {
			o["spec"] = spec
		}
		return o
	}
	thing := func(apiVersion string, meta map[string]any, spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": apiVersion, "kind": "ClusterThing", "metadata": meta, "spec": spec}
	}

	DescribeTable("metadata, namespaces and fieldValidation",
		func(kind string, namespace string, strict bool, obj func() map[string]any) {
			p := map[string]*objectpath.Pipeline{"note": notes, "thing": things, "thing/v1": thingsV1}[kind]
			checkRequest(p, obj(), objectpath.Request{Namespace: namespace, Strict: strict}, objectpath.Limits{})
		},
		Entry("a cluster-scoped object with a namespace (kustomize's namespace:)", "thing", "", false,
			func() map[string]any {
				return thing("example.com/v2", map[string]any{"name": "req-kustomized", "namespace": "kustomized"}, map[string]any{"data": "x"})
			}),
		Entry("a cluster-scoped object with a namespace, at a version that is not stored", "thing/v1", "", false,
			func() map[string]any {
				return thing("example.com/v1", map[string]any{"name": "req-kustomized-v1", "namespace": "team"}, map[string]any{"legacy": "pruned by v2"})
			}),
		Entry("a namespaced object without a namespace takes the URL's", "note", "team", false,
			func() map[string]any { return note(map[string]any{"name": "req-no-namespace"}, nil) }),
		Entry("a namespaced object in another namespace than the URL's", "note", "team", false,
			func() map[string]any {
				return note(map[string]any{"name": "req-elsewhere", "namespace": "default"}, nil)
			}),
		Entry("generateName", "note", "default", false,
			func() map[string]any { return note(map[string]any{"generateName": "gen-"}, nil) }),
		Entry("generateName, longer than a generated name may be", "note", "default", false,
			func() map[string]any { return note(map[string]any{"generateName": strings.Repeat("g", 70)}, nil) }),
		Entry("generateName that is not a DNS subdomain", "note", "default", false,
			func() map[string]any { return note(map[string]any{"generateName": "Gen_"}, nil) }),
		Entry("finalizers, one not domain-qualified (a warning)", "note", "default", false,
			func() map[string]any {
				return note(map[string]any{"name": "req-finalizers", "finalizers": []any{"foo", "example.com/ok", "kubernetes"}}, nil)
			}),
		Entry("a finalizer that is no qualified name", "note", "default", false,
			func() map[string]any {
				return note(map[string]any{"name": "req-bad-finalizer", "finalizers": []any{"bad name"}}, nil)
			}),
		Entry("invalid label keys and values", "note", "default", false,
			func() map[string]any {
				return note(map[string]any{"name": "req-labels", "labels": map[string]any{"k": "has space", "bad key!": "v"}}, nil)
			}),
		Entry("labels that are not a map", "note", "default", false,
			func() map[string]any { return note(map[string]any{"name": "req-labels-5", "labels": int64(5)}, nil) }),
		Entry("an invalid name", "note", "default", false,
			func() map[string]any { return note(map[string]any{"name": "Not_A_Name"}, nil) }),
		Entry("server-set metadata, wiped", "note", "default", false,
			func() map[string]any {
				return note(map[string]any{"name": "req-server-set", "uid": "1b4e28ba-2fa1-11d2-883f-0016d3cca427",
					"creationTimestamp": "2026-01-02T03:04:05Z", "generation": int64(7)}, nil)
			}),
		Entry("a resourceVersion", "note", "default", false,
			func() map[string]any {
				return note(map[string]any{"name": "req-resource-version", "resourceVersion": "42"}, nil)
			}),
		Entry("a resourceVersion that is not a number", "note", "default", false,
			func() map[string]any {
				return note(map[string]any{"name": "req-resource-version-x", "resourceVersion": "x"}, nil)
			}),
		Entry("a status, which create drops", "note", "default", false,
			func() map[string]any {
				o := note(map[string]any{"name": "req-status"}, map[string]any{"text": "t"})
				o["status"] = map[string]any{"phase": "Ready"}
				return o
			}),
		Entry("unknown fields, fieldValidation Warn", "note", "default", false,
			func() map[string]any {
				return note(map[string]any{"name": "req-unknown-warn", "junk": int64(1)}, map[string]any{"text": "t", "extra": true})
			}),
		Entry("unknown fields, fieldValidation Strict", "note", "default", true,
			func() map[string]any {
				return note(map[string]any{"name": "req-unknown-strict"}, map[string]any{"text": "t", "extra": true})
			}),
		Entry("unknown fields and an invalid value, Strict: only the unknown fields are reported", "note", "default", true,
			func() map[string]any {
				return note(map[string]any{"name": "req-unknown-invalid-strict"}, map[string]any{"size": "XL", "extra": true})
			}),
		Entry("an invalid value, Strict", "note", "default", true,
			func() map[string]any {
				return note(map[string]any{"name": "req-invalid-strict"}, map[string]any{"size": "XL"})
			}),
	)

	// kubectl create -f decodes a file and sends the object it decoded, one
	// value per field; a client that sends a file's bytes as they are
	// sends the duplicates, which the apiserver's strict decoding reports
	DescribeTable("a body with duplicate fields, as it is",
		func(strict bool, body string) {
			checkRequestBody(notes, []byte(body), objectpath.Request{Namespace: "default", Strict: strict})
		},
		Entry("Warn: a warning, the last value stored", false,
			`{"apiVersion":"requests.example.com/v1","kind":"Note","metadata":{"name":"req-dup-warn","namespace":"default"},"spec":{"text":"a","text":"b"}}`),
		Entry("Strict: refused, duplicates before unknown fields", true,
			`{"apiVersion":"requests.example.com/v1","kind":"Note","metadata":{"name":"req-dup-strict","namespace":"default","name":"req-dup-strict"},"spec":{"text":"a","extra":1,"text":"b"}}`),
		Entry("Strict: only a duplicate", true,
			`{"apiVersion":"requests.example.com/v1","kind":"Note","metadata":{"name":"req-dup-strict-only","namespace":"default"},"spec":{"text":"a","text":"b"}}`),
	)

	It("agrees on request bodies just under and over 3 MiB", func() {
		base, err := objectpath.RequestBody(note(map[string]any{"name": "req-body", "namespace": "default"}, map[string]any{"text": ""}))
		Expect(err).NotTo(HaveOccurred())
		exact := objectpath.DefaultMaxRequestBodyBytes - len(base)
		for _, n := range []int{exact - 1, exact, exact + 1} {
			obj := note(map[string]any{"name": "req-body", "namespace": "default"}, map[string]any{"text": strings.Repeat("x", n)})
			b, _ := objectpath.RequestBody(obj)
			fmt.Fprintf(GinkgoWriter, "body of %d bytes\n", len(b))
			checkRequest(notes, obj, objectpath.Request{Namespace: "default"}, objectpath.Limits{EtcdMemberID: memberID})
		}
	})

	It("agrees on objects just under and over etcd's limits", func() {
		limits := objectpath.Limits{EtcdMemberID: memberID}
		obj := func(n int) map[string]any {
			return thing("example.com/v2", map[string]any{"name": "req-etcd"}, map[string]any{"data": strings.Repeat("x", n)})
		}
		refusal := func(n int) string {
			res := things.Create(bg(), obj(n), objectpath.Request{Limits: limits})
			if res.Refused == nil {
				return ""
			}
			return res.Refused.Error()
		}
		// the largest object etcd stores, and the largest the client sends,
		// as the offline model has them
		largest := func(accepted func(string) bool) int {
			lo, hi := 1_000_000, 3_000_000
			for lo+1 < hi {
				if mid := (lo + hi) / 2; accepted(refusal(mid)) {
					lo = mid
				} else {
					hi = mid
				}
			}
			return lo
		}
		stored := largest(func(r string) bool { return r == "" })
		sent := largest(func(r string) bool { return !strings.HasPrefix(r, "rpc error") })
		fmt.Fprintf(GinkgoWriter, "offline: etcd stores up to %d bytes of data, the client sends up to %d\n", stored, sent)
		for _, n := range []int{stored, stored + 1, sent, sent + 1} {
			checkRequest(things, obj(n), objectpath.Request{}, limits)
		}
	})

	It("writes to etcd the bytes StorageBytes predicts, at the key Key predicts", func() {
		// created at v1, stored at v2: converted, and pruned by v2's schema
		obj := thing("example.com/v1", map[string]any{"name": "req-raw", "labels": map[string]any{"a": "b"}},
			map[string]any{"data": "<&> \u00e9", "legacy": "pruned by v2"})
		res := thingsV1.Create(bg(), obj, objectpath.Request{})
		Expect(res.Refused).To(BeNil())
		Expect(res.Errors).To(BeEmpty())
		live := post(thingsV1, obj, objectpath.Request{})
		Expect(live.code).To(Equal(http.StatusCreated), live.message)
		DeferCleanup(deleteLive, things, live.object)

		key := things.Key("", "req-raw")
		got, err := etcd.Get(bg(), key)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Kvs).To(HaveLen(1), "no etcd key %s", key)
		// what the server set, taken from what it stored
		var etcdObj map[string]any
		Expect(json.Unmarshal(got.Kvs[0].Value, &etcdObj)).To(Succeed())
		u := &unstructured.Unstructured{Object: res.Object}
		m := etcdObj["metadata"].(map[string]any)
		u.SetUID(types.UID(m["uid"].(string)))
		ts, err := time.Parse(time.RFC3339, m["creationTimestamp"].(string))
		Expect(err).NotTo(HaveOccurred())
		u.SetCreationTimestamp(metav1.NewTime(ts))
		mf, _, _ := unstructured.NestedSlice(etcdObj, "metadata", "managedFields")
		Expect(unstructured.SetNestedSlice(u.Object, mf, "metadata", "managedFields")).To(Succeed())
		want, err := thingsV1.StorageBytes(u.Object)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.Kvs[0].Value)).To(Equal(string(want)))
	})
})

// ensureCRD installs a CRD unless it exists, and waits until it is
// established.
func ensureCRD(c *apiextensionsv1.CustomResourceDefinition) {
	GinkgoHelper()
	if err := k8s.Create(bg(), c.DeepCopy()); err != nil && !apierrors.IsAlreadyExists(err) {
		Expect(err).NotTo(HaveOccurred())
	}
	Eventually(func() bool {
		var got apiextensionsv1.CustomResourceDefinition
		return k8s.Get(bg(), keyOf(c.Name), &got) == nil && established(&got)
	}, 30*time.Second, 100*time.Millisecond).Should(BeTrue())
}

// answer is what a create request gets.
type answer struct {
	code     int
	message  string         // a refusal's message
	causes   []string       // a 422's field errors, "field: message", sorted
	object   map[string]any // what was stored, for a 201, without what only the server sets
	warnings []string       // sorted
}

func (a answer) String() string {
	return fmt.Sprintf("%d %q causes=%q warnings=%q object=%s", a.code, truncate(a.message, 300), a.causes, a.warnings, truncate(toJSON(a.object), 300))
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// checkRequest sends obj as it is (the body RequestBody encodes) to the
// live apiserver and to p.Create, and expects the same answer.
func checkRequest(p *objectpath.Pipeline, obj map[string]any, req objectpath.Request, limits objectpath.Limits) {
	GinkgoHelper()
	req.Limits = limits
	offline := offlineAnswer(p, p.Create(bg(), obj, req), req.Strict)
	live := post(p, obj, req)
	if live.code == http.StatusCreated {
		DeferCleanup(deleteLive, p, live.object)
	}
	// a generated name is the server's; offline shows none
	if generated(obj) && live.object != nil {
		name := live.object["metadata"].(map[string]any)["name"].(string)
		Expect(name).To(HaveLen(len(stringsOf(obj, "generateName")[:min(len(stringsOf(obj, "generateName")), 58)]) + 5))
		delete(live.object["metadata"].(map[string]any), "name")
	}
	// a message that names a generated name has the server's random suffix
	if generated(obj) {
		for i, c := range live.causes {
			live.causes[i] = replaceGeneratedSuffix(c)
		}
		slices.Sort(live.causes)
	}
	fmt.Fprintf(GinkgoWriter, "  live:    %s\n  offline: %s\n", live, offline)
	Expect(offline).To(Equal(live), "the offline create answers otherwise than the apiserver")
}

func generated(obj map[string]any) bool {
	m, _ := obj["metadata"].(map[string]any)
	return m != nil && m["generateName"] != nil && m["name"] == nil
}

func stringsOf(obj map[string]any, f string) string {
	s, _, _ := unstructured.NestedString(obj, "metadata", f)
	return s
}

// replaceGeneratedSuffix replaces the random 5 characters of a generated
// name in an error message with xxxxx, as the offline create shows them.
func replaceGeneratedSuffix(s string) string {
	i := strings.Index(s, `Invalid value: "`)
	if i < 0 || !strings.HasPrefix(s, "metadata.name:") {
		return s
	}
	start := i + len(`Invalid value: "`)
	end := strings.Index(s[start:], `"`)
	if end < 5 {
		return s
	}
	return s[:start+end-5] + "xxxxx" + s[start+end:]
}

// offlineAnswer is a Result as the apiserver answers it.
func offlineAnswer(p *objectpath.Pipeline, res objectpath.Result, strict bool) answer {
	var a answer
	if !strict || res.Refused == nil {
		for _, path := range res.Duplicates {
			a.warnings = append(a.warnings, fmt.Sprintf("duplicate field %q", path))
		}
		for _, path := range res.Pruned {
			a.warnings = append(a.warnings, fmt.Sprintf("unknown field %q", path))
		}
	}
	a.warnings = append(a.warnings, res.Warnings...)
	slices.Sort(a.warnings)
	switch {
	case res.Undecodable:
		a.code, a.message = http.StatusBadRequest, "cannot decode"
		a.warnings = nil
	case res.Refused != nil:
		a.code, a.message = int(res.Refused.Status().Code), res.Refused.Error()
	case len(res.Errors) > 0:
		a.code = http.StatusUnprocessableEntity
		for _, e := range res.Errors {
			a.causes = append(a.causes, e.Field+": "+e.ErrorBody())
		}
		slices.Sort(a.causes)
	default:
		a.code, a.object = http.StatusCreated, withoutServerSet(res.Object)
	}
	if a.code != http.StatusCreated && a.code != http.StatusUnprocessableEntity {
		a.warnings = nil // compared only when the request got that far
	}
	return a
}

// post sends obj, encoded as RequestBody encodes it, to the URL a client
// posts it to: the request's namespace for a namespaced kind.
func post(p *objectpath.Pipeline, obj map[string]any, req objectpath.Request) answer {
	GinkgoHelper()
	body, err := objectpath.RequestBody(obj)
	Expect(err).NotTo(HaveOccurred())
	return postBody(p, body, req)
}

// checkRequestBody sends body as it is to the live apiserver, and reads it
// as normalize reads a file (manifest.Reader: the object, with its
// duplicate fields) for p.Create, and expects the same answer.
func checkRequestBody(p *objectpath.Pipeline, body []byte, req objectpath.Request) {
	GinkgoHelper()
	var objs []manifest.Object
	for o, err := range manifest.All("body", bytes.NewReader(body)) {
		Expect(err).NotTo(HaveOccurred())
		objs = append(objs, o)
	}
	Expect(objs).To(HaveLen(1))
	req.DuplicateFields = objs[0].Duplicates
	offline := offlineAnswer(p, p.Create(bg(), objs[0].Object, req), req.Strict)
	live := postBody(p, body, req)
	if live.code == http.StatusCreated {
		DeferCleanup(deleteLive, p, live.object)
	}
	fmt.Fprintf(GinkgoWriter, "  live:    %s\n  offline: %s\n", live, offline)
	Expect(offline).To(Equal(live), "the offline create answers otherwise than the apiserver")
}

// postBody sends body as it is, as post does.
func postBody(p *objectpath.Pipeline, body []byte, req objectpath.Request) answer {
	GinkgoHelper()
	gvk := p.GVK()
	path := "/apis/" + gvk.Group + "/" + gvk.Version
	if p.Namespaced() {
		path += "/namespaces/" + req.Namespace
	}
	path += "/" + resourceOf(p)
	if req.Strict {
		path += "?fieldValidation=Strict"
	}
	httpClient, err := rest.HTTPClientFor(testEnv.Config)
	Expect(err).NotTo(HaveOccurred())
	ctx, cancel := context.WithTimeout(bg(), time.Minute)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(testEnv.Config.Host, "/")+path, bytes.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	r.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(r)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	respBody, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())

	a := answer{code: resp.StatusCode}
	headers, _ := utilnet.ParseWarningHeaders(resp.Header.Values("Warning"))
	for _, h := range headers {
		a.warnings = append(a.warnings, h.Text)
	}
	slices.Sort(a.warnings)
	if a.code == http.StatusCreated {
		Expect(json.Unmarshal(respBody, &a.object)).To(Succeed())
		a.object = withoutServerSet(a.object)
		return a
	}
	var status metav1.Status
	Expect(json.Unmarshal(respBody, &status)).To(Succeed(), "%s", respBody)
	a.message = status.Message
	if a.code == http.StatusUnprocessableEntity {
		a.message = ""
		for _, c := range status.Details.Causes {
			a.causes = append(a.causes, c.Field+": "+c.Message)
		}
		slices.Sort(a.causes)
	}
	if a.code == http.StatusBadRequest && strings.Contains(a.message, "cannot be handled as a") && !strings.Contains(a.message, "strict decoding error") {
		a.message = "cannot decode" // the decoder's own words differ; the verdict is compared
	}
	if a.code != http.StatusCreated && a.code != http.StatusUnprocessableEntity {
		a.warnings = nil
	}
	return a
}

// resourceOf is the plural of p's kind, from its etcd key.
func resourceOf(p *objectpath.Pipeline) string {
	parts := strings.Split(p.Key("ns", "name"), "/")
	if p.Namespaced() {
		return parts[len(parts)-3]
	}
	return parts[len(parts)-2]
}

// withoutServerSet drops what only the server sets (uid,
// creationTimestamp, resourceVersion, managedFields), through a JSON round
// trip so that numbers compare alike.
func withoutServerSet(o map[string]any) map[string]any {
	var out map[string]any
	_ = json.Unmarshal([]byte(toJSON(o)), &out)
	if m, ok := out["metadata"].(map[string]any); ok {
		for _, f := range []string{"uid", "creationTimestamp", "resourceVersion", "managedFields"} {
			delete(m, f)
		}
	}
	return out
}

// deleteLive deletes an object the server created.
func deleteLive(p *objectpath.Pipeline, obj map[string]any) {
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
	u.SetGroupVersionKind(p.GVK())
	m := obj["metadata"].(map[string]any)
	if name, _ := m["name"].(string); name != "" {
		_ = k8s.Delete(bg(), u)
	}
}

// idBytes is how many bytes etcd's request IDs take for a member ID.
func idBytes(memberID uint64) int {
	id := uint64(uint16(memberID))<<48 | 1<<47
	n := 1
	for id >= 0x80 {
		id >>= 7
		n++
	}
	return n
}
