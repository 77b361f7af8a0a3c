package e2e

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// A CRD with the Webhook conversion strategy, served by testdata/convapi's
// own Go conversions (cmd/webhook: controller-runtime's webhook server and
// conversion.NewWebhookHandler). The apiserver (apiextensions-apiserver's
// customresource_handler.go) defaults a request in the version it is sent
// in and then converts it to the storage version; it defaults a stored
// object in the version it is stored at, then converts it to the version
// asked for, and prunes the result without defaulting it again.
var _ = Describe("conversion webhook: defaults and conversion on the live apiserver", Ordered, func() {
	var hook *convWebhook
	var etcd etcdStore
	var tool string // the generator, with controller-gen-default-objects next to it

	BeforeAll(func() {
		By("building and starting testdata/convapi's conversion webhook")
		hook = startConvWebhook()
		etcd = newEtcdStore()
		tool = withNormalize()
	})

	It("defaults disagree: the same object without mode is stored with the default of the version it is sent in", func() {
		crd := widgetCRD(hook, "v1")
		installWidgetCRD(crd)
		const ns = "conv-defaults"
		ensureNamespace(ns)

		versions := []string{"v1beta1", "v1"}
		want := map[string]any{} // name: the mode it is stored with
		for _, v := range versions {
			name := "sent-at-" + v
			want[name] = schemaDefault(crd, v, "spec", "mode")
			Expect(want[name]).NotTo(BeNil(), "%s defaults spec.mode", v)
			createWidget(widget(widgetGroup+"/"+v, ns, name, map[string]any{}))
		}
		Expect(want["sent-at-v1beta1"]).NotTo(Equal(want["sent-at-v1"]), "the versions' defaults of spec.mode disagree")

		atStorage := map[string]any{} // name: the mode a GET at the storage version returns
		for name, mode := range want {
			stored := etcd.widget(ns, name)
			Expect(stored["apiVersion"]).To(Equal(widgetGroup+"/v1"), "%s is stored at the storage version", name)
			got, _ := specField(stored, "mode")
			Expect(got).To(Equal(mode), "%s: stored mode", name)
			for _, v := range versions {
				got, _ := specField(getWidget(widgetGroup+"/"+v, ns, name), "mode")
				Expect(got).To(Equal(mode), "%s read at %s: the stored mode, converted", name, v)
				if v == "v1" {
					atStorage[name] = got
				}
			}
			fmt.Fprintf(GinkgoWriter, "%s: stored and read at every version with mode %v\n", name, mode)
		}

		By("running controller-gen-default conversion on a copy of testdata/convapi")
		dir := copyConvapi()
		out, code := runIn(dir, tool, "conversion", "-o", "json", "--crd", "config/crd", "./api/...")
		Expect(code).To(Equal(1), "conversion exits 1 on findings:\n%s", out)
		var findings []conversionFinding
		Expect(json.Unmarshal(out, &findings)).To(Succeed(), "%s", out)
		var mode []conversionFinding
		for _, f := range findings {
			if f.Rule == "conversion-default-mismatch" && f.Path == "spec.mode" {
				mode = append(mode, f)
			}
		}
		// One finding at each version's Go field, about the other.
		at := map[string]conversionFinding{}
		for _, f := range mode {
			at[f.pos()] = f
		}
		Expect(mode).To(HaveLen(2), "%s", out)
		for _, v := range versions {
			pos := goPos(dir, "api/"+v+"/widget_types.go", "Mode string")
			f, ok := at[pos]
			Expect(ok).To(BeTrue(), "no default mismatch of spec.mode at %s:\n%s", pos, out)
			Expect(f.Field).To(Equal("WidgetSpec.Mode"))
			Expect(f.Kind).To(Equal("Widget." + widgetGroup))
			Expect(f.Versions).To(HaveLen(2))
			Expect(f.Versions[0]).To(Equal(v), "%s: the finding is about its own version first", pos)
			// Values: what the objects created at each version without
			// mode are read back with at the storage version, then each
			// version's default. The live apiserver must agree.
			Expect(f.Values).To(HaveLen(4), "%s", f.Message)
			for i, fv := range f.Versions {
				Expect(f.Values[i]).To(Equal(atStorage["sent-at-"+fv]), "%s: the mode of an object created at %s, as the live apiserver reads it at v1", pos, fv)
				Expect(f.Values[2+i]).To(Equal(schemaDefault(crd, fv, "spec", "mode")), "%s: %s's default", pos, fv)
			}
			fmt.Fprintf(GinkgoWriter, "conversion: %s: %s\n", pos, f.Message)
		}
	})

	It("storage-version change: objects stored at v1beta1 are read at v1 through the webhook, and a no-op update moves them to v1", func() {
		old, new := widgetCRD(hook, "v1beta1"), widgetCRD(hook, "v1")
		installWidgetCRD(old)
		const ns = "conv-storage"
		ensureNamespace(ns)
		const length = int64(7)
		objects := []map[string]any{
			widget(widgetGroup+"/v1beta1", ns, "length-and-mode", map[string]any{"length": length, "mode": "turbo"}),
			widget(widgetGroup+"/v1beta1", ns, "length", map[string]any{"length": length}),
			widget(widgetGroup+"/v1beta1", ns, "mode", map[string]any{"mode": "turbo"}),
			widget(widgetGroup+"/v1beta1", ns, "empty", map[string]any{}),
			widget(widgetGroup+"/v1", ns, "v1-color", map[string]any{"size": length, "color": "red"}),
		}

		By("creating the objects under OLD (v1beta1 stores)")
		stored := map[string]map[string]any{} // name: a GET at the version written, under OLD
		for _, obj := range objects {
			name := nameOf(obj)
			createWidget(obj)
			inEtcd := etcd.widget(ns, name)
			Expect(inEtcd["apiVersion"]).To(Equal(widgetGroup+"/v1beta1"), "%s: stored at OLD's storage version", name)
			_, hasColor := specField(inEtcd, "color")
			Expect(hasColor).To(BeFalse(), "%s: v1beta1 has no color to store it in", name)
			stored[name] = getWidget(obj["apiVersion"].(string), ns, name)
		}

		By("making v1 the storage version (NEW)")
		updateCRD("storage-version change", new, false)
		// GETs read alike under OLD and NEW (same schemas, objects still
		// stored at v1beta1); writes are what differ. A probe object is
		// updated unchanged until the apiserver stores it at v1.
		createWidget(widget(widgetGroup+"/v1beta1", ns, "probe", map[string]any{}))
		Eventually(func() any {
			putWidget(getWidget(widgetGroup+"/v1beta1", ns, "probe"))
			return etcd.widget(ns, "probe")["apiVersion"]
		}, 30*time.Second, 200*time.Millisecond).Should(Equal(widgetGroup + "/v1"))

		v1Size := schemaDefault(new, "v1", "spec", "size")
		Expect(v1Size).NotTo(BeNil(), "v1 defaults spec.size")
		live := map[string]*liveUpgrade{}
		for _, obj := range objects {
			name := nameOf(obj)
			sent := obj["spec"].(map[string]any)
			l := &liveUpgrade{stored: stored[name]}
			live[name] = l
			l.atV1 = getWidget(widgetGroup+"/v1", ns, name)
			beta := getWidget(widgetGroup+"/v1beta1", ns, name)
			fmt.Fprintf(GinkgoWriter, "%s: read at v1 %s, at v1beta1 %s\n", name, toJSON(l.atV1["spec"]), toJSON(beta["spec"]))

			// The size a v1beta1 client wrote (length), or a v1 client
			// wrote (size): carried over by the rename, never v1's default,
			// which the read does not apply (the object is defaulted at
			// v1beta1, where it is stored, then converted).
			wrote, wroteSize := sent["length"]
			if !wroteSize {
				wrote, wroteSize = sent["size"]
			}
			size, hasSize := specField(l.atV1, "size")
			lengthBack, hasLength := specField(beta, "length")
			if wroteSize {
				Expect(size).To(BeEquivalentTo(wrote), "%s: the size written reads at v1 as size", name)
				Expect(lengthBack).To(BeEquivalentTo(wrote), "%s: the size written reads at v1beta1 as length", name)
			} else {
				Expect(hasSize).To(BeFalse(), "%s: stored at v1beta1 without length, read at v1 without v1's default size %v", name, v1Size)
				Expect(hasLength).To(BeFalse(), "%s: read at v1beta1 without length", name)
			}
			// The hub-only color: absent from what v1beta1 stores.
			_, hasColor := specField(l.atV1, "color")
			Expect(hasColor).To(BeFalse(), "%s: read at v1 without color", name)
			// mode is the same at both versions: stored, not re-defaulted.
			m1, _ := specField(l.atV1, "mode")
			mb, _ := specField(beta, "mode")
			Expect(m1).To(Equal(mb), "%s: mode at v1 and at v1beta1", name)

			By(name + ": a no-op update at the version it was written at")
			l.read = beta
			if obj["apiVersion"] == widgetGroup+"/v1" {
				l.read = l.atV1
			}
			l.updateErr = k8s.Update(bg(), &unstructured.Unstructured{Object: runtime.DeepCopyJSON(l.read)})
			Expect(l.updateErr).NotTo(HaveOccurred(), "%s: the no-op update", name)
			inEtcd := etcd.widget(ns, name)
			Expect(inEtcd["apiVersion"]).To(Equal(widgetGroup+"/v1"), "%s: the update stores at NEW's storage version", name)
			l.afterWrite = getWidget(widgetGroup+"/v1", ns, name)
			size, _ = specField(l.afterWrite, "size")
			if wroteSize {
				Expect(size).To(BeEquivalentTo(wrote), "%s: size after the update", name)
			} else {
				// Stored at v1 now, the object is defaulted at v1 when read.
				Expect(size).To(Equal(v1Size), "%s: read at v1 after the update, defaulted at v1 where it is now stored", name)
			}
			m, _ := specField(l.afterWrite, "mode")
			Expect(m).To(Equal(m1), "%s: the update keeps mode", name)
		}

		By("writing the hub-only color at v1, then updating the object as read at v1beta1")
		const red = "red"
		createWidget(widget(widgetGroup+"/v1", ns, "color-then-v1beta1", map[string]any{"size": length, "color": red}))
		color, ok := specField(getWidget(widgetGroup+"/v1", ns, "color-then-v1beta1"), "color")
		Expect(ok).To(BeTrue(), "stored at v1, the color is kept")
		Expect(color).To(Equal(red))
		putWidget(getWidget(widgetGroup+"/v1beta1", ns, "color-then-v1beta1"))
		_, ok = specField(getWidget(widgetGroup+"/v1", ns, "color-then-v1beta1"), "color")
		Expect(ok).To(BeFalse(), "the v1beta1 update converts without color (ConvertTo has nothing to set it from)")
		_, ok = specField(etcd.widget(ns, "color-then-v1beta1"), "color")
		Expect(ok).To(BeFalse(), "nor does etcd hold it")

		By("running impact --convert on the same upgrade and objects, from a copy of testdata/convapi")
		dir := copyConvapi()
		tmp := GinkgoT().TempDir()
		args := []string{"impact", "--old", writeCRD(tmp, "old.yaml", old), "--new", writeCRD(tmp, "new.yaml", new),
			"--convert", "./api/...", "-o", "json", writeObjects(tmp, "objects.yaml", objects)}
		out, code := runIn(dir, tool, args...)
		Expect(code).To(BeElementOf(0, 1), "impact %v:\n%s", args, out)
		recs := parseImpact(out)
		Expect(recs).To(HaveLen(len(objects)), "%s", out)
		for _, obj := range objects {
			name := nameOf(obj)
			rec, l := recs[name], live[name]
			Expect(rec.Conversion).To(Equal("program"), "%s: impact converts with the API's code", name)
			Expect(obj["apiVersion"]).To(Equal(widgetGroup+"/"+rec.ReadVersion), "%s: impact reads the object at the version it was written at, as the live test does", name)
			Expect(liveChanges(l.stored, l.read)).To(Equal(predictedChanges(rec)),
				"%s: impact's changes from stored to read at %s; live stored %s, read %s", name, rec.ReadVersion, toJSON(l.stored), toJSON(l.read))
			Expect(rec.AtStorageVersion).NotTo(BeNil(), "%s", name)
			Expect(withoutMetadata(rec.AtStorageVersion.Object)).To(Equal(withoutMetadata(l.atV1)), "%s: a GET at v1 after the upgrade is not what impact predicted", name)
			Expect(rec.Update).NotTo(BeNil(), "%s", name)
			var problems []string
			for _, p := range rec.Update.Problems {
				problems = append(problems, p.Field)
			}
			Expect(sortedSet(errorFields(l.updateErr))).To(Equal(sortedSet(problems)), "%s: the no-op update's refusals differ from impact's", name)
			Expect(rec.AfterWrite).NotTo(BeNil(), "%s", name)
			Expect(withoutMetadata(rec.AfterWrite.Object)).To(Equal(withoutMetadata(l.afterWrite)), "%s: a GET at v1 after the no-op update is not what impact predicted", name)
		}
		fmt.Fprintf(GinkgoWriter, "impact --convert: %d objects agree with the live apiserver\n", len(objects))
	})
})

// liveUpgrade is what the live apiserver did with one object across the
// upgrade.
type liveUpgrade struct {
	stored     map[string]any // a GET at the version written, under OLD
	atV1       map[string]any // a GET at v1 (NEW's storage version), under NEW
	read       map[string]any // a GET at the version written, under NEW
	updateErr  error          // the no-op update of read
	afterWrite map[string]any // a GET at v1 after it
}

func nameOf(obj map[string]any) string {
	return obj["metadata"].(map[string]any)["name"].(string)
}

// liveChanges are the fields, outside metadata, that after adds, drops
// and changes from before, as impact's changes name them ("+spec.size",
// "-spec.length", "~spec.mode"), sorted. Widgets hold no lists.
func liveChanges(before, after map[string]any) []string {
	out := []string{}
	var walk func(prefix string, b, a map[string]any)
	walk = func(prefix string, b, a map[string]any) {
		for k, bv := range b {
			av, ok := a[k]
			bm, bIsMap := bv.(map[string]any)
			am, aIsMap := av.(map[string]any)
			switch {
			case !ok:
				out = append(out, "-"+prefix+k)
			case bIsMap && aIsMap:
				walk(prefix+k+".", bm, am)
			case !reflect.DeepEqual(bv, av):
				out = append(out, "~"+prefix+k)
			}
		}
		for k := range a {
			if _, ok := b[k]; !ok {
				out = append(out, "+"+prefix+k)
			}
		}
	}
	b, a := withoutMetadata(before), withoutMetadata(after)
	delete(b, "apiVersion")
	delete(a, "apiVersion")
	walk("", b, a)
	sort.Strings(out)
	return out
}

// predictedChanges are impact's changes of rec outside metadata, as
// liveChanges writes them.
func predictedChanges(rec impactRecord) []string {
	out := []string{}
	for prefix, paths := range map[string][]string{"+": rec.Changes.Added, "-": rec.Changes.Removed, "~": rec.Changes.Changed} {
		for _, p := range paths {
			if p != "metadata" && !strings.HasPrefix(p, "metadata.") {
				out = append(out, prefix+p)
			}
		}
	}
	sort.Strings(out)
	return out
}
