package pipeline

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/refusal"
	"github.com/controller-gen-default/controller-gen-default/normalize"
)

// loadPipelines loads and validates the CRDs (through the check cache,
// normalize.CheckCache) and returns a pipeline per served version, each
// built when the first object of its version needs it (Pipeline.Build):
// a version no object uses costs its entry in the map, nothing more. It
// also returns the CRDs' API groups, served or not (--skip-other-groups
// skips the objects of other groups).
func loadPipelines(ctx context.Context, paths []string, stderr io.Writer) (map[schema.GroupVersionKind]*Pipeline, map[string]bool, int) {
	crds, err := normalize.LoadCRDs(paths...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, nil, ExitUnusable
	}
	if len(crds) == 0 {
		fmt.Fprintf(stderr, "no CustomResourceDefinition in %s\n", strings.Join(paths, ", "))
		return nil, nil, ExitUnusable
	}
	// the first invalid CRD, in input order, ends the run
	for i, errs := range normalize.OpenCheckCache().ValidateCRDs(ctx, crds) {
		if len(errs) > 0 {
			var lists refusal.ValueLists // an enum's values once per CRD
			for _, e := range sortErrors(errs) {
				fmt.Fprintf(stderr, "CRD %s: %s\n", crds[i].Name, lists.Shorten(e.Field, e.Error()))
			}
			return nil, nil, ExitUnusable
		}
	}
	out, groups := map[schema.GroupVersionKind]*Pipeline{}, map[string]bool{}
	for _, c := range crds {
		groups[c.Spec.Group] = true
		// the CRD as the apiserver holds it, converted once for all its
		// versions, when the first of them is built
		internal := sync.OnceValues(func() (*apiextensions.CustomResourceDefinition, error) { return normalize.ToInternal(c) })
		for _, v := range c.Spec.Versions {
			if !v.Served {
				continue
			}
			p, err := newLazy(c, v.Name, internal)
			if err != nil {
				fmt.Fprintf(stderr, "CRD %s: %v\n", c.Name, err)
				return nil, nil, ExitUnusable
			}
			out[p.gvk] = p
		}
	}
	return out, groups, ExitOK
}
