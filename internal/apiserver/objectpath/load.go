package objectpath

import (
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

// Lazy returns a pipeline per served version of crds, which must be
// valid, each built when the first object of its version needs it
// (Pipeline.Build): a version no object uses costs its entry in the map,
// nothing more.
func Lazy(crds []*apiextensionsv1.CustomResourceDefinition) (map[schema.GroupVersionKind]*Pipeline, error) {
	out := map[schema.GroupVersionKind]*Pipeline{}
	for _, c := range crds {
		// the CRD as the apiserver holds it, converted once for all its
		// versions, when the first of them is built
		internal := sync.OnceValues(func() (*apiextensions.CustomResourceDefinition, error) { return crdcheck.ToInternal(c) })
		for _, v := range c.Spec.Versions {
			if !v.Served {
				continue
			}
			p, err := newLazy(c, v.Name, internal)
			if err != nil {
				return nil, fmt.Errorf("CRD %s: %w", c.Name, err)
			}
			out[p.gvk] = p
		}
	}
	return out, nil
}
