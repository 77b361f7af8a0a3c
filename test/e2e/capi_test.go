package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

// The modules of the cluster-api upgrade: OLD's CRDs, NEW's CRDs and
// Converters, and the samples (the proxy serves them all).
const (
	capiOldModule   = "sigs.k8s.io/cluster-api@v1.10.10"
	capiNewModule   = "sigs.k8s.io/cluster-api@v1.14.2"
	capiAPIModule   = "sigs.k8s.io/cluster-api/api@v1.14.2"
	capiTestModule  = "sigs.k8s.io/cluster-api/test@v1.13.7"
	capiWebhookDir  = "testdata/capiwebhook"
	capiObjectsFile = "testdata/capi/objects.yaml"
	capiSetupFile   = "testdata/capi/cgdsetup/setup.go"
	// capiSetup is the function impact's --setup calls in the program
	// that converts with cluster-api's code.
	capiSetup = "sigs.k8s.io/cluster-api/hack/cgdsetup.Setup"
	// capiObjects is the number of cluster-api objects of the scenario.
	capiObjects = 11
	// capiChecks is the number of comparisons the scenario makes: 22 GETs
	// before the write (11 objects at 2 versions), 11 no-op updates, 20
	// GETs after it (the 10 objects whose update is sent and accepted),
	// and LIST, LIST limit=500 and WATCH of the 9 resources at 2 versions,
	// before and after the writes (108).
	capiChecks = 22 + 11 + 20 + 108
)

// capiPlaceholders are the values of the samples' ${VAR}s.
var capiPlaceholders = map[string]string{
	"CLUSTER_NAME":                "capi-e2e",
	"KUBERNETES_VERSION":          "v1.33.0",
	"CONTROL_PLANE_MACHINE_COUNT": "1",
	"WORKER_MACHINE_COUNT":        "1",
	"DOCKER_SERVICE_CIDRS":        "10.128.0.0/12",
	"DOCKER_POD_CIDRS":            "192.168.0.0/16",
	"DOCKER_SERVICE_DOMAIN":       "cluster.local",
	"DOCKER_PRELOAD_IMAGES":       "[]",
	"CNI_RESOURCES":               "{}",
}

// A cluster-api user upgrades from v1.10.10 (v1beta1 storage) to v1.14.2
// (v1beta2 storage, cluster-api's Converters behind controller-runtime's
// conversion webhook). What the apiserver answers, object by object and
// version by version, must be what impact predicts.
var _ = Describe("impact on cluster-api v1.10.10 → v1.14.2 through cluster-api's own conversion webhook", func() {
	It("predicts every read, no-op update and LIST the apiserver answers", func() {
		s := newCapiScenario()
		s.installOld()
		s.createObjects()
		s.applyNew()
		s.runLive()
		fmt.Fprint(GinkgoWriter, s.live.summary())

		recs, pending := s.runImpact()
		Expect(pending).To(BeEmpty(), "live steps done (%s), but impact cannot be compared", s.live.oneLine())
		cmp := compareCapi(s, recs)
		fmt.Fprint(GinkgoWriter, cmp.report())
		AddReportEntry("capi checks", cmp.oneLine())
		Expect(cmp.disagreements).To(BeEmpty(), "impact disagrees with the apiserver on cluster-api:\n%s", strings.Join(cmp.disagreements, "\n"))
		Expect(cmp.pending).To(BeEmpty(), "predictions impact does not make yet:\n%s", strings.Join(cmp.pending, "\n"))
		Expect(cmp.checks).To(Equal(cmp.expected), "the number of checks is not what the live answers make")
		Expect(cmp.checks).To(Equal(capiChecks), "the number of checks is not what the scenario makes")
	})
})

// capiScenario is one run: the modules, the CRDs, the objects, the live
// webhook, and what the apiserver answered.
type capiScenario struct {
	tmp                    string
	oldMod, newMod, apiMod string
	testMod                string
	oldCRDs, newCRDs       []*apiextensionsv1.CustomResourceDefinition
	infraCRDs              []*apiextensionsv1.CustomResourceDefinition
	oldDir, newDir         string
	infraDir, objectsPath  string
	objects                []map[string]any
	hook                   *convWebhook
	live                   *capiLive
}

func newCapiScenario() *capiScenario {
	GinkgoHelper()
	s := &capiScenario{tmp: GinkgoT().TempDir()}
	By("downloading " + strings.Join([]string{capiOldModule, capiNewModule, capiAPIModule, capiTestModule}, ", "))
	dirs := goModDownload(s.tmp, capiOldModule, capiNewModule, capiAPIModule, capiTestModule)
	s.oldMod, s.newMod, s.apiMod, s.testMod = dirs[0], dirs[1], dirs[2], dirs[3]

	By("starting cluster-api v1.14.2's conversion webhook (" + capiWebhookDir + ")")
	s.hook = startCapiWebhook(s.tmp)

	// OLD and NEW as cluster-api's config/crd kustomizations deploy them:
	// with their labels (the contract labels the APIVersionGetter reads);
	// NEW with the conversion webhook its patches set.
	s.oldCRDs = kustomizedCRDs(s.oldMod, "config/crd", "bootstrap/kubeadm/config/crd", "controlplane/kubeadm/config/crd")
	s.newCRDs = kustomizedCRDs(s.newMod, "core/config/crd", "bootstrap/kubeadm/config/crd", "controlplane/kubeadm/config/crd")
	for _, c := range s.newCRDs {
		url := s.hook.url
		c.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{
			Strategy: apiextensionsv1.WebhookConverter,
			Webhook: &apiextensionsv1.WebhookConversion{
				ConversionReviewVersions: []string{"v1"},
				ClientConfig:             &apiextensionsv1.WebhookClientConfig{URL: &url, CABundle: s.hook.caBundle},
			},
		}
	}
	// The infrastructure kinds the samples refer to: the getter reads
	// their CRDs' labels (cluster-api's docker provider, as its
	// kustomization labels them). No object of them is created.
	for _, c := range kustomizedCRDs(s.testMod, "infrastructure/docker/config/crd") {
		switch c.Spec.Names.Kind {
		case "DockerCluster", "DockerMachine", "DockerMachineTemplate":
			c.Spec.Conversion = nil
			s.infraCRDs = append(s.infraCRDs, c)
		}
	}
	Expect(s.infraCRDs).To(HaveLen(3))
	s.oldDir, s.newDir, s.infraDir = writeCRDDir(s.tmp, "old", s.oldCRDs), writeCRDDir(s.tmp, "new", s.newCRDs), writeCRDDir(s.tmp, "infra", s.infraCRDs)

	s.objects = capiObjectList(s.testMod)
	Expect(s.objects).To(HaveLen(capiObjects), "the scenario's objects")
	var docs []string
	for _, o := range s.objects {
		docs = append(docs, toJSON(o))
	}
	s.objectsPath = filepath.Join(s.tmp, "objects.yaml")
	Expect(os.WriteFile(s.objectsPath, []byte(strings.Join(docs, "\n---\n")+"\n"), 0o644)).To(Succeed())
	return s
}

// goModDownload downloads modules (module@version) through the module
// proxy, or fails saying which one it refuses, and returns their
// directories.
func goModDownload(tmp string, modules ...string) []string {
	GinkgoHelper()
	cmd := exec.Command("go", append([]string{"mod", "download", "-json"}, modules...)...)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	d := json.NewDecoder(bytes.NewReader(out))
	dirs := map[string]string{}
	var refused []string
	for {
		var m struct{ Path, Version, Dir, Error string }
		if err := d.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			Fail(fmt.Sprintf("go mod download %v: %v\n%s", modules, err, stderr.String()))
		}
		if m.Error != "" {
			refused = append(refused, m.Path+"@"+m.Version+": "+m.Error)
			continue
		}
		dirs[m.Path+"@"+m.Version] = m.Dir
	}
	Expect(refused).To(BeEmpty(), "the module proxy (GOPROXY=%s) refuses modules this e2e needs", os.Getenv("GOPROXY"))
	Expect(runErr).NotTo(HaveOccurred(), "go mod download %v:\n%s", modules, stderr.String())
	var out2 []string
	for _, m := range modules {
		Expect(dirs).To(HaveKey(m), "go mod download gave no directory for %s", m)
		out2 = append(out2, dirs[m])
	}
	return out2
}

// startCapiWebhook builds testdata/capiwebhook and serves it as
// startConvWebhook serves convapi's, its APIVersionGetter reading the
// suite's apiserver.
func startCapiWebhook(tmp string) *convWebhook {
	GinkgoHelper()
	bin := filepath.Join(tmp, "capiwebhook")
	start := time.Now()
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = capiWebhookDir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	out, err := build.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "building %s (cluster-api v1.14.2's dependencies come from the module proxy):\n%s", capiWebhookDir, out)
	fmt.Fprintf(GinkgoWriter, "capiwebhook built in %s\n", time.Since(start).Round(time.Millisecond))

	kubeconfig := filepath.Join(tmp, "kubeconfig")
	writeKubeconfig(kubeconfig)
	// Serving: the TLS handshake succeeds (the first conversion is the
	// apiserver's, after NEW is applied).
	return serveWebhook(bin, []string{"--kubeconfig", kubeconfig}, func(h *convWebhook) error {
		u, err := url.Parse(h.url)
		if err != nil {
			return err
		}
		c, err := net.DialTimeout("tcp", u.Host, time.Second)
		if err == nil {
			c.Close()
		}
		return err
	})
}

// writeKubeconfig writes the suite's apiserver as a kubeconfig.
func writeKubeconfig(path string) {
	GinkgoHelper()
	cfg := testEnv.Config
	kc := clientcmdapi.NewConfig()
	kc.Clusters["envtest"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["envtest"] = &clientcmdapi.AuthInfo{ClientCertificateData: cfg.CertData, ClientKeyData: cfg.KeyData, Token: cfg.BearerToken}
	kc.Contexts["envtest"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: "envtest"}
	kc.CurrentContext = "envtest"
	Expect(clientcmd.WriteToFile(*kc, path)).To(Succeed())
}

// kustomizedCRDs are the CRDs of each kustomization directory's bases/,
// with the labels its kustomization.yaml adds (labels[].pairs).
func kustomizedCRDs(mod string, dirs ...string) []*apiextensionsv1.CustomResourceDefinition {
	GinkgoHelper()
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(mod, dir, "kustomization.yaml"))
		Expect(err).NotTo(HaveOccurred())
		var k struct {
			Labels []struct {
				Pairs map[string]string `json:"pairs"`
			} `json:"labels"`
			CommonLabels map[string]string `json:"commonLabels"`
		}
		Expect(yaml.Unmarshal(b, &k)).To(Succeed(), "%s/%s/kustomization.yaml", mod, dir)
		labels := map[string]string{}
		for _, l := range k.Labels {
			for key, v := range l.Pairs {
				labels[key] = v
			}
		}
		for key, v := range k.CommonLabels {
			labels[key] = v
		}
		crds, err := crdcheck.LoadCRDs(filepath.Join(mod, dir, "bases"))
		Expect(err).NotTo(HaveOccurred())
		for _, c := range crds {
			c = c.DeepCopy()
			if c.Labels == nil {
				c.Labels = map[string]string{}
			}
			for key, v := range labels {
				c.Labels[key] = v
			}
			out = append(out, c)
		}
	}
	return out
}

// writeCRDDir writes crds, one file each, to a new directory of tmp.
func writeCRDDir(tmp, name string, crds []*apiextensionsv1.CustomResourceDefinition) string {
	GinkgoHelper()
	dir := filepath.Join(tmp, name)
	Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
	for _, c := range crds {
		writeCRD(dir, c.Name+".yaml", c)
	}
	return dir
}

var placeholder = regexp.MustCompile(`\$\{\s*([A-Z_]+)\s*(:-[^}]*)?\}`)

// capiObjectList reads the scenario's objects: the cluster-api kinds of
// test@v1.13.7's v1.10 bases, placeholders substituted, then
// testdata/capi/objects.yaml; all in namespace default.
func capiObjectList(testMod string) []map[string]any {
	GinkgoHelper()
	var out []map[string]any
	bases := filepath.Join(testMod, "e2e", "data", "infrastructure-docker", "v1.10", "bases")
	for _, f := range []string{filepath.Join(bases, "cluster-with-kcp.yaml"), filepath.Join(bases, "md.yaml"), filepath.Join(bases, "crs.yaml"), capiObjectsFile} {
		b, err := os.ReadFile(f)
		Expect(err).NotTo(HaveOccurred())
		text := placeholder.ReplaceAllStringFunc(string(b), func(m string) string {
			name := placeholder.FindStringSubmatch(m)[1]
			v, ok := capiPlaceholders[name]
			Expect(ok).To(BeTrue(), "%s: no value for %s", f, m)
			return v
		})
		d := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReader(strings.NewReader(text)), 4096)
		for {
			var obj map[string]any
			if err := d.Decode(&obj); errors.Is(err, io.EOF) {
				break
			} else {
				Expect(err).NotTo(HaveOccurred(), f)
			}
			if obj == nil {
				continue
			}
			group, _, _ := strings.Cut(obj["apiVersion"].(string), "/")
			if !strings.HasSuffix(group, "cluster.x-k8s.io") || strings.HasPrefix(group, "infrastructure.") {
				continue
			}
			Expect(unstructured.SetNestedField(obj, "default", "metadata", "namespace")).To(Succeed())
			out = append(out, obj)
		}
	}
	return out
}

func (s *capiScenario) installOld() {
	GinkgoHelper()
	By(fmt.Sprintf("installing OLD (%s: %d CRDs) and the docker provider's %d", capiOldModule, len(s.oldCRDs), len(s.infraCRDs)))
	all := append(slices.Clone(s.oldCRDs), s.infraCRDs...)
	for _, c := range all {
		installCRD(c)
	}
	DeferCleanup(func() {
		for _, c := range all {
			_ = k8s.Delete(bg(), c.DeepCopy())
		}
	})
}

// crdOf is the CRD of NEW (or OLD) for an object's group and kind.
func crdOf(crds []*apiextensionsv1.CustomResourceDefinition, obj map[string]any) *apiextensionsv1.CustomResourceDefinition {
	group, _, _ := strings.Cut(obj["apiVersion"].(string), "/")
	for _, c := range crds {
		if c.Spec.Group == group && c.Spec.Names.Kind == obj["kind"] {
			return c
		}
	}
	return nil
}

func servedVersions(c *apiextensionsv1.CustomResourceDefinition) []string {
	var out []string
	for _, v := range c.Spec.Versions {
		if v.Served {
			out = append(out, v.Name)
		}
	}
	return out
}

func storageVersion(c *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range c.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// createObjects creates each object under OLD as a client does, and its
// status through /status, and keeps what a GET returns then.
func (s *capiScenario) createObjects() {
	GinkgoHelper()
	By(fmt.Sprintf("creating %d cluster-api objects under OLD", len(s.objects)))
	ensureNamespace("default")
	s.live = &capiLive{objects: map[string]*capiLiveObject{}}
	for _, obj := range s.objects {
		u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
		status, hasStatus := u.Object["status"]
		Expect(k8s.Create(bg(), u)).To(Succeed(), "creating %s", toJSON(obj))
		if hasStatus {
			u.Object["status"] = status
			Expect(k8s.Status().Update(bg(), u)).To(Succeed(), "writing the status of %s", toJSON(obj))
		}
		o := &capiLiveObject{obj: obj, crd: crdOf(s.newCRDs, obj)}
		Expect(o.crd).NotTo(BeNil(), "NEW has no CRD for %s", toJSON(obj))
		o.stored = capiGet(obj, obj["apiVersion"].(string))
		Expect(o.stored.err).To(BeEmpty())
		s.live.objects[o.key()] = o
		s.live.order = append(s.live.order, o.key())
	}
}

// applyNew replaces each CRD's spec and labels with NEW's, and waits until
// the apiserver serves NEW (a GET at NEW's storage version answers
// through the webhook).
func (s *capiScenario) applyNew() {
	GinkgoHelper()
	By(fmt.Sprintf("applying NEW (%s: %d CRDs, conversion webhook %s)", capiNewModule, len(s.newCRDs), s.hook.url))
	for _, c := range s.newCRDs {
		var cur apiextensionsv1.CustomResourceDefinition
		Expect(k8s.Get(bg(), keyOf(c.Name), &cur)).To(Succeed())
		cur.Spec = *c.Spec.DeepCopy()
		cur.Labels = c.Labels
		Expect(k8s.Update(bg(), &cur)).To(Succeed(), "the apiserver refuses NEW's %s", c.Name)
	}
	for _, c := range s.newCRDs {
		Eventually(func() bool {
			var got apiextensionsv1.CustomResourceDefinition
			return k8s.Get(bg(), keyOf(c.Name), &got) == nil && established(&got) && got.Spec.Conversion != nil &&
				got.Spec.Conversion.Strategy == apiextensionsv1.WebhookConverter
		}, 30*time.Second, 100*time.Millisecond).Should(BeTrue(), "%s", c.Name)
	}
	// Every object's CRD serves NEW's storage version through the webhook:
	// probed with an object whose conversion works (the first one of each
	// CRD that is not the broken Machine).
	probed := map[string]bool{}
	for _, k := range s.live.order {
		o := s.live.objects[k]
		if probed[o.crd.Name] || o.name() == "capi-e2e-bad-drain" {
			continue
		}
		probed[o.crd.Name] = true
		apiVersion := o.crd.Spec.Group + "/" + storageVersion(o.crd)
		Eventually(func() string { return capiGet(o.obj, apiVersion).err }, 60*time.Second, 200*time.Millisecond).Should(BeEmpty(),
			"GET %s %s at %s through the webhook", o.obj["kind"], o.name(), apiVersion)
	}
}

// capiLive is what the apiserver answered.
type capiLive struct {
	order   []string
	objects map[string]*capiLiveObject
	// lists are the answers of LIST, LIST limit=500 and WATCH by "CRD
	// version request", before and after the writes: "" (200) or "CODE:
	// message".
	listsBefore, listsAfter map[string]string
}

type capiLiveObject struct {
	obj map[string]any
	crd *apiextensionsv1.CustomResourceDefinition
	// stored is the GET under OLD after the create.
	stored capiAnswer
	// before and after are the GETs at each version NEW serves, before and
	// after the no-op update.
	before, after map[string]capiAnswer
	// update is the no-op update's outcome: sent (a GET at the storage
	// version answered), and its error fields ("" for an error without
	// causes: its message) for the PUT and the PUT to /status.
	updateSent   bool
	updateFields []string
	updateErr    string
}

func (o *capiLiveObject) name() string { return o.obj["metadata"].(map[string]any)["name"].(string) }
func (o *capiLiveObject) key() string  { return fmt.Sprintf("%s default/%s", o.obj["kind"], o.name()) }

// capiAnswer is a GET's answer: the object, or the error and its HTTP
// code.
type capiAnswer struct {
	obj  map[string]any
	code int
	err  string
}

func capiGet(obj map[string]any, apiVersion string) capiAnswer {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(obj["kind"].(string))
	err := k8s.Get(bg(), client.ObjectKey{Namespace: "default", Name: obj["metadata"].(map[string]any)["name"].(string)}, u)
	if err != nil {
		return capiAnswer{code: httpCode(err), err: err.Error()}
	}
	return capiAnswer{obj: u.Object, code: 200}
}

func httpCode(err error) int {
	var st apierrors.APIStatus
	if errors.As(err, &st) {
		return int(st.Status().Code)
	}
	return 0
}

// runLive GETs every object at each version NEW serves, LISTs each
// resource at each, sends each object's no-op update (the GET at NEW's
// storage version PUT back, and its status to /status), and GETs and LISTs
// again.
func (s *capiScenario) runLive() {
	GinkgoHelper()
	By("reading every object at each served version, updating it unchanged at NEW's storage version, reading again")
	s.live.listsBefore = s.list()
	for _, k := range s.live.order {
		o := s.live.objects[k]
		o.before = map[string]capiAnswer{}
		for _, v := range servedVersions(o.crd) {
			o.before[v] = capiGet(o.obj, o.crd.Spec.Group+"/"+v)
		}
	}
	for _, k := range s.live.order {
		o := s.live.objects[k]
		read := o.before[storageVersion(o.crd)]
		if read.err != "" {
			continue
		}
		o.updateSent = true
		u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(read.obj)}
		err := k8s.Update(bg(), u)
		o.updateFields = errorFields(err)
		if err != nil {
			o.updateErr = err.Error()
		}
		if _, ok := read.obj["status"]; ok && hasStatus(o.crd, storageVersion(o.crd)) {
			st := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(read.obj)}
			if err == nil {
				st.SetResourceVersion(u.GetResourceVersion())
			}
			serr := k8s.Status().Update(bg(), st)
			o.updateFields = append(o.updateFields, errorFields(serr)...)
			if serr != nil {
				o.updateErr += " /status: " + serr.Error()
			}
		}
	}
	for _, k := range s.live.order {
		o := s.live.objects[k]
		o.after = map[string]capiAnswer{}
		for _, v := range servedVersions(o.crd) {
			o.after[v] = capiGet(o.obj, o.crd.Spec.Group+"/"+v)
		}
	}
	s.live.listsAfter = s.list()
}

func hasStatus(c *apiextensionsv1.CustomResourceDefinition, version string) bool {
	for _, v := range c.Spec.Versions {
		if v.Name == version {
			return v.Subresources != nil && v.Subresources.Status != nil
		}
	}
	return false
}

// list sends, for each resource the objects are of and each version NEW
// serves, each request of listRequests (LIST, LIST limit=500, WATCH), in
// every namespace, once. Keys: "CRD version request"; values: "" (200) or
// "CODE: message".
func (s *capiScenario) list() map[string]string {
	GinkgoHelper()
	h, err := rest.HTTPClientFor(testEnv.Config)
	Expect(err).NotTo(HaveOccurred())
	out := map[string]string{}
	for _, k := range s.live.order {
		c := s.live.objects[k].crd
		for _, v := range servedVersions(c) {
			for _, r := range listRequests {
				key := c.Name + " " + v + " " + r.name
				if _, ok := out[key]; ok {
					continue
				}
				out[key] = capiListRequest(h, "/apis/"+c.Spec.Group+"/"+v+"/"+c.Spec.Names.Plural+r.query)
			}
		}
	}
	return out
}

// capiListRequest sends a GET of path once (as listWidgets does) and
// returns "" for a 200, else "CODE: message".
func capiListRequest(h *http.Client, path string) string {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(bg(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(testEnv.Config.Host, "/")+path, nil)
	Expect(err).NotTo(HaveOccurred())
	resp, err := h.Do(req)
	Expect(err).NotTo(HaveOccurred(), "GET %s", path)
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return ""
	}
	body, _ := io.ReadAll(resp.Body)
	var status metav1.Status
	if json.Unmarshal(body, &status) != nil {
		status.Message = string(body)
	}
	return fmt.Sprintf("%d: %s", resp.StatusCode, status.Message)
}

func (l *capiLive) oneLine() string {
	gets, failed, updates, refused, lists, listFailed := 0, 0, 0, 0, 0, 0
	for _, k := range l.order {
		o := l.objects[k]
		for _, a := range []map[string]capiAnswer{o.before, o.after} {
			for _, g := range a {
				gets++
				if g.err != "" {
					failed++
				}
			}
		}
		if o.updateSent {
			updates++
			if len(o.updateFields) > 0 {
				refused++
			}
		}
	}
	for _, m := range []map[string]string{l.listsBefore, l.listsAfter} {
		for _, e := range m {
			lists++
			if e != "" {
				listFailed++
			}
		}
	}
	return fmt.Sprintf("%d objects; %d GETs (%d failed), %d no-op updates (%d refused), %d LISTs (%d failed)",
		len(l.order), gets, failed, updates, refused, lists, listFailed)
}

// summary is what the apiserver answered, object by object.
func (l *capiLive) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "capi live: %s\n", l.oneLine())
	for _, k := range l.order {
		o := l.objects[k]
		fmt.Fprintf(&b, "  %s:", k)
		for _, phase := range []struct {
			name string
			m    map[string]capiAnswer
		}{{"before", o.before}, {"after", o.after}} {
			for _, v := range sortedKeys(phase.m) {
				fmt.Fprintf(&b, " GET %s %s %d;", phase.name, v, phase.m[v].code)
			}
		}
		switch {
		case !o.updateSent:
			fmt.Fprintf(&b, " update not sent\n")
			continue
		case len(o.updateFields) > 0:
			fmt.Fprintf(&b, " update refused: %s\n", o.updateErr)
		default:
			fmt.Fprintf(&b, " update ok\n")
		}
		// What readers of each version see change with the write.
		for _, v := range sortedKeys(o.before) {
			if o.before[v].err != "" || o.after[v].err != "" {
				continue
			}
			ch := capiChanges(o.before[v].obj, o.after[v].obj)
			if len(ch.Added)+len(ch.Removed)+len(ch.Changed) > 0 {
				fmt.Fprintf(&b, "    at %s the write adds %v, removes %v, changes %v\n", v, ch.Added, ch.Removed, ch.Changed)
			}
		}
	}
	for _, phase := range []struct {
		name string
		m    map[string]string
	}{{"before", l.listsBefore}, {"after", l.listsAfter}} {
		for _, k := range sortedKeys(phase.m) {
			if e := phase.m[k]; e != "" {
				fmt.Fprintf(&b, "  %s %s: %s\n", k, phase.name, e)
			}
		}
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
