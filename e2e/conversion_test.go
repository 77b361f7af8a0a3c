package e2e

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
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

	BeforeAll(func() {
		By("building and starting testdata/convapi's conversion webhook")
		hook = startConvWebhook()
		etcd = newEtcdStore()
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

		for name, mode := range want {
			stored := etcd.widget(ns, name)
			Expect(stored["apiVersion"]).To(Equal(widgetGroup+"/v1"), "%s is stored at the storage version", name)
			got, _ := specField(stored, "mode")
			Expect(got).To(Equal(mode), "%s: stored mode", name)
			for _, v := range versions {
				got, _ := specField(getWidget(widgetGroup+"/"+v, ns, name), "mode")
				Expect(got).To(Equal(mode), "%s read at %s: the stored mode, converted", name, v)
			}
			fmt.Fprintf(GinkgoWriter, "%s: stored and read at every version with mode %v\n", name, mode)
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
		for _, obj := range objects {
			createWidget(obj)
			stored := etcd.widget(ns, nameOf(obj))
			Expect(stored["apiVersion"]).To(Equal(widgetGroup+"/v1beta1"), "%s: stored at OLD's storage version", nameOf(obj))
			_, hasColor := specField(stored, "color")
			Expect(hasColor).To(BeFalse(), "%s: v1beta1 has no color to store it in", nameOf(obj))
		}

		By("making v1 the storage version (NEW)")
		updateCRD("storage-version change", new, false)
		// GETs read alike under OLD and NEW (same schemas, objects still
		// stored at v1beta1); writes are what differ. A probe object is
		// updated unchanged until the apiserver stores it at v1.
		probe := widget(widgetGroup+"/v1beta1", ns, "probe", map[string]any{})
		createWidget(probe)
		Eventually(func() any {
			putWidget(getWidget(widgetGroup+"/v1beta1", ns, "probe"))
			return etcd.widget(ns, "probe")["apiVersion"]
		}, 30*time.Second, 200*time.Millisecond).Should(Equal(widgetGroup + "/v1"))

		v1Size := schemaDefault(new, "v1", "spec", "size")
		Expect(v1Size).NotTo(BeNil(), "v1 defaults spec.size")
		for _, obj := range objects {
			name := nameOf(obj)
			sent := obj["spec"].(map[string]any)
			v1 := getWidget(widgetGroup+"/v1", ns, name)
			beta := getWidget(widgetGroup+"/v1beta1", ns, name)
			fmt.Fprintf(GinkgoWriter, "%s: read at v1 %s, at v1beta1 %s\n", name, toJSON(v1["spec"]), toJSON(beta["spec"]))

			// The size a v1beta1 client wrote (length), or a v1 client
			// wrote (size): carried over by the rename, never v1's default,
			// which the read does not apply (the object is defaulted at
			// v1beta1, where it is stored, then converted).
			wrote, wroteSize := sent["length"]
			if !wroteSize {
				wrote, wroteSize = sent["size"]
			}
			size, hasSize := specField(v1, "size")
			lengthBack, hasLength := specField(beta, "length")
			if wroteSize {
				Expect(size).To(BeEquivalentTo(wrote), "%s: the size written reads at v1 as size", name)
				Expect(lengthBack).To(BeEquivalentTo(wrote), "%s: the size written reads at v1beta1 as length", name)
			} else {
				Expect(hasSize).To(BeFalse(), "%s: stored at v1beta1 without length, read at v1 without v1's default size %v", name, v1Size)
				Expect(hasLength).To(BeFalse(), "%s: read at v1beta1 without length", name)
			}
			// The hub-only color: absent from what v1beta1 stores.
			_, hasColor := specField(v1, "color")
			Expect(hasColor).To(BeFalse(), "%s: read at v1 without color", name)
			// mode is the same at both versions: stored, not re-defaulted.
			m1, _ := specField(v1, "mode")
			mb, _ := specField(beta, "mode")
			Expect(m1).To(Equal(mb), "%s: mode at v1 and at v1beta1", name)

			By(name + ": a no-op update at the version it was written at")
			asRead := beta
			if obj["apiVersion"] == widgetGroup+"/v1" {
				asRead = v1
			}
			putWidget(asRead)
			stored := etcd.widget(ns, name)
			Expect(stored["apiVersion"]).To(Equal(widgetGroup+"/v1"), "%s: the update stores at NEW's storage version", name)
			after := getWidget(widgetGroup+"/v1", ns, name)
			size, _ = specField(after, "size")
			if wroteSize {
				Expect(size).To(BeEquivalentTo(wrote), "%s: size after the update", name)
			} else {
				// Stored at v1 now, the object is defaulted at v1 when read.
				Expect(size).To(Equal(v1Size), "%s: read at v1 after the update, defaulted at v1 where it is now stored", name)
			}
			m, _ := specField(after, "mode")
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
	})
})

func nameOf(obj map[string]any) string {
	return obj["metadata"].(map[string]any)["name"].(string)
}
