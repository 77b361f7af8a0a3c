package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	clientv3 "go.etcd.io/etcd/client/v3"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/impact"
	"github.com/controller-gen-default/controller-gen-default/internal/input/source"
)

// impact against a cluster, as an operator runs it before an upgrade:
// OLD's CRDs and objects installed in the live apiserver, then
// `impact --old kube:// --new DIR --objects kube://` run as a
// ServiceAccount bound only to the ClusterRole docs/impact.md gives. Its
// predictions must be the apiserver's answers once NEW is applied, it must
// write nothing, and a kind it may not list must be reported, not end the
// run.
var _ = Describe("impact --old kube:// --objects kube://: as the documented ClusterRole", Ordered, func() {
	var tool string
	BeforeAll(func() { tool = withNormalize() })

	It("predicts what the apiserver does, writes nothing, and reports a kind it may not list", func() {
		suffix := fmt.Sprintf("%d", time.Now().UnixNano()%1000000)
		group := "kube" + suffix + ".impact.example.com"
		forbiddenGroup := "forbidden" + suffix + ".impact.example.com"
		token := "p" + suffix

		oldFile, err := crdcheck.LoadCRDs("../../internal/impact/testdata/old.yaml")
		Expect(err).NotTo(HaveOccurred())
		newFile, err := crdcheck.LoadCRDs("../../internal/impact/testdata/new.yaml")
		Expect(err).NotTo(HaveOccurred())
		objects := regroupObjects(readObjects("../../internal/impact/testdata/objects.yaml", "../../internal/impact/testdata/list.yaml"), group)
		old := append(regroup(oldFile, group), thingCRD(forbiddenGroup))
		new := withProbe(append(regroup(newFile, group), thingCRD(forbiddenGroup)), token)
		objects = append(objects, map[string]any{"apiVersion": forbiddenGroup + "/v1", "kind": "Thing",
			"metadata": map[string]any{"name": "hidden", "namespace": "default"}, "spec": map[string]any{"a": "b"}})

		By("installing OLD and its objects")
		predictor, err := impact.New(bg(), old, new)
		Expect(err).NotTo(HaveOccurred())
		for _, c := range old {
			installCRD(c)
		}
		DeferCleanup(func() {
			for _, c := range old {
				_ = k8s.Delete(bg(), c.DeepCopy())
			}
		})
		for i, obj := range objects {
			if ns, _, _ := unstructured.NestedString(obj, "metadata", "namespace"); ns != "" {
				ensureNamespace(ns)
			}
			rec, err := predictor.Object(bg(), obj)
			Expect(err).NotTo(HaveOccurred())
			createLive(fmt.Sprintf("object %d", i), obj, rec)
		}

		By("binding a ServiceAccount to the ClusterRole of docs/impact.md, for OLD's group only")
		kubeconfig := readerKubeconfig(group, suffix)
		before := storedObjects(old)

		By("running impact --old kube:// --new DIR --objects kube:// -o json as that ServiceAccount")
		tmp := GinkgoT().TempDir()
		newDir := writeCRDDir(tmp, "new", new)
		out, code := runIn(tmp, tool, "impact", "--old", "kube://", "--new", newDir, "--objects", "kube://",
			"--kubeconfig", kubeconfig, "-o", "json")
		Expect(code).To(Equal(impact.ExitImpact), "objects of the fixed upgrade fail, and a kind is unreadable:\n%s", out)
		recs, findings := parseClusterReport(out)

		By("checking it wrote nothing: every object's resourceVersion is unchanged")
		Expect(storedObjects(old)).To(Equal(before))

		By("checking the kind it may not list is a finding, and the run went on")
		unreadable := 0
		for _, f := range findings {
			if f.Rule == impact.FindingUnreadable {
				unreadable++
				Expect(f.CRD).To(Equal("things." + forbiddenGroup))
				// refused by RBAC, to the ServiceAccount: the run was as it
				Expect(f.Msg).To(ContainSubstring(`User "system:serviceaccount:impact-readers:impact-` + suffix + `" cannot list resource "things"`))
			}
		}
		Expect(unreadable).To(Equal(1), "findings %+v", findings)

		By("checking its records are those of the objects the cluster stores, predicted in memory")
		cluster, err := source.ClusterOf(testEnv.Config, "admin")
		Expect(err).NotTo(HaveOccurred())
		installed, err := cluster.CRDs(bg(), "", map[string]bool{group: true})
		Expect(err).NotTo(HaveOccurred())
		a, err := impact.New(bg(), installed, new)
		Expect(err).NotTo(HaveOccurred())
		var live []*impact.Record
		Expect(cluster.EachObject(bg(), installed, nil, func(o source.Object) error {
			rec, err := a.Object(bg(), o.Object)
			Expect(err).NotTo(HaveOccurred())
			rec.Source = o.Source
			got, ok := recs[o.Source]
			Expect(ok).To(BeTrue(), "%s: no record in impact's report", o.Source)
			Expect(got).To(MatchJSON(toJSON(rec)), "%s: the command's record differs from the object's, predicted in memory", o.Source)
			delete(recs, o.Source)
			live = append(live, rec)
			return nil
		}, func(e *source.ResourceError) { Fail(e.CRD + ": " + e.Err.Error()) })).To(Succeed())
		Expect(recs).To(BeEmpty(), "records of objects the cluster does not store")
		Expect(live).To(HaveLen(len(before) - 1)) // all but the forbidden kind's object

		By("applying NEW and comparing every prediction with the apiserver's answers")
		refused := map[string]bool{}
		for _, f := range a.Findings() {
			if f.Rule == impact.FindingUpdateRefused {
				refused[f.CRD] = true
			}
		}
		for _, c := range new {
			updateCRD("kube://", c, refused[c.Name])
		}
		checked := 0
		for _, rec := range live {
			if rec.Read == nil {
				continue
			}
			what := fmt.Sprintf("kube://: %s %s", rec.Kind, rec.Name)
			got := readLive(rec, token)
			Expect(withoutMetadata(got)).To(Equal(withoutMetadata(rec.Read)), "%s: GET after the upgrade is not what impact predicted", what)
			checkNoopUpdate(what, got, rec, hasStatusSubresource(new, rec))
			checkTouches(what, rec)
			checked++
		}
		Expect(checked).To(BeNumerically(">=", 8))
		fmt.Fprintf(GinkgoWriter, "impact kube://: %d objects read from the cluster, %d predictions checked live, 0 disagreements\n", len(live), checked)
	})
})

// thingCRD is a CRD of group with one served version and a free-form spec.
func thingCRD(group string) *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	c := &apiextensionsv1.CustomResourceDefinition{}
	c.Name = "things." + group
	c.Spec = apiextensionsv1.CustomResourceDefinitionSpec{
		Group: group, Scope: apiextensionsv1.NamespaceScoped,
		Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "things", Singular: "thing", Kind: "Thing", ListKind: "ThingList"},
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
			Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object",
				Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": {Type: "object", XPreserveUnknownFields: &preserve}}}}}},
	}
	return c
}

// documentedClusterRole is the ClusterRole of docs/impact.md (the YAML
// block after <!-- impact-clusterrole -->), for the API group group.
func documentedClusterRole(group string) *rbacv1.ClusterRole {
	GinkgoHelper()
	doc, err := os.ReadFile("../../docs/impact.md")
	Expect(err).NotTo(HaveOccurred())
	_, after, ok := strings.Cut(string(doc), "<!-- impact-clusterrole -->\n```yaml\n")
	Expect(ok).To(BeTrue(), "docs/impact.md has no ClusterRole block")
	block, _, _ := strings.Cut(after, "```")
	Expect(strings.Count(block, `"example.com"`)).To(Equal(1), "the block's group to fill in")
	var role rbacv1.ClusterRole
	Expect(yaml.UnmarshalStrict([]byte(strings.Replace(block, `"example.com"`, `"`+group+`"`, 1)), &role)).To(Succeed())
	return &role
}

// readerKubeconfig binds a new ServiceAccount to the documented ClusterRole
// for group, and writes a kubeconfig that authenticates as it (a token
// from the TokenRequest API), whose path it returns.
func readerKubeconfig(group, suffix string) string {
	GinkgoHelper()
	const ns = "impact-readers"
	ensureNamespace(ns)
	sa := &corev1.ServiceAccount{}
	sa.Name, sa.Namespace = "impact-"+suffix, ns
	Expect(k8s.Create(bg(), sa)).To(Succeed())
	role := documentedClusterRole(group)
	role.Name = "controller-gen-default-impact-" + suffix
	Expect(k8s.Create(bg(), role)).To(Succeed())
	binding := &rbacv1.ClusterRoleBinding{
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa.Name, Namespace: ns}},
	}
	binding.Name = role.Name
	Expect(k8s.Create(bg(), binding)).To(Succeed())
	DeferCleanup(func() {
		_ = k8s.Delete(bg(), binding)
		_ = k8s.Delete(bg(), role)
		_ = k8s.Delete(bg(), sa)
	})
	cs, err := kubernetes.NewForConfig(testEnv.Config)
	Expect(err).NotTo(HaveOccurred())
	tr, err := cs.CoreV1().ServiceAccounts(ns).CreateToken(bg(), sa.Name, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "TokenRequest for the ServiceAccount")
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["envtest"] = &clientcmdapi.Cluster{Server: testEnv.Config.Host, CertificateAuthorityData: testEnv.Config.CAData}
	cfg.AuthInfos["impact"] = &clientcmdapi.AuthInfo{Token: tr.Status.Token}
	cfg.Contexts["impact"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: "impact"}
	cfg.CurrentContext = "impact"
	path := filepath.Join(GinkgoT().TempDir(), "kubeconfig")
	Expect(clientcmd.WriteToFile(*cfg, path)).To(Succeed())
	// the binding is in force once the token can list OLD's group
	reader, err := source.NewCluster(path, "", source.DefaultRequestTimeout)
	Expect(err).NotTo(HaveOccurred())
	Eventually(func() error {
		_, err := reader.CRDs(bg(), "", map[string]bool{group: true})
		return err
	}, 30*time.Second, 200*time.Millisecond).Should(Succeed())
	return path
}

// storedObjects is each object of crds (their storage version) by
// kube:// name, with its resourceVersion, as the admin lists them.
func storedObjects(crds []*apiextensionsv1.CustomResourceDefinition) map[string]string {
	GinkgoHelper()
	cluster, err := source.ClusterOf(testEnv.Config, "admin")
	Expect(err).NotTo(HaveOccurred())
	out := map[string]string{}
	Expect(cluster.EachObject(bg(), crds, nil, func(o source.Object) error {
		u := unstructured.Unstructured{Object: o.Object}
		out[o.Source] = u.GetResourceVersion()
		return nil
	}, func(e *source.ResourceError) { Fail(e.CRD + ": " + e.Err.Error()) })).To(Succeed())
	return out
}

// parseClusterReport reads impact -o json: records by source, and
// findings.
func parseClusterReport(out []byte) (map[string]string, []impact.Finding) {
	GinkgoHelper()
	recs := map[string]string{}
	var findings []impact.Finding
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var probe struct {
			Source  string `json:"source"`
			Finding string `json:"finding"`
		}
		Expect(json.Unmarshal(sc.Bytes(), &probe)).To(Succeed(), "%s", sc.Bytes())
		if probe.Finding != "" {
			var f impact.Finding
			Expect(json.Unmarshal(sc.Bytes(), &f)).To(Succeed())
			findings = append(findings, f)
			continue
		}
		Expect(probe.Source).To(HavePrefix("kube://"))
		recs[probe.Source] = sc.Text()
	}
	return recs, findings
}

// A paged read of a kind whose continue token expires between pages: etcd
// compacted the revision the list is read at (kube-apiserver compacts every
// 5 minutes by default, so a long read meets it), and the apiserver answers
// the next page 410 Expired. The read must go on, each object given once,
// those stored meanwhile too.
var _ = Describe("impact --objects kube://: a list that expires between pages", func() {
	It("reads every object once when etcd is compacted between pages", func() {
		suffix := fmt.Sprintf("%d", time.Now().UnixNano()%1000000)
		crd := thingCRD("paging" + suffix + ".impact.example.com")
		installCRD(crd)
		DeferCleanup(func() { _ = k8s.Delete(bg(), crd.DeepCopy()) })
		gvr := schema.GroupVersionResource{Group: crd.Spec.Group, Version: "v1", Resource: "things"}

		cfg := rest.CopyConfig(testEnv.Config)
		cfg.QPS, cfg.Burst = -1, 0 // no client-side rate limit: the workers bound it
		dyn, err := dynamic.NewForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		namespaces := []string{"paging-a-" + suffix, "paging-b-" + suffix}
		By("creating 1,201 objects in two namespaces, the same names in both")
		const stored = 2*source.ChunkSize + 201
		var want []string
		for i := range stored {
			ns, name := namespaces[i%2], fmt.Sprintf("thing-%04d", i/2)
			want = append(want, "kube://"+crd.Name+"/"+ns+"/"+name)
		}
		for _, ns := range namespaces {
			ensureNamespace(ns)
		}
		createThings(dyn, gvr, want)

		etcd, err := clientv3.New(clientv3.Config{Endpoints: []string{testEnv.ControlPlane.Etcd.URL.String()}, DialTimeout: 10 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(etcd.Close)

		By("reading them page by page, compacting etcd after the first page")
		counted := rest.CopyConfig(testEnv.Config)
		lists := &listCounter{path: "/apis/" + gvr.Group + "/v1/things"}
		counted.Wrap(lists.wrap)
		cluster, err := source.ClusterOf(counted, "admin")
		Expect(err).NotTo(HaveOccurred())
		seen := map[string]int{}
		var waited time.Duration
		Expect(cluster.EachObject(bg(), []*apiextensionsv1.CustomResourceDefinition{crd}, nil, func(o source.Object) error {
			seen[o.Source]++
			if len(seen) == source.ChunkSize && seen[o.Source] == 1 { // the first page is read
				name := "a-stored-between-pages"
				want = append(want, "kube://"+crd.Name+"/"+namespaces[0]+"/"+name)
				waited = expireContinueTokens(dyn, gvr, etcd, func() { createThings(dyn, gvr, want[len(want)-1:]) })
			}
			return nil
		}, func(e *source.ResourceError) { Fail(e.CRD + ": " + e.Err.Error()) })).To(Succeed())

		Expect(lists.expired.Load()).To(BeNumerically(">=", 1), "no page was answered 410 Expired: the compaction did not reach the list")
		for _, s := range want {
			Expect(seen[s]).To(Equal(1), "%s: given %d times", s, seen[s])
		}
		Expect(seen).To(HaveLen(len(want)), "objects given that are not stored")
		fmt.Fprintf(GinkgoWriter, "kube:// paging: %d objects stored (1 of them between pages), each read once in %d list requests, %d answered 410 Expired after etcd was compacted (the apiserver's cache dropped its snapshots %s after)\n",
			len(want), lists.requests.Load(), lists.expired.Load(), waited.Round(time.Second))
	})
})

// createThings creates the Things named by sources (kube://CRD/NS/NAME),
// 8 at a time.
func createThings(dyn dynamic.Interface, gvr schema.GroupVersionResource, sources []string) {
	GinkgoHelper()
	var wg sync.WaitGroup
	errs := make(chan error, len(sources))
	work := make(chan string)
	for range 8 {
		wg.Go(func() {
			for s := range work {
				parts := strings.Split(s, "/") // kube:, "", CRD, NS, NAME
				obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": gvr.Group + "/v1", "kind": "Thing",
					"metadata": map[string]any{"name": parts[4]}, "spec": map[string]any{"n": parts[4]}}}
				_, err := dyn.Resource(gvr).Namespace(parts[3]).Create(bg(), obj, metav1.CreateOptions{})
				errs <- err
			}
		})
	}
	for _, s := range sources {
		work <- s
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		Expect(err).NotTo(HaveOccurred())
	}
}

// expireContinueTokens makes every continue token of gvr given so far
// expire: write (bumps etcd's revision), then compact etcd at its current
// revision as kube-apiserver's compactor does (k8s.io/apiserver's etcd3
// compactor: compact_rev_key records the revision, which tells the
// apiserver, then etcd compacts), and wait until the apiserver answers a
// token taken before 410 Expired (its watch cache serves continue tokens
// from snapshots until it polls the compaction revision, every 15 s). It
// returns how long that took.
func expireContinueTokens(dyn dynamic.Interface, gvr schema.GroupVersionResource, etcd *clientv3.Client, write func()) time.Duration {
	GinkgoHelper()
	probe, err := dyn.Resource(gvr).List(bg(), metav1.ListOptions{Limit: 1})
	Expect(err).NotTo(HaveOccurred())
	Expect(probe.GetContinue()).NotTo(BeEmpty())
	write()
	const key = "compact_rev_key"
	Eventually(func() error {
		cur, err := etcd.Get(bg(), key)
		if err != nil {
			return err
		}
		version := int64(0)
		if len(cur.Kvs) > 0 {
			version = cur.Kvs[0].Version
		}
		rev := cur.Header.Revision
		txn, err := etcd.Txn(bg()).If(clientv3.Compare(clientv3.Version(key), "=", version)).
			Then(clientv3.OpPut(key, strconv.FormatInt(rev, 10))).Commit()
		if err != nil {
			return fmt.Errorf("setting %s: %w", key, err)
		}
		if !txn.Succeeded {
			return errors.New("compact_rev_key changed meanwhile")
		}
		_, err = etcd.Compact(bg(), rev, clientv3.WithCompactPhysical())
		return err
	}, 30*time.Second, 100*time.Millisecond).Should(Succeed())
	start := time.Now()
	Eventually(func() bool {
		_, err := dyn.Resource(gvr).List(bg(), metav1.ListOptions{Limit: 1, Continue: probe.GetContinue()})
		return apierrors.IsResourceExpired(err)
	}, 60*time.Second, 250*time.Millisecond).Should(BeTrue(), "a continue token from before the compaction is still served")
	return time.Since(start)
}

// listCounter counts the list requests of path, and those answered 410.
type listCounter struct {
	path              string
	requests, expired atomic.Int32
	next              http.RoundTripper
}

func (c *listCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	c.next = rt
	return c
}

func (c *listCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if r.URL.Path == c.path {
		c.requests.Add(1)
		if err == nil && resp.StatusCode == http.StatusGone {
			c.expired.Add(1)
		}
	}
	return resp, err
}
