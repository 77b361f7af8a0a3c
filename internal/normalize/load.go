package normalize

import (
	"context"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/refusal"
)

// loadPipelines loads and validates the CRDs (through the check cache,
// crdcheck.CheckCache) and returns a pipeline per served version, each
// built on first use (objectpath.Lazy). It also returns the CRDs' API
// groups, served or not (--skip-other-groups skips the objects of other
// groups).
func loadPipelines(ctx context.Context, paths []string, stderr io.Writer) (map[schema.GroupVersionKind]*objectpath.Pipeline, map[string]bool, int) {
	crds, err := crdcheck.LoadCRDs(paths...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, nil, ExitUnusable
	}
	if len(crds) == 0 {
		fmt.Fprintf(stderr, "no CustomResourceDefinition in %s\n", strings.Join(paths, ", "))
		return nil, nil, ExitUnusable
	}
	// the first invalid CRD, in input order, ends the run
	for i, errs := range crdcheck.OpenCheckCache().ValidateCRDs(ctx, crds) {
		if len(errs) > 0 {
			var lists refusal.ValueLists // an enum's values once per CRD
			for _, e := range objectpath.SortErrors(errs) {
				fmt.Fprintf(stderr, "CRD %s: %s\n", crds[i].Name, lists.Shorten(e.Field, e.Error()))
			}
			return nil, nil, ExitUnusable
		}
	}
	groups := map[string]bool{}
	for _, c := range crds {
		groups[c.Spec.Group] = true
	}
	out, err := objectpath.Lazy(crds)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, nil, ExitUnusable
	}
	return out, groups, ExitOK
}
