package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/typed/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// ChunkSize is how many objects one list request asks for: kubectl get's
// --chunk-size default.
const ChunkSize = 500

// Cluster is a cluster read through its API: CRDs with get and list,
// objects with list, page by page. It never writes.
type Cluster struct {
	// Name says which cluster in messages: the kubeconfig context.
	Name string
	crds apiextensionsclient.CustomResourceDefinitionInterface
	dyn  dynamic.Interface
}

// NewCluster is the cluster of kubeconfig's context (kubectl's rules:
// kubeconfig "" is $KUBECONFIG, else ~/.kube/config; context "" is the
// current context).
func NewCluster(kubeconfig, context string) (*Cluster, error) {
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
	return ClusterOf(cfg, name)
}

// ClusterOf is the cluster cfg reaches, called name in messages.
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
	return &Cluster{Name: name, crds: crds.CustomResourceDefinitions(), dyn: dyn}, nil
}

// CRDs is the cluster's CRD name, or with name "" its CRDs of groups (all
// of them for nil groups), in name order.
func (c *Cluster) CRDs(ctx context.Context, name string, groups map[string]bool) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	if name != "" {
		crd, err := c.crds.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("kube://%s: the cluster (context %q) has no CRD %s (kubectl get crd lists them)", name, c.Name, name)
		}
		if err != nil {
			return nil, fmt.Errorf("kube://%s: %w", name, err)
		}
		return []*apiextensionsv1.CustomResourceDefinition{typed(crd)}, nil
	}
	var out []*apiextensionsv1.CustomResourceDefinition
	opts := metav1.ListOptions{Limit: ChunkSize}
	for {
		page, err := c.crds.List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("kube://: listing the CRDs of the cluster (context %q): %w", c.Name, err)
		}
		for i := range page.Items {
			if groups == nil || groups[page.Items[i].Spec.Group] {
				out = append(out, typed(&page.Items[i]))
			}
		}
		if opts.Continue = page.Continue; opts.Continue == "" {
			break
		}
	}
	slices.SortFunc(out, func(a, b *apiextensionsv1.CustomResourceDefinition) int {
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
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
// a conversion webhook that fails, a CRD the cluster does not have.
type ResourceError struct {
	CRD     string
	Version string
	Err     error
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
// --chunk-size), so that memory holds one page. A kind the apiserver does
// not list is given to refused and the others are read; an error of fn
// ends the run. progress, when not nil, gets a line (rewritten with \r)
// per page.
func (c *Cluster) EachObject(ctx context.Context, crds []*apiextensionsv1.CustomResourceDefinition, progress io.Writer,
	fn func(Object) error, refused func(*ResourceError)) error {
	read := 0
	for _, crd := range crds {
		version, _ := ReadVersion(crd)
		gvr := schema.GroupVersionResource{Group: crd.Spec.Group, Version: version, Resource: crd.Spec.Names.Plural}
		err := c.eachPage(ctx, gvr, func(items []map[string]any) error {
			for _, o := range items {
				if err := fn(Object{Source: objectSource(crd.Name, o), Object: o}); err != nil {
					return err
				}
			}
			read += len(items)
			if progress != nil {
				fmt.Fprintf(progress, "\rimpact: %d objects read (%s)\x1b[K", read, crd.Name)
			}
			return nil
		})
		var listErr *listError
		if errors.As(err, &listErr) {
			refused(&ResourceError{CRD: crd.Name, Version: version, Err: listErr.err})
			continue
		}
		if err != nil {
			return err
		}
	}
	if progress != nil && read > 0 {
		fmt.Fprintln(progress)
	}
	return nil
}

// listError is a list request the apiserver refused.
type listError struct{ err error }

func (e *listError) Error() string { return e.err.Error() }

// eachPage lists gvr in all namespaces, ChunkSize objects at a time.
func (c *Cluster) eachPage(ctx context.Context, gvr schema.GroupVersionResource, fn func([]map[string]any) error) error {
	opts := metav1.ListOptions{Limit: ChunkSize}
	for {
		page, err := c.dyn.Resource(gvr).List(ctx, opts)
		if err != nil {
			return &listError{err}
		}
		items := make([]map[string]any, len(page.Items))
		for i := range page.Items {
			items[i] = page.Items[i].Object
		}
		if err := fn(items); err != nil {
			return err
		}
		if opts.Continue = page.GetContinue(); opts.Continue == "" {
			return nil
		}
	}
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
