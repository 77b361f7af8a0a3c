package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// impact --convert's reads after the next write and its LIST failures,
// against the live apiserver with testdata/convapi's webhook: install OLD,
// create the objects, apply NEW, GET each object at every served version
// and LIST (and WATCH) at every version, send each object back unchanged
// at its version, then GET and LIST again. Every prediction of impact must
// be what the apiserver answers: each read at every version after the
// write and what changed from before, which LISTs and WATCHes fail (500),
// and which no-op updates fail on conversion.
var _ = Describe("impact --convert: after the next write, and LISTs, on the live apiserver", Ordered, func() {
	var hook *convWebhook
	var etcd etcdStore
	var tool string

	BeforeAll(func() {
		hook = startConvWebhook()
		etcd = newEtcdStore()
		tool = withNormalize()
	})

	It("storage v1beta1 → v1: v1beta1 readers see length 0 become 12 after the next write; an object whose ConvertTo fails breaks every LIST at v1", func() {
		const ns = "afterwrite-to-v1"
		objects := []map[string]any{
			widget(widgetGroup+"/v1beta1", ns, "zero", map[string]any{"length": int64(0)}),
			widget(widgetGroup+"/v1beta1", ns, "empty", map[string]any{}),
			widget(widgetGroup+"/v1beta1", ns, "seven", map[string]any{"length": int64(7), "mode": "turbo"}),
			widget(widgetGroup+"/v1", ns, "colored", map[string]any{"size": int64(3), "color": "red"}),
			broken(widget(widgetGroup+"/v1beta1", ns, "broken", map[string]any{"length": int64(3)})),
		}
		n := checkAfterWrite(hook, etcd, tool, ns, "v1beta1", "v1", objects)
		Expect(n.losses).To(BeNumerically(">=", 1))
		Expect(n.listFails).To(Equal(1))
	})

	It("storage v1 → v1beta1: v1 readers lose color after the next write", func() {
		const ns = "afterwrite-to-v1beta1"
		objects := []map[string]any{
			widget(widgetGroup+"/v1", ns, "colored", map[string]any{"size": int64(3), "color": "red"}),
			widget(widgetGroup+"/v1", ns, "plain", map[string]any{"size": int64(5)}),
			widget(widgetGroup+"/v1beta1", ns, "zero", map[string]any{"length": int64(0)}),
			widget(widgetGroup+"/v1beta1", ns, "seven", map[string]any{"length": int64(7)}),
		}
		n := checkAfterWrite(hook, etcd, tool, ns, "v1", "v1beta1", objects)
		Expect(n.losses).To(BeNumerically(">=", 1))
	})
})

// broken is obj annotated so that its ConvertTo fails.
func broken(obj map[string]any) map[string]any {
	obj["metadata"].(map[string]any)["annotations"] = map[string]any{"conv.example.com/fail-conversion": "length cannot be converted"}
	return obj
}

var widgetVersions = []string{"v1", "v1beta1"}

// listResult is what a LIST (or the start of a WATCH) at one version
// answers: 0 when it succeeds, else the HTTP status code, and the message.
type listResult struct {
	code    int32
	message string
}

// listRequests are the requests that read the whole resource at a
// version: a LIST without a limit (served by the watch cache), a LIST with
// a limit (as client-go's informers list; delegated to etcd while the
// watch cache is not ready), and a WATCH from the start.
var listRequests = []struct{ name, query string }{
	{"LIST", ""},
	{"LIST limit=500", "?limit=500"},
	{"WATCH", "?watch=true"},
}

// listWidgets sends a request of the resource at version in ns, once (no
// client retries: client-go retries a 429 with Retry-After for up to ten
// times), and returns its status (0 for 200) and message.
func listWidgets(h *http.Client, ns, version, query string) listResult {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(bg(), 10*time.Second)
	defer cancel()
	url := strings.TrimSuffix(testEnv.Config.Host, "/") + "/apis/" + widgetGroup + "/" + version + "/namespaces/" + ns + "/" + widgetResource + query
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	Expect(err).NotTo(HaveOccurred())
	resp, err := h.Do(req)
	Expect(err).NotTo(HaveOccurred(), "GET %s", url)
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return listResult{}
	}
	body, _ := io.ReadAll(resp.Body)
	var status metav1.Status
	if json.Unmarshal(body, &status) != nil {
		status.Message = string(body)
	}
	return listResult{code: int32(resp.StatusCode), message: status.Message}
}

func resultOf(err error) listResult {
	if err == nil {
		return listResult{}
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return listResult{code: status.Status().Code, message: status.Status().Message}
	}
	return listResult{code: -1, message: err.Error()}
}

// afterWriteRecord is what impact -o json says about one object that the
// live apiserver can check here.
type afterWriteRecord struct {
	Name             string         `json:"name"`
	ReadVersion      string         `json:"readVersion"`
	Categories       []string       `json:"categories"`
	AtStorageVersion *impactRead    `json:"atStorageVersion"`
	AfterWrite       *impactRead    `json:"afterWrite"`
	AfterWriteAt     []afterWriteAt `json:"afterWriteAt"`
	ListFails        []struct {
		Version    string `json:"version"`
		StoredAt   string `json:"storedAt"`
		AfterWrite bool   `json:"afterWrite"`
		Message    string `json:"message"`
	} `json:"listFails"`
	ConversionFailed *struct {
		Request string `json:"request"`
		Message string `json:"message"`
	} `json:"conversionFailed"`
}

type afterWriteAt struct {
	Version string         `json:"version"`
	Object  map[string]any `json:"object"`
	Changes struct {
		Added   []string `json:"added"`
		Removed []string `json:"removed"`
		Changed []string `json:"changed"`
	} `json:"changes"`
}

type afterWriteCounts struct{ checks, disagreements, losses, listFails int }

// checkAfterWrite runs one upgrade of the Widget CRD from storage
// oldStorage to newStorage (both versions served, the Webhook strategy)
// with objects in ns, live and with impact --convert, and compares them.
func checkAfterWrite(hook *convWebhook, etcd etcdStore, tool, ns, oldStorage, newStorage string, objects []map[string]any) afterWriteCounts {
	GinkgoHelper()
	old, new := widgetCRD(hook, oldStorage), widgetCRD(hook, newStorage)
	installWidgetCRD(old)
	ensureNamespace(ns)
	h, err := rest.HTTPClientFor(testEnv.Config)
	Expect(err).NotTo(HaveOccurred())

	By("creating the objects under OLD (" + oldStorage + " stores)")
	for _, obj := range objects {
		createWidget(obj)
		Expect(etcd.widget(ns, nameOf(obj))["apiVersion"]).To(Equal(widgetGroup + "/" + oldStorage))
	}
	// Deleting the CRD deletes its objects with a LIST at the storage
	// version, which an object whose conversion fails breaks too, and
	// (live) a DELETE of that object fails on the same conversion: the
	// objects are deleted first (DeferCleanup runs last in, first out),
	// and when a DELETE fails, again under OLD, which converts nothing.
	DeferCleanup(func() {
		for _, obj := range objects {
			u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
			err := client.IgnoreNotFound(k8s.Delete(bg(), u))
			fmt.Fprintf(GinkgoWriter, "deleting %s at %s: %v\n", u.GetName(), u.GetAPIVersion(), err)
			if err != nil {
				updateCRD("cleanup", old, false)
				Eventually(func() error { return client.IgnoreNotFound(k8s.Delete(bg(), u.DeepCopy())) }, 30*time.Second, 200*time.Millisecond).Should(Succeed())
			}
		}
	})

	By("applying NEW (" + newStorage + " stores) and waiting until a write stores at " + newStorage)
	updateCRD("after-write", new, false)
	const probe = "zz-probe"
	createWidget(widget(widgetGroup+"/v1beta1", ns, probe, map[string]any{}))
	Eventually(func() any {
		putWidget(getWidget(widgetGroup+"/v1beta1", ns, probe))
		return etcd.widget(ns, probe)["apiVersion"]
	}, 30*time.Second, 200*time.Millisecond).Should(Equal(widgetGroup + "/" + newStorage))
	By("GET of each object, LIST and WATCH at every version")
	before := map[string]map[string]map[string]any{} // name, version: a GET
	getErr := map[string]map[string]listResult{}
	for _, obj := range objects {
		name := nameOf(obj)
		before[name], getErr[name] = getAll(ns, name)
	}
	listBefore := lists(h, ns, "before the writes")

	By("a no-op update of each object at its version, then GET, LIST and WATCH again")
	updateErr := map[string]listResult{}
	after := map[string]map[string]map[string]any{}
	for _, obj := range objects {
		name, own := nameOf(obj), versionOfAPI(obj["apiVersion"].(string))
		read := before[name][own]
		Expect(read).NotTo(BeNil(), "%s: a GET at its own version %s fails: %+v", name, own, getErr[name][own])
		updateErr[name] = resultOf(k8s.Update(bg(), &unstructured.Unstructured{Object: runtime.DeepCopyJSON(read)}))
		if updateErr[name].code == 0 {
			Expect(etcd.widget(ns, name)["apiVersion"]).To(Equal(widgetGroup+"/"+newStorage), "%s: the write stores at NEW's storage version", name)
		}
		after[name], _ = getAll(ns, name)
	}
	listAfter := lists(h, ns, "after the writes")

	By("running impact --convert on the same upgrade and objects")
	dir := copyConvapi()
	tmp := GinkgoT().TempDir()
	args := []string{"impact", "--old", writeCRD(tmp, "old.yaml", old), "--new", writeCRD(tmp, "new.yaml", new),
		"--convert", "./api/...", "-o", "json", writeObjects(tmp, "objects.yaml", objects)}
	out, code := runIn(dir, tool, args...)
	recs := parseAfterWrite(out)
	Expect(recs).To(HaveLen(len(objects)), "%s", out)

	var n afterWriteCounts
	var disagree []string
	check := func(ok bool, format string, a ...any) {
		n.checks++
		if !ok {
			n.disagreements++
			disagree = append(disagree, fmt.Sprintf(format, a...))
		}
	}
	// which LISTs fail, as impact predicts them, before and after the writes
	predictedBefore, predictedAfter := map[string]string{}, map[string]string{}
	anyFails := false
	for _, obj := range objects {
		name := nameOf(obj)
		rec := recs[name]
		if slices.Contains(rec.Categories, "loses-fields-after-write") {
			n.losses++
		}
		if rec.ConversionFailed != nil || len(rec.ListFails) > 0 {
			anyFails = true
		}
		for _, f := range rec.ListFails {
			if f.AfterWrite {
				predictedAfter[f.Version] = f.Message
			} else {
				n.listFails++
				predictedBefore[f.Version] = f.Message
			}
		}
		// GETs before the write: at NEW's storage version, impact's
		// atStorageVersion; a failed GET is a conversionFailed.
		for _, v := range widgetVersions {
			if e := getErr[name][v]; e.code != 0 {
				check(e.code == 500 && rec.ConversionFailed != nil && strings.Contains(e.message, rec.ConversionFailed.Message),
					"%s: GET at %s: live %+v, impact conversionFailed %+v", name, v, e, rec.ConversionFailed)
				continue
			}
			if v == newStorage && rec.AtStorageVersion != nil {
				check(reflect.DeepEqual(withoutMetadata(rec.AtStorageVersion.Object), withoutMetadata(before[name][v])),
					"%s: GET at %s before the write: live %s, impact %s", name, v, toJSON(before[name][v]["spec"]), toJSON(rec.AtStorageVersion.Object["spec"]))
			}
		}
		// the no-op update: a conversion failure is a 500
		if rec.ConversionFailed != nil {
			check(updateErr[name].code == 500 && strings.Contains(updateErr[name].message, rec.ConversionFailed.Message),
				"%s: the no-op update: live %+v, impact predicts its conversion fails: %+v", name, updateErr[name], rec.ConversionFailed)
			// stored as before: its LIST failures remain
			for _, f := range rec.ListFails {
				predictedAfter[f.Version] = f.Message
			}
			continue
		}
		check(updateErr[name].code == 0, "%s: the no-op update: live %+v", name, updateErr[name])
		// reads after the write, at every version, and the changes from before
		for _, v := range widgetVersions {
			var predicted map[string]any
			var changes []string
			if v == newStorage {
				if rec.AfterWrite == nil || rec.AtStorageVersion == nil {
					check(false, "%s: impact has no read at %s after the write", name, v)
					continue
				}
				predicted = rec.AfterWrite.Object
				changes = liveChanges(rec.AtStorageVersion.Object, rec.AfterWrite.Object)
			} else {
				i := slices.IndexFunc(rec.AfterWriteAt, func(a afterWriteAt) bool { return a.Version == v })
				if i < 0 {
					check(false, "%s: impact has no read at %s after the write: %s", name, v, toJSON(rec.AfterWriteAt))
					continue
				}
				a := rec.AfterWriteAt[i]
				predicted = a.Object
				changes = []string{}
				for prefix, paths := range map[string][]string{"+": a.Changes.Added, "-": a.Changes.Removed, "~": a.Changes.Changed} {
					for _, p := range paths {
						if p != "metadata" && !strings.HasPrefix(p, "metadata.") {
							changes = append(changes, prefix+p)
						}
					}
				}
				sort.Strings(changes)
			}
			live := after[name][v]
			check(live != nil && reflect.DeepEqual(withoutMetadata(predicted), withoutMetadata(live)),
				"%s: GET at %s after the write: live %s, impact %s", name, v, toJSON(live["spec"]), toJSON(predicted["spec"]))
			check(reflect.DeepEqual(annotations(predicted), annotations(live)), "%s: annotations at %s after the write: live %v, impact %v", name, v, annotations(live), annotations(predicted))
			liveDiff := liveChanges(before[name][v], live)
			check(reflect.DeepEqual(liveDiff, changes), "%s: changes at %s from before to after the write: live %v, impact %v", name, v, liveDiff, changes)
			fmt.Fprintf(GinkgoWriter, "%s: at %s after the write: %s (changes %v)\n", name, v, toJSON(live["spec"]), liveDiff)
		}
	}
	// LIST and WATCH at every version, before and after the writes: a
	// predicted failure is a 500 (from etcd) or a 429 (the watch cache
	// cannot initialize) with the webhook's message
	for _, phase := range []struct {
		name      string
		predicted map[string]string
		results   map[string]listResult
	}{{"before the writes", predictedBefore, listBefore}, {"after the writes", predictedAfter, listAfter}} {
		for _, v := range widgetVersions {
			msg, fails := phase.predicted[v]
			for _, r := range listRequests {
				got := phase.results[v+" "+r.name]
				switch {
				case !fails:
					check(got.code == 0, "%s at %s %s: live %+v, impact predicts no failure", r.name, v, phase.name, got)
				case r.name == "LIST limit=500":
					check(got.code == 500 && strings.Contains(got.message, msg), "%s at %s %s: live %+v, impact predicts 500: %s", r.name, v, phase.name, got, msg)
				default:
					check(got.code == 429 && strings.Contains(got.message, "storage is (re)initializing") && strings.Contains(got.message, msg),
						"%s at %s %s: live %+v, impact predicts 429 storage is (re)initializing: %s", r.name, v, phase.name, got, msg)
				}
			}
		}
	}
	wantCode := 0
	if n.losses > 0 || anyFails {
		wantCode = 1
	}
	check(code == wantCode, "impact exits %d, want %d", code, wantCode)
	fmt.Fprintf(GinkgoWriter, "impact --convert after write (%s → %s): %d checks, %d disagreements\n", oldStorage, newStorage, n.checks, n.disagreements)
	Expect(disagree).To(BeEmpty(), "impact disagrees with the live apiserver:\n%s\nimpact's records:\n%s", strings.Join(disagree, "\n"), out)

	// the probe's and the objects' CRD goes when the spec ends
	return n
}

// lists sends every request of listRequests at every version.
func lists(h *http.Client, ns, phase string) map[string]listResult {
	GinkgoHelper()
	out := map[string]listResult{}
	for _, v := range widgetVersions {
		for _, r := range listRequests {
			out[v+" "+r.name] = listWidgets(h, ns, v, r.query)
			fmt.Fprintf(GinkgoWriter, "%s: %s, %s at %s: %+v\n", ns, phase, r.name, v, out[v+" "+r.name])
		}
	}
	return out
}

// getAll GETs ns/name at every version: the objects, and the errors.
func getAll(ns, name string) (map[string]map[string]any, map[string]listResult) {
	objs, errs := map[string]map[string]any{}, map[string]listResult{}
	for _, v := range widgetVersions {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion(widgetGroup + "/" + v)
		u.SetKind("Widget")
		if err := k8s.Get(bg(), client.ObjectKey{Namespace: ns, Name: name}, u); err != nil {
			errs[v] = resultOf(err)
			continue
		}
		objs[v] = u.Object
	}
	return objs, errs
}

func versionOfAPI(apiVersion string) string {
	_, v, _ := strings.Cut(apiVersion, "/")
	return v
}

func annotations(obj map[string]any) any {
	md, _ := obj["metadata"].(map[string]any)
	var out any
	_ = json.Unmarshal([]byte(toJSON(md["annotations"])), &out)
	return out
}

func parseAfterWrite(out []byte) map[string]afterWriteRecord {
	GinkgoHelper()
	recs := map[string]afterWriteRecord{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r afterWriteRecord
		Expect(json.Unmarshal(sc.Bytes(), &r)).To(Succeed(), "an impact record: %s", sc.Bytes())
		recs[r.Name] = r
	}
	return recs
}
