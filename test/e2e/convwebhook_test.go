package e2e

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	clientv3 "go.etcd.io/etcd/client/v3"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

// convapiDir is the test API whose Go conversions the webhook serves:
// conv.example.com Widget, hub v1 and spoke v1beta1.
const convapiDir = "../../testdata/convapi"

const (
	widgetGroup    = "conv.example.com"
	widgetCRDName  = "widgets." + widgetGroup
	widgetResource = "widgets"
)

// convWebhook is testdata/convapi's conversion webhook (cmd/webhook), run
// as its own process with envtest's serving certificate.
type convWebhook struct {
	url      string
	caBundle []byte
}

// startConvWebhook builds testdata/convapi/cmd/webhook, starts it on a
// free port of 127.0.0.1 with the certificate envtest's
// WebhookInstallOptions makes, stops it when the container ends, and waits
// until it converts a Widget.
func startConvWebhook() *convWebhook {
	GinkgoHelper()
	tmp := GinkgoT().TempDir()
	bin := filepath.Join(tmp, "webhook")
	build := exec.Command("go", "build", "-o", bin, "./cmd/webhook")
	build.Dir = convapiDir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	out, err := build.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "building %s/cmd/webhook:\n%s", convapiDir, out)

	return serveWebhook(bin, nil, (*convWebhook).probe)
}

// serveWebhook starts the conversion webhook bin (flags --cert-dir, --host,
// --port, then args) on a free port of 127.0.0.1 with the certificate
// envtest's WebhookInstallOptions makes, stops it when the container ends,
// and waits until ready says it serves.
func serveWebhook(bin string, args []string, ready func(*convWebhook) error) *convWebhook {
	GinkgoHelper()
	// The certificate is for LocalServingHost; PrepWithoutInstalling picks
	// the port and writes tls.crt and tls.key to LocalServingCertDir.
	opts := &envtest.WebhookInstallOptions{LocalServingHost: "127.0.0.1"}
	Expect(opts.PrepWithoutInstalling()).To(Succeed())
	DeferCleanup(opts.Cleanup)

	cmd := exec.Command(bin, append([]string{"--cert-dir", opts.LocalServingCertDir,
		"--host", opts.LocalServingHost, "--port", strconv.Itoa(opts.LocalServingPort)}, args...)...)
	cmd.Stdout, cmd.Stderr = GinkgoWriter, GinkgoWriter
	Expect(cmd.Start()).To(Succeed())
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	DeferCleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	hook := &convWebhook{
		url:      "https://" + net.JoinHostPort(opts.LocalServingHost, strconv.Itoa(opts.LocalServingPort)) + "/convert",
		caBundle: opts.LocalServingCAData,
	}
	Eventually(func() error {
		select {
		case <-exited:
			return StopTrying(fmt.Sprintf("%s exited: %v", filepath.Base(bin), waitErr))
		default:
		}
		return ready(hook)
	}, 60*time.Second, 200*time.Millisecond).Should(Succeed())
	return hook
}

// probe sends the webhook a ConversionReview, as the apiserver does, of a
// v1beta1 Widget with a length, to v1: it must answer Success with a v1
// Widget of that size.
func (h *convWebhook) probe() error {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(h.caBundle) {
		return errors.New("no certificate in the CA bundle")
	}
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	const length = 3
	obj := widget(widgetGroup+"/v1beta1", "default", "probe", map[string]any{"length": int64(length)})
	review := apiextensionsv1.ConversionReview{Request: &apiextensionsv1.ConversionRequest{
		UID: types.UID("probe"), DesiredAPIVersion: widgetGroup + "/v1",
		Objects: []runtime.RawExtension{{Raw: []byte(toJSON(obj))}},
	}}
	review.APIVersion, review.Kind = "apiextensions.k8s.io/v1", "ConversionReview"
	body, err := json.Marshal(review)
	if err != nil {
		return err
	}
	resp, err := c.Post(h.url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var got apiextensionsv1.ConversionReview
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		return fmt.Errorf("%s: %w", resp.Status, err)
	}
	if got.Response == nil || got.Response.Result.Status != "Success" || len(got.Response.ConvertedObjects) != 1 {
		return fmt.Errorf("%s: %s", resp.Status, toJSON(got.Response))
	}
	var converted map[string]any
	if err := json.Unmarshal(got.Response.ConvertedObjects[0].Raw, &converted); err != nil {
		return err
	}
	if size, _, _ := unstructured.NestedFieldNoCopy(converted, "spec", "size"); size != float64(length) {
		return fmt.Errorf("converted to %s", got.Response.ConvertedObjects[0].Raw)
	}
	return nil
}

// widgetCRD is testdata/convapi's CRD with storage as its storage version
// and the Webhook conversion strategy, served by h.
func widgetCRD(h *convWebhook, storage string) *apiextensionsv1.CustomResourceDefinition {
	GinkgoHelper()
	crds, err := crdcheck.LoadCRDs(filepath.Join(convapiDir, "config", "crd"))
	Expect(err).NotTo(HaveOccurred())
	Expect(crds).To(HaveLen(1))
	c := crds[0].DeepCopy()
	Expect(c.Name).To(Equal(widgetCRDName))
	found := false
	for i := range c.Spec.Versions {
		c.Spec.Versions[i].Storage = c.Spec.Versions[i].Name == storage
		found = found || c.Spec.Versions[i].Storage
	}
	Expect(found).To(BeTrue(), "the CRD has no version %s", storage)
	url := h.url
	c.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{
		Strategy: apiextensionsv1.WebhookConverter,
		Webhook: &apiextensionsv1.WebhookConversion{
			ConversionReviewVersions: []string{"v1"},
			ClientConfig:             &apiextensionsv1.WebhookClientConfig{URL: &url, CABundle: h.caBundle},
		},
	}
	return c
}

// writeCRD writes c as YAML to a new file of dir and returns its path.
func writeCRD(dir, name string, c *apiextensionsv1.CustomResourceDefinition) string {
	GinkgoHelper()
	c = c.DeepCopy()
	c.APIVersion, c.Kind = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
	b, err := yaml.Marshal(c)
	Expect(err).NotTo(HaveOccurred())
	path := filepath.Join(dir, name)
	Expect(os.WriteFile(path, b, 0o644)).To(Succeed())
	return path
}

// installWidgetCRD installs c once no Widget CRD is left from an earlier
// spec (deleting a CRD deletes its objects first), and deletes it when the
// spec ends.
func installWidgetCRD(c *apiextensionsv1.CustomResourceDefinition) {
	GinkgoHelper()
	waitWidgetCRDGone()
	installCRD(c)
	DeferCleanup(func() {
		_ = k8s.Delete(bg(), c.DeepCopy())
		waitWidgetCRDGone()
	})
}

func waitWidgetCRDGone() {
	GinkgoHelper()
	Eventually(func() bool {
		var got apiextensionsv1.CustomResourceDefinition
		err := k8s.Get(bg(), keyOf(widgetCRDName), &got)
		if err == nil && got.DeletionTimestamp == nil {
			_ = k8s.Delete(bg(), &got)
		}
		return apierrors.IsNotFound(err)
	}, 60*time.Second, 200*time.Millisecond).Should(BeTrue(), "the Widget CRD of an earlier spec is not gone")
}

// widget is a Widget as a client writes it.
func widget(apiVersion, ns, name string, spec map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": apiVersion, "kind": "Widget",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec":     runtime.DeepCopyJSON(spec),
	}
}

// createWidget creates obj. The first request that needs the webhook may
// come before the apiserver can call it: retried while the error is not
// the apiserver's answer about the object.
func createWidget(obj map[string]any) {
	GinkgoHelper()
	Eventually(func() error {
		err := k8s.Create(bg(), &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)})
		if apierrors.IsAlreadyExists(err) || apierrors.IsInvalid(err) {
			return StopTrying("create").Wrap(err)
		}
		return err
	}, 30*time.Second, 200*time.Millisecond).Should(Succeed(), "creating %s", toJSON(obj))
}

// getWidget GETs a Widget at apiVersion.
func getWidget(apiVersion, ns, name string) map[string]any {
	GinkgoHelper()
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind("Widget")
	Expect(k8s.Get(bg(), client.ObjectKey{Namespace: ns, Name: name}, u)).To(Succeed())
	return u.Object
}

// putWidget sends obj back as an update (PUT) at its apiVersion and
// returns what the apiserver answers.
func putWidget(obj map[string]any) map[string]any {
	GinkgoHelper()
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
	Expect(k8s.Update(bg(), u)).To(Succeed(), "no-op update of %s", toJSON(obj))
	return u.Object
}

// etcdStore reads objects as the apiserver stored them, from envtest's
// etcd.
type etcdStore struct{ c *clientv3.Client }

func newEtcdStore() etcdStore {
	GinkgoHelper()
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{testEnv.ControlPlane.Etcd.URL.String()}, DialTimeout: 10 * time.Second})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(c.Close)
	return etcdStore{c}
}

// widget is the stored Widget ns/name (custom resources are stored as
// JSON under /registry/GROUP/RESOURCE/NAMESPACE/NAME).
func (s etcdStore) widget(ns, name string) map[string]any {
	GinkgoHelper()
	key := "/registry/" + widgetGroup + "/" + widgetResource + "/" + ns + "/" + name
	got, err := s.c.Get(bg(), key)
	Expect(err).NotTo(HaveOccurred())
	Expect(got.Kvs).To(HaveLen(1), "no etcd key %s", key)
	var obj map[string]any
	Expect(json.Unmarshal(got.Kvs[0].Value, &obj)).To(Succeed(), "etcd key %s", key)
	return obj
}

// schemaDefault is the default of the field at path in the schema of
// version of c, as JSON decodes it (nil: none).
func schemaDefault(c *apiextensionsv1.CustomResourceDefinition, version string, path ...string) any {
	GinkgoHelper()
	for _, v := range c.Spec.Versions {
		if v.Name != version {
			continue
		}
		s := v.Schema.OpenAPIV3Schema
		for _, p := range path {
			prop, ok := s.Properties[p]
			Expect(ok).To(BeTrue(), "%s: no property %s", version, strings.Join(path, "."))
			s = &prop
		}
		if s.Default == nil {
			return nil
		}
		var d any
		Expect(json.Unmarshal(s.Default.Raw, &d)).To(Succeed())
		return d
	}
	Fail("the CRD has no version " + version)
	return nil
}

// specField is spec.<name> of obj as JSON decodes it, and whether it is set.
func specField(obj map[string]any, name string) (any, bool) {
	var o map[string]any
	_ = json.Unmarshal([]byte(toJSON(obj)), &o)
	v, ok, _ := unstructured.NestedFieldNoCopy(o, "spec", name)
	return v, ok
}
