package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/typed/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// ChunkSize is how many objects one list request asks for: kubectl get's
// --chunk-size default.
const ChunkSize = 500

// DefaultRequestTimeout is --request-timeout's default: kube-apiserver's
// own default --request-timeout, after which it answers a list 504 itself.
// So no answer a default apiserver gives is cut off, and a server that
// accepts the connection and never answers costs a minute, not forever.
// (kubectl's default, 0, waits forever.)
const DefaultRequestTimeout = time.Minute

// ParseRequestTimeout reads --request-timeout as kubectl reads its own
// (k8s.io/client-go/tools/clientcmd.ParseTimeout): a duration such as 30s
// or 1m, or whole seconds; 0 is no limit.
func ParseRequestTimeout(s string) (time.Duration, error) {
	d, err := clientcmd.ParseTimeout(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want a duration such as 30s or 1m, whole seconds, or 0 for no limit, as kubectl's --request-timeout")
	}
	return d, nil
}

// Cluster is a cluster read through its API: CRDs with get and list,
// objects with list, page by page. It never writes.
type Cluster struct {
	// Name says which cluster in messages: the kubeconfig context.
	Name string
	// Timeout is how long one request may take (rest.Config.Timeout,
	// --request-timeout); 0 is no limit.
	Timeout time.Duration
	crds    apiextensionsclient.CustomResourceDefinitionInterface
	dyn     dynamic.Interface
}

// NewCluster is the cluster of kubeconfig's context (kubectl's rules:
// kubeconfig "" is $KUBECONFIG, else ~/.kube/config; context "" is the
// current context), each request of which may take timeout (0: no limit).
func NewCluster(kubeconfig, context string, timeout time.Duration) (*Cluster, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfig
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: context})
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	name := context
	if name == "" {
		name = raw.CurrentContext
	}
	cfg.Timeout = timeout
	return ClusterOf(cfg, name)
}

// ClusterOf is the cluster cfg reaches, called name in messages; each
// request may take cfg.Timeout (0: no limit).
func ClusterOf(cfg *rest.Config, name string) (*Cluster, error) {
	cfg = rest.CopyConfig(cfg)
	if cfg.QPS == 0 {
		cfg.QPS, cfg.Burst = 50, 100 // pages one after another, not a storm
	}
	crds, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &Cluster{Name: name, Timeout: cfg.Timeout, crds: crds.CustomResourceDefinitions(), dyn: dyn}, nil
}

// timeoutError is a request that took the cluster's Timeout.
type timeoutError struct {
	request string
	timeout time.Duration
	err     error
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("no answer to %s within --request-timeout=%s (give a longer one, or 0 for no limit, if the cluster is only slow): %v", e.request, e.timeout, e.err)
}

func (e *timeoutError) Unwrap() error { return e.err }

// do runs the request named request (list widgets.example.com at v1): an
// error that is a timeout after the cluster's Timeout is a timeoutError,
// which names the request and --request-timeout.
func (c *Cluster) do(request string, req func() error) error {
	start := time.Now()
	err := req()
	var netErr net.Error
	if err != nil && c.Timeout > 0 && time.Since(start) >= c.Timeout && errors.As(err, &netErr) && netErr.Timeout() {
		return &timeoutError{request: request, timeout: c.Timeout, err: err}
	}
	return err
}

// CRDs is the cluster's CRD name, or with name "" its CRDs of groups (all
// of them for nil groups), in name order.
func (c *Cluster) CRDs(ctx context.Context, name string, groups map[string]bool) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	if name != "" {
		var crd *apiextensionsv1.CustomResourceDefinition
		err := c.do("get customresourcedefinition "+name, func() (err error) {
			crd, err = c.crds.Get(ctx, name, metav1.GetOptions{})
			return err
		})
		if apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("kube://%s: the cluster (context %q) has no CRD %s (kubectl get crd lists them)", name, c.Name, name)
		}
		if err != nil {
			return nil, fmt.Errorf("kube://%s: reading the CRD from the cluster (context %q): %w", name, c.Name, err)
		}
		return []*apiextensionsv1.CustomResourceDefinition{typed(crd)}, nil
	}
	var out []*apiextensionsv1.CustomResourceDefinition
	_, err := eachPage(ctx, c.listCRDs, func(crd *apiextensionsv1.CustomResourceDefinition) string { return crd.Name },
		func(page []*apiextensionsv1.CustomResourceDefinition) error {
			for _, crd := range page {
				if groups == nil || groups[crd.Spec.Group] {
					out = append(out, typed(crd))
				}
			}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("kube://: listing the CRDs of the cluster (context %q): %w", c.Name, err)
	}
	slices.SortFunc(out, func(a, b *apiextensionsv1.CustomResourceDefinition) int {
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// listCRDs is a page of the cluster's CRDs.
func (c *Cluster) listCRDs(ctx context.Context, opts metav1.ListOptions) ([]*apiextensionsv1.CustomResourceDefinition, string, error) {
	var list *apiextensionsv1.CustomResourceDefinitionList
	err := c.do("list customresourcedefinitions", func() (err error) {
		list, err = c.crds.List(ctx, opts)
		return err
	})
	if err != nil {
		return nil, "", err
	}
	out := make([]*apiextensionsv1.CustomResourceDefinition, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, list.Continue, nil
}

// typed sets what a typed client leaves empty in what it decodes.
func typed(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
	crd.APIVersion, crd.Kind = apiextensionsv1.SchemeGroupVersion.String(), "CustomResourceDefinition"
	return crd
}

// Object is one object as the cluster stores it.
type Object struct {
	// Source names it: kube://PLURAL.GROUP/NAMESPACE/NAME
	// (kube://PLURAL.GROUP/NAME when cluster-scoped).
	Source string
	Object map[string]any
}

// ResourceError is a kind whose objects the apiserver did not list: RBAC,
// a conversion webhook that fails, a CRD the cluster does not have, a
// list that would not end.
type ResourceError struct {
	CRD     string
	Version string
	Err     error
	// Read is how many of its objects were read, and given to EachObject's
	// fn, before Err: 0 when its first request failed.
	Read int
}

// ReadVersion is the version the objects of crd are read at: the version
// they are stored at when the CRD says it (status.storedVersions has one
// version, which it serves), else its storage version; exact says which.
// The apiserver converts every object to the version asked for, and tells
// a client no object's stored version.
func ReadVersion(crd *apiextensionsv1.CustomResourceDefinition) (version string, exact bool) {
	if stored := crd.Status.StoredVersions; len(stored) == 1 {
		for _, v := range crd.Spec.Versions {
			if v.Name == stored[0] && v.Served {
				return v.Name, true
			}
		}
	}
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name, false
		}
	}
	return "", false
}

// EachObject calls fn with each object of the kinds of crds, CRD by CRD
// and page by page (ChunkSize objects a request, as kubectl get
// --chunk-size), so that memory holds one page, each object once
// (eachPage: a list that expires is read again, one that would not end is
// an error). A kind the apiserver does not list is given to refused, with
// how many of its objects were read, and the others are read; an error of
// fn, or a request that takes --request-timeout, ends the run: the cluster
// stopped answering, and each other kind would wait as long. progress,
// when not nil, gets a line (rewritten with \r) per page.
func (c *Cluster) EachObject(ctx context.Context, crds []*apiextensionsv1.CustomResourceDefinition, progress io.Writer,
	fn func(Object) error, refused func(*ResourceError)) error {
	read := 0
	for _, crd := range crds {
		version, _ := ReadVersion(crd)
		gvr := schema.GroupVersionResource{Group: crd.Spec.Group, Version: version, Resource: crd.Spec.Names.Plural}
		var fnErr error
		n, err := eachPage(ctx, c.listObjects(crd.Name, gvr), objectKey, func(items []map[string]any) error {
			for _, o := range items {
				if fnErr = fn(Object{Source: objectSource(crd.Name, o), Object: o}); fnErr != nil {
					return fnErr
				}
			}
			read += len(items)
			if progress != nil {
				fmt.Fprintf(progress, "\rimpact: %d objects read (%s)\x1b[K", read, crd.Name)
			}
			return nil
		})
		var timeout *timeoutError
		switch {
		case fnErr != nil:
			return fnErr
		case errors.As(err, &timeout):
			return fmt.Errorf("kube://%s: listing its objects in the cluster (context %q) after %d of them: %w", crd.Name, c.Name, n, err)
		case err != nil:
			refused(&ResourceError{CRD: crd.Name, Version: version, Err: err, Read: n})
		}
	}
	if progress != nil && read > 0 {
		fmt.Fprintln(progress)
	}
	return nil
}

// listObjects lists the objects of gvr, the kind of the CRD crd, in all
// namespaces, a page at a time.
func (c *Cluster) listObjects(crd string, gvr schema.GroupVersionResource) listFunc[map[string]any] {
	return func(ctx context.Context, opts metav1.ListOptions) ([]map[string]any, string, error) {
		var page *unstructured.UnstructuredList
		err := c.do("list "+crd+" at "+gvr.Version, func() (err error) {
			page, err = c.dyn.Resource(gvr).List(ctx, opts)
			return err
		})
		if err != nil {
			return nil, "", err
		}
		items := make([]map[string]any, len(page.Items))
		for i := range page.Items {
			items[i] = page.Items[i].Object
		}
		return items, page.GetContinue(), nil
	}
}

// objectKey is an object's namespace/name: what names it once.
func objectKey(o map[string]any) string {
	md, _ := o["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	return ns + "/" + name
}

func objectSource(crd string, o map[string]any) string {
	md, _ := o["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	if ns == "" {
		return "kube://" + crd + "/" + name
	}
	return "kube://" + crd + "/" + ns + "/" + name
}
